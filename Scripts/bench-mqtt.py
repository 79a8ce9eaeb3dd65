#!/usr/bin/env python3
"""Benchmarks jobs over MQTT (docs/mqtt.md) with Debian's mosquitto on loopback: `headway set
--broker` from process start to exit (plain and TLS), publish-to-service latency through
headway-mqtt into `headway-sim serve` and publish to the frame on each output's virtual glass
(p50/p99 over 1000 updates each), updates per second through one
broker to one display, and the bridge's wake-ups while idle. Release builds; usage:
Scripts/bench-mqtt.py (builds first)."""
import json, os, random, socket, statistics, struct, subprocess, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for product, extra in (("headway-sim", []), ("headway-mqtt", []), ("headway", ["--static-swift-stdlib"])):
    subprocess.run(["swift", "build", "-c", "release", *extra, "--product", product], cwd=root, check=True, stdout=subprocess.DEVNULL)
bin_dir = os.path.join(root, ".build", "release")
folder = tempfile.mkdtemp()

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def run(*args, **kwargs):
    return subprocess.run(list(args), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)

# A CA and a server certificate for the TLS listener.
path = lambda name: os.path.join(folder, name)
open(path("san.cnf"), "w").write("subjectAltName = IP:127.0.0.1\n")
run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=bench CA", "-keyout", path("ca.key"), "-out", path("ca.crt"))
run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"), "-out", path("server.csr"))
run("openssl", "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial", "-days", "2",
    "-extfile", path("san.cnf"), "-out", path("server.crt"))
plain, tls = free_port(), free_port()
# set_tcp_nodelay: as docs/mqtt.md recommends (without it a small reply after the TLS handshake
# waits for a delayed ACK: 52 ms for `headway set` over mqtts instead of a few).
open(path("mosquitto.conf"), "w").write(f"""user root
set_tcp_nodelay true
listener {plain} 127.0.0.1
allow_anonymous true
listener {tls} 127.0.0.1
allow_anonymous true
cafile {path("ca.crt")}
certfile {path("server.crt")}
keyfile {path("server.key")}
""")
broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", path("mosquitto.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
sock = path("headway.sock")
server = subprocess.Popen([os.path.join(bin_dir, "headway-sim"), "serve", "--headless", "--socket", sock],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
time.sleep(0.5)
bridge = subprocess.Popen([os.path.join(bin_dir, "headway-mqtt"), "--broker", f"mqtt://127.0.0.1:{plain}", "--socket", sock, "--name", "bench"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)

def timed_set(url, env, runs=100):
    times = []
    for i in range(runs):
        started = time.perf_counter()
        subprocess.run([os.path.join(bin_dir, "headway"), "--broker", url, "--source", "bench", "--job", "timing", "set", str(i)],
                       env=env, check=True, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), sorted(times)[int(len(times) * 0.9)]

env = dict(os.environ, HEADWAY_SOCKET="/nonexistent")
subprocess.run([os.path.join(bin_dir, "headway"), "--broker", f"mqtt://127.0.0.1:{plain}", "--source", "bench", "--job", "timing", "begin", "--total", "1000"], env=env, check=True)
median, p90 = timed_set(f"mqtt://127.0.0.1:{plain}", env)
print(f"headway set --broker mqtt:// (start to exit, 100 runs): median {median:.2f} ms, p90 {p90:.2f} ms")
median, p90 = timed_set(f"mqtts://127.0.0.1:{tls}", dict(env, HEADWAY_BROKER_CA=path("ca.crt")))
print(f"headway set --broker mqtts:// (start to exit, 100 runs): median {median:.2f} ms, p90 {p90:.2f} ms")

class Publisher:
    """A minimal MQTT 3.1.1 publisher (QoS 0) on a raw socket, so the timing is the broker's and ours."""
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client = b"bench-publisher"
        body = struct.pack("!H", 4) + b"MQTT" + bytes([4, 2]) + struct.pack("!H", 60) + struct.pack("!H", len(client)) + client
        self.s.sendall(bytes([0x10]) + self.length(len(body)) + body)
        assert self.s.recv(4)[:2] == b"\x20\x02"
    @staticmethod
    def length(n):
        out = b""
        while True:
            byte, n = n % 128, n // 128
            out += bytes([byte | (0x80 if n else 0)])
            if not n:
                return out
    def publish(self, topic, payload):
        t = topic.encode()
        body = struct.pack("!H", len(t)) + t + payload.encode()
        self.s.sendall(bytes([0x30]) + self.length(len(body)) + body)

import sys
sys.path.insert(0, os.path.join(root, "Scripts", "lib"))
from glass import ask as ask_socket, glass as glass_of, percentiles

def status():
    return {job["job"]: job for job in ask_socket(sock, '{"v":1,"op":"status"}')["jobs"]}

def glass(job):
    return glass_of(sock, job)

publisher = Publisher(plain)
topic = "headway/v1/jobs/bench/latency/"
publisher.publish(topic + "begin", json.dumps({"v": 1, "op": "begin", "job": "latency", "total": 100000}))
time.sleep(0.3)
latencies = []
for i in range(1, 1001):
    started = time.perf_counter()
    publisher.publish(topic + "progress", json.dumps({"v": 1, "op": "update", "job": "latency", "value": i}))
    while status().get("bench/latency", {}).get("value") != i:
        pass
    latencies.append((time.perf_counter() - started) * 1000)
latencies.sort()
print(f"publish to the service's state, 1000 updates one at a time: p50 {latencies[500]:.2f} ms, p99 {latencies[990]:.2f} ms, max {latencies[-1]:.2f} ms"
)

# Publish to the glass: until every output that shows the job has drawn a frame with the new value
# (the simulator's outputs draw at their own rates: the ring 50 frames/s, the OLED 20).
# The timing job ends, so that every output shows this one (single-job outputs keep the job they show).
publisher.publish("headway/v1/jobs/bench/timing/end", json.dumps({"v": 1, "op": "finish", "job": "timing", "outcome": "succeeded"}))
outputs = ask_socket(sock, '{"v":1,"op":"glass"}')["outputs"]
deadline = time.monotonic() + 15
while len(glass("bench/latency")) < len(outputs) and time.monotonic() < deadline:
    time.sleep(0.05)
outputs = sorted(glass("bench/latency"))
to_glass = {name: [] for name in outputs}
for i in range(1001, 2001):
    # Updates come at any moment of a frame period, as a runner's do.
    time.sleep(random.uniform(0, 0.05))
    started = time.monotonic()
    publisher.publish(topic + "progress", json.dumps({"v": 1, "op": "update", "job": "latency", "value": i}))
    first = {}
    while len(first) < len(outputs):
        for name, (at, value) in glass("bench/latency").items():
            if value == i and name not in first:
                first[name] = (at - started) * 1000
        time.sleep(0.0005)
    for name, ms in first.items():
        to_glass[name].append(ms)
for name in outputs:
    p50, p99, most = percentiles(to_glass[name])
    print(f"publish to the frame on the glass, {name}: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {most:.2f} ms")
p50, p99, most = percentiles([max(values) for values in zip(*to_glass.values())])
print(f"publish to the frame on every output's glass: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {most:.2f} ms")

count = 5000
started = time.perf_counter()
for i in range(1, count + 1):
    publisher.publish(topic + "progress", json.dumps({"v": 1, "op": "update", "job": "latency", "value": i}))
sent = time.perf_counter() - started
while status().get("bench/latency", {}).get("value") != count:
    time.sleep(0.001)
elapsed = time.perf_counter() - started
print(f"{count} updates through one broker to one display: {count / elapsed:.0f} updates/s (published in {sent * 1000:.0f} ms, all in the service after {elapsed * 1000:.0f} ms)")

def switches(pid):
    with open(f"/proc/{pid}/status") as f:
        status = dict(line.split(":", 1) for line in f)
    return int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"]), int(status["VmRSS"].split()[0])
time.sleep(1)
before, _ = switches(bridge.pid)
time.sleep(30)
after, rss = switches(bridge.pid)
print(f"headway-mqtt idle for 30 s: {after - before} wake-ups (keep-alive 30 s), RSS {rss / 1024:.1f} MiB")
for process in (bridge, server, broker):
    process.kill()
