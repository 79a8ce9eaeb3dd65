#!/usr/bin/env python3
"""The web page's costs (docs/performance.md, docs/web.md): `headway-sim serve --web` built as the
package builds the daemon (release, the Swift runtime linked in statically), on its rig.

- Update to browser: an update written to the socket (as `headway set` sends it) until the OLED's
  picture on the page changed (a MutationObserver on its canvas, in the page's own clock, which
  is this machine's wall clock, as the sender's), with 1 and with 20 pages open — 4 headless
  Chromiums of 5 tabs each, every page measured. 150 updates each, at random moments.
- CPU and RSS of the service over 20 s of the demo's job (headway-sim demo's script, played on
  the socket) with no web page configured, then configured with 0, 1 and 20 pages open (plain
  event-stream readers), and the bytes each page was pushed a second (the event stream's body as
  it crossed the socket, HTTP's chunk framing included).
- The page's weight: its four files, as served.
The page is configured as it is by default (`--web`, no `web:` section): 20 pages fit in it.
Usage: Scripts/bench-web.py (Scripts/test-web installs Chromium and Selenium first)."""
import json, os, random, socket, statistics, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "Tests", "Web"))
build = os.path.join(root, ".build-static")
subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", build, "--product", "headway-sim"],
               cwd=root, check=True, stdout=subprocess.DEVNULL)
binary = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", build, "--show-bin-path"],
                        cwd=root, check=True, capture_output=True, text=True).stdout.strip()
os.environ["HEADWAY_BIN"] = binary
os.environ.setdefault("HEADWAY_BIN_CLIENT", "")
import webtest
from webtest import Sim, wait_for


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS")).split()[1])


class Reader(threading.Thread):
    """A page's event stream, read and counted, nothing drawn."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port, self.bytes, self.stop = port, 0, False

    def run(self):
        s = socket.create_connection(("127.0.0.1", self.port))
        s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
        s.settimeout(0.5)
        while not self.stop:
            try:
                chunk = s.recv(65536)
                if not chunk:
                    break
                self.bytes += len(chunk)
            except socket.timeout:
                pass
        s.close()


def demo(sim, seconds):
    """The demo's job (Sources/HeadwayDemo/DemoScript.swift) played on the socket, over and over."""
    end = time.time() + seconds
    run = 0
    while time.time() < end:
        job = f"demo{run}"
        run += 1
        sim.send({"op": "begin", "job": job, "label": "Fetching sources", "name": "demo"})
        steps = [(3, {"op": "update", "job": job, "value": 0, "total": 120, "label": "Compiling 120 files"})]
        value = 0
        for step in range(1, 21):
            value += 3
            steps.append((3 + step * 0.25, {"op": "update", "job": job, "value": value}))
        for step in range(16):
            value += 4
            steps.append((11 + step * 0.25, {"op": "update", "job": job, "value": value}))
        steps.append((13, {"op": "label", "job": job, "label": "Linking release build"}))
        steps.append((15, {"op": "finish", "job": job, "outcome": "succeeded"}))
        start = time.time()
        for at, request in sorted(steps, key=lambda s: s[0]):
            delay = start + at - time.time()
            if time.time() + max(0, delay) > end:
                return
            if delay > 0:
                time.sleep(delay)
            sim.send(request)
        time.sleep(max(0, start + 16.5 - time.time()))


def resources(web, viewers, seconds=20):
    rig = open(os.path.join(root, "Boards", "simulator.yaml")).read()
    sim = Sim(rig, web="127.0.0.1:0" if web else None)
    try:
        time.sleep(1)
        readers = [Reader(sim.port) for _ in range(viewers)]
        for r in readers:
            r.start()
        time.sleep(1)
        before_cpu, before_bytes = cpu_seconds(sim.process.pid), [r.bytes for r in readers]
        samples = []
        stop = threading.Event()
        def sample():
            while not stop.is_set():
                samples.append(rss_kib(sim.process.pid))
                time.sleep(0.5)
        threading.Thread(target=sample, daemon=True).start()
        started = time.time()
        demo(sim, seconds)
        took = time.time() - started
        stop.set()
        cpu = (cpu_seconds(sim.process.pid) - before_cpu) / took * 100
        pushed = [(r.bytes - b) / took for r, b in zip(readers, before_bytes)]
        for r in readers:
            r.stop = True
        return cpu, max(samples) / 1024, (statistics.mean(pushed) if pushed else 0)
    finally:
        sim.stop()


def latency(tabs, updates=150):
    """`tabs` pages, five to a browser: a browser keeps at most six connections to one host over
    HTTP/1.1, and each open page holds one for its event stream."""
    from selenium import webdriver
    def browser():
        options = webdriver.ChromeOptions()
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,800", "--disable-background-timer-throttling",
                         "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"):
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
        driver.set_script_timeout(30)
        return driver
    rig = open(os.path.join(root, "Boards", "simulator.yaml")).read()
    sim = Sim(rig)
    drivers = []
    try:
        sim.send({"op": "begin", "job": "bench", "total": 1000, "label": "Latency"}, {"op": "update", "job": "bench", "value": 100})
        time.sleep(3)
        pages = []
        for i in range(tabs):
            if i % 5 == 0:
                drivers.append(browser())
            driver = drivers[-1]
            if i % 5:
                driver.switch_to.new_window("tab")
            driver.get(sim.base + "/")
            wait_for(lambda: driver.execute_script("return !!document.querySelector('canvas[data-output=oled]')"), what="the OLED on the page")
            driver.execute_script("""
                window.__changes = [];
                new MutationObserver(() => window.__changes.push(performance.timeOrigin + performance.now()))
                    .observe(document.querySelector('canvas[data-output=oled]'), {attributes: true, attributeFilter: ['data-seq']});""")
            pages.append((driver, driver.current_window_handle))
        client = socket.socket(socket.AF_UNIX)
        client.connect(sim.socket)
        reader = client.makefile("rb")
        sent = []
        for i in range(updates):
            time.sleep(0.25 + random.random() * 0.1)
            value = 200 + (i % 2) * 500 + random.randint(0, 50)
            t = time.time() * 1000
            client.sendall(json.dumps({"v": 1, "op": "update", "job": "bench", "value": value}).encode() + b"\n")
            reader.readline()
            sent.append(t)
        time.sleep(1)
        latencies = []
        for driver, handle in pages:
            driver.switch_to.window(handle)
            changes = sorted(driver.execute_script("return window.__changes"))
            for t in sent:
                after = [c for c in changes if c >= t]
                if after and after[0] - t < 250:
                    latencies.append(after[0] - t)
        return latencies, len(sent) * len(pages)
    finally:
        for driver in drivers:
            driver.quit()
        sim.stop()


weights = {}
sim = Sim()
try:
    for path in ("/", "/app.js", "/app.css", "/icon.svg"):
        status, headers, body = webtest.request(sim.port, "GET", path)
        weights[path] = len(body)
finally:
    sim.stop()
print("page weight:", weights, "total", sum(weights.values()), "bytes")

for tabs in (1, 20):
    values, expected = latency(tabs)
    print(f"update to browser, {tabs} page(s): {len(values)} of {expected} changes seen; p50 {percentile(values, 50):.1f} ms, "
          f"p99 {percentile(values, 99):.1f} ms, max {max(values):.1f} ms")

for label, web, viewers in (("no web page configured", False, 0), ("web page, 0 pages open", True, 0), ("1 page open", True, 1), ("20 pages open", True, 20)):
    cpu, rss, pushed = resources(web, viewers)
    print(f"{label}: CPU {cpu:.1f} % of a core, RSS max {rss:.1f} MiB" + (f", {pushed / 1024:.1f} KiB/s pushed to each page" if viewers else ""))
