#!/usr/bin/env python3
"""Benchmarks the service and client: round-trip latency of `headway set`, updates per second the
service absorbs on one connection, service CPU and wake-ups while idle and while animating, and
resident memory. Runs release builds of headway-sim serve (the daemon's core on virtual devices)
and headway. Usage: Scripts/bench-service.py (builds first)."""
import os, socket, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
subprocess.run(["swift", "build", "-c", "release", "--product", "headway-sim"], cwd=root, check=True, stdout=subprocess.DEVNULL)
# The client as it is installed: with the Swift standard library linked in (faster start-up).
subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "headway"], cwd=root, check=True, stdout=subprocess.DEVNULL)
bin_dir = os.path.join(root, ".build", "release")
folder = tempfile.mkdtemp()
sock = os.path.join(folder, "headway.sock")
env = dict(os.environ, HEADWAY_SOCKET=sock)
server = subprocess.Popen([os.path.join(bin_dir, "headway-sim"), "serve", "--headless", "--socket", sock],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists(sock):
        break
    time.sleep(0.02)

def client(*args):
    subprocess.run([os.path.join(bin_dir, "headway"), *args], env=env, check=True)

def cpu_and_wakeups(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    with open(f"/proc/{pid}/status") as f:
        status = dict(line.split(":", 1) for line in f)
    switches = int(status["voluntary_ctxt_switches"]) + int(status["nonvoluntary_ctxt_switches"])
    return ticks / os.sysconf("SC_CLK_TCK"), switches, int(status["VmRSS"].split()[0])

def measure(seconds):
    cpu0, sw0, _ = cpu_and_wakeups(server.pid)
    time.sleep(seconds)
    cpu1, sw1, rss = cpu_and_wakeups(server.pid)
    return (cpu1 - cpu0) / seconds * 100, (sw1 - sw0) / seconds, rss

try:
    client("--job", "bench", "begin", "--total", "1000")
    times = []
    for i in range(300):
        start = time.perf_counter()
        client("--job", "bench", "set", str(i))
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"headway set round trip (process start to exit): median {statistics.median(times):.2f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.2f} ms, max {times[-1]:.2f} ms over {len(times)} runs")

    count = 20000
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock)
        payload = "".join(f'{{"v":1,"op":"update","job":"bench","value":{i % 1000}}}\n' for i in range(count)).encode()
        start = time.perf_counter()
        s.sendall(payload)
        received = 0
        while received < count:
            received += s.recv(1 << 20).count(b"\n")
        elapsed = time.perf_counter() - start
    print(f"updates absorbed on one connection: {count / elapsed:,.0f} per second ({count} updates in {elapsed * 1000:.0f} ms, each answered)")

    client("--job", "spin", "begin", "--label", "Animating")
    time.sleep(1)
    cpu, wakeups, rss = measure(5)
    print(f"animating (one indeterminate job on the simulator rig's 5 outputs): CPU {cpu:.1f} %, {wakeups:.0f} wake-ups/s, RSS {rss / 1024:.1f} MiB")

    client("--job", "spin", "done")
    client("--job", "bench", "done")
    time.sleep(5)  # linger, then the idle frame
    cpu, wakeups, rss = measure(10)
    print(f"idle (no jobs): CPU {cpu:.2f} %, {wakeups:.1f} wake-ups/s, RSS {rss / 1024:.1f} MiB")
finally:
    server.terminate()
    server.wait()
