#!/usr/bin/env python3
"""Update-to-glass latency through the real service on virtual devices (docs/performance.md):
`headway-sim serve` (release build, the Swift runtime linked in statically as the package ships
headwayd) with the simulator's rig — ring, strip, OLED, GPIO bar and
bit-banged stick, all busy with the job — at their default frame rates. Each update is the line
`headway set` sends, written on a connection held open (so the client's own start-up is left
out: Scripts/bench-mqtt.py and the load test time that), at a random moment of the frame period;
the latency is from that write to the moment the first frame showing the new value was written
out by each output's driver (the simulator's `glass` operation). p50/p99 over 1000 updates, and
the service's RSS idle and while animating. Usage: Scripts/bench-latency.py"""
import json, os, random, socket, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "Scripts", "lib"))
from glass import ask, glass, percentiles

build = os.path.join(root, ".build-static")
subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", build, "--product", "headway-sim"],
               cwd=root, check=True, stdout=subprocess.DEVNULL)
binary = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", build, "--show-bin-path"],
                        cwd=root, check=True, capture_output=True, text=True).stdout.strip()
folder = tempfile.mkdtemp()
sock = os.path.join(folder, "headway.sock")
server = subprocess.Popen([os.path.join(binary, "headway-sim"), "serve", "--headless", "--socket", sock],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
while not os.path.exists(sock):
    time.sleep(0.01)
time.sleep(0.3)

def rss_mib():
    with open(f"/proc/{server.pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1]) / 1024

time.sleep(2)
idle = rss_mib()
client = socket.socket(socket.AF_UNIX)
client.connect(sock)
reader = client.makefile("rb")
def send(request):
    client.sendall(json.dumps(dict(v=1, **request)).encode() + b"\n")
    assert json.loads(reader.readline()).get("ok"), "refused"

send({"op": "begin", "job": "latency", "label": "Compiling widgets", "total": 100000})
deadline = time.monotonic() + 15
outputs = [output["output"] for output in ask(sock, '{"v":1,"op":"glass"}')["outputs"]]
while len(glass(sock, "latency")) < len(outputs) and time.monotonic() < deadline:
    time.sleep(0.05)
outputs = sorted(glass(sock, "latency"))
latencies = {name: [] for name in outputs}
for value in range(1, 1001):
    time.sleep(random.uniform(0, 0.05))
    started = time.monotonic()
    send({"op": "update", "job": "latency", "value": value})
    first = {}
    while len(first) < len(outputs):
        for name, (at, shown) in glass(sock, "latency").items():
            if shown == value and name not in first:
                first[name] = (at - started) * 1000
        time.sleep(0.0005)
    for name, ms in first.items():
        latencies[name].append(ms)
animating = rss_mib()
print(f"update to the frame written out, {len(outputs)} outputs busy, 1000 updates:")
for name in outputs:
    p50, p99, most = percentiles(latencies[name])
    print(f"  {name}: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {most:.2f} ms")
p50, p99, most = percentiles([max(values) for values in zip(*latencies.values())])
print(f"  every output: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {most:.2f} ms")
print(f"headway-sim serve RSS (the service and the simulator; headwayd is the service alone): idle {idle:.1f} MiB, "
      f"animating {len(outputs)} outputs {animating:.1f} MiB")
server.kill()
