#!/usr/bin/env python3
"""headway-ci's numbers as a follower of printers and a home, for docs/performance.md, against the
real servers of Tests/Printers and Tests/Home (OctoPrint 1.11.8, Moonraker 0.11.0 with the Klippy
stand-in, Home Assistant 2026.2.3) and headway-sim serve --headless:

- event at the server to display changed, p50 and p99, per source, at the default pacing (a look
  every 2 s while something runs): the bench changes something at the server (a Home Assistant
  input_number; a print paused and resumed through OctoPrint's and Moonraker's own APIs), reads the
  server every 20 ms until it shows the change, and the service's `status` every 20 ms until the
  display does; the time between the two;
- requests per hour, idle and during a job, per source: every request goes through a relay that
  logs it (Tests/Followers/fault_relay.py), counted over a window;
- resident memory (VmRSS) of one headway-ci following one source and ten.

Run: swift build --product headway-ci && swift build --product headway-sim && python3 Scripts/bench-followers.py
(HEADWAY_CI=.build/release/headway-ci for the release build; the servers' venvs as Scripts/test makes them).
"""
import json, os, random, socket, statistics, subprocess, sys, tempfile, time, urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
follower_binary = os.environ.get("HEADWAY_CI", os.path.join(root, ".build/debug/headway-ci"))
sim = os.path.join(root, ".build/debug/headway-sim")
work = tempfile.mkdtemp(prefix="bench-followers-")
rounds = int(os.environ.get("ROUNDS", "20"))
children = []


def start(args, **kwargs):
    process = subprocess.Popen(args, stdout=kwargs.pop("stdout", subprocess.DEVNULL), stderr=kwargs.pop("stderr", subprocess.DEVNULL), **kwargs)
    children.append(process)
    return process


def call(method, url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else (b"" if method == "POST" else None)
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=10) as reply:
        text = reply.read()
        return json.loads(text) if text.strip() else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_file(path, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        time.sleep(0.1)
    return False


socket_path = os.path.join(work, "h.sock")
start([sim, "serve", "--headless", "--socket", socket_path])
while not os.path.exists(socket_path):
    time.sleep(0.05)


def status():
    s = socket.socket(socket.AF_UNIX)
    s.connect(socket_path)
    s.sendall(b'{"v":1,"op":"status"}\n')
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return {job["job"]: job for job in json.loads(data).get("jobs", [])}


def relay(upstream, name):
    port = free_port()
    log = os.path.join(work, name + ".requests")
    start([sys.executable, os.path.join(root, "Tests/Followers/fault_relay.py"), "--port", str(port), "--upstream", upstream,
           "--mode-file", os.path.join(work, name + ".mode"), "--log", log])
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return "http://127.0.0.1:%d" % port, log


def follow(*arguments):
    return start([follower_binary, *arguments, "--socket", socket_path], stderr=open(os.path.join(work, "follower-%d.log" % len(children)), "w"))


def requests_between(log, start_time, end_time):
    if not os.path.exists(log):
        return 0
    return sum(1 for line in open(log) if start_time <= float(line.split()[0]) < end_time)


def latency(change, server_shows, display_shows):
    """Seconds from the server showing `change` to the display showing it. A random pause first,
    so that changes fall anywhere between two looks (not always just after the one that showed
    the last change)."""
    time.sleep(random.uniform(0, 3))
    change()
    deadline = time.time() + 30
    at_server = None
    while time.time() < deadline:
        if at_server is None and server_shows():
            at_server = time.time()
        if display_shows():
            return None if at_server is None else max(0.0, time.time() - at_server)
        time.sleep(0.02)
    return None


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


results = {}


def report(name, first, values, idle_rate, busy_rate):
    values = [v for v in values if v is not None]
    results[name] = values
    print("%-15s event → display p50 %.2f s  p99 %.2f s  (%d changes during a job; the first, from idle: %s)   requests/hour idle %d, during a job %d" % (
        name, statistics.median(values), percentile(values, 0.99), len(values), "%.2f s" % first if first is not None else "-", idle_rate, busy_rate), flush=True)


def rate(log, seconds):
    now = time.time()
    time.sleep(seconds)
    return requests_between(log, now, time.time()) * 3600 / seconds


# --- Home Assistant ---------------------------------------------------------------------------
home_out = os.path.join(work, "home.out")
home_in = subprocess.Popen(["sleep", "3600"], stdout=subprocess.PIPE)
children.append(home_in)
start(["/usr/bin/python3", os.path.join(root, "Tests/Home/serve.py")], stdin=home_in.stdout, stdout=open(home_out, "w"))
wait_file(home_out)
home = json.loads(open(home_out).readline())
token = open(home["token_file"]).read().strip()
auth = {"Authorization": "Bearer " + token}
open(os.path.join(work, "ha.token"), "w").write(token + "\n")
ha_url, ha_log = relay(home["url"], "home")
call("POST", home["url"] + "/api/services/input_number/set_value", {"entity_id": "input_number.print_progress", "value": 0}, auth)
ha = follow("homeassistant", ha_url, "--token-file", os.path.join(work, "ha.token"), "--entity", "sensor.printer_progress")
time.sleep(3)
idle = rate(ha_log, 60)
job = "home/127.0.0.1:%s/sensor.printer_progress" % ha_url.rsplit(":", 1)[1]
values = []
for index in range(rounds + 1):
    value = 10 + index * 3

    def change(value=value):
        call("POST", home["url"] + "/api/services/input_number/set_value", {"entity_id": "input_number.print_progress", "value": value}, auth)

    def server(value=value):
        return float(call("GET", home["url"] + "/api/states/sensor.printer_progress", headers=auth)["state"]) == value

    values.append(latency(change, server, lambda value=value: status().get(job, {}).get("value") == value))
busy = rate(ha_log, 30)
report("Home Assistant", values[0], values[1:], idle, busy)
ha.terminate()

# --- Moonraker --------------------------------------------------------------------------------
printers_ready = os.path.join(work, "moonraker.json")
start([sys.executable, os.path.join(root, "Tests/Printers/serve.py"), "--dir", os.path.join(work, "moonraker"), "--only", "moonraker",
       "--ready-file", printers_ready, "--stop-on-eof"], stdin=subprocess.PIPE)
wait_file(printers_ready)
moon = json.load(open(printers_ready))
control = moon["klippy"]["control"]
moon_url, moon_log = relay(moon["moonraker"]["url"], "moonraker")
call("POST", control + "/play", {"timeline": os.path.join(root, "Tests/Printers/timelines/idle.json"), "speed": 1})
mr = follow("moonraker", moon_url)
time.sleep(3)
idle = rate(moon_log, 60)
call("POST", moon["moonraker"]["url"] + "/printer/print/start?filename=cura-m73.gcode")
job = "moonraker/127.0.0.1:%s/cura-m73.gcode" % moon_url.rsplit(":", 1)[1]
deadline = time.time() + 120
while time.time() < deadline and status().get(job, {}).get("phase") != "active":
    time.sleep(0.2)


def moon_state():
    return call("GET", moon["moonraker"]["url"] + "/printer/objects/query?print_stats")["result"]["status"]["print_stats"]["state"]


values = []
for index in range(rounds):
    verb, want, phase = ("pause", "paused", "paused") if index % 2 == 0 else ("resume", "printing", "active")
    values.append(latency(lambda verb=verb: call("POST", control + "/event", {verb: "bench"}),
                          lambda want=want: moon_state() == want, lambda phase=phase: status().get(job, {}).get("phase") == phase))
busy = rate(moon_log, 30)
report("Moonraker", None, values, idle, busy)
mr.terminate()

# --- OctoPrint --------------------------------------------------------------------------------
octo_ready = os.path.join(work, "octoprint.json")
start([sys.executable, os.path.join(root, "Tests/Printers/serve.py"), "--dir", os.path.join(work, "octoprint"), "--only", "octoprint",
       "--ready-file", octo_ready, "--stop-on-eof"], stdin=subprocess.PIPE)
wait_file(octo_ready)
octo = json.load(open(octo_ready))["octoprint"]
key = {"X-Api-Key": octo["api_key"]}
open(os.path.join(work, "octo.key"), "w").write(octo["api_key"] + "\n")
octo_url, octo_log = relay(octo["url"], "octoprint")
op = follow("octoprint", octo_url, "--token-file", os.path.join(work, "octo.key"))
time.sleep(3)
idle = rate(octo_log, 60)
job = "octoprint/127.0.0.1:%s/cura-m73.gcode" % octo_url.rsplit(":", 1)[1]
values = []
octo_rounds = min(rounds, 10)
call("POST", octo["url"] + "/api/files/local/cura-m73.gcode", {"command": "select", "print": True}, key)
deadline = time.time() + 120
while time.time() < deadline and (status().get(job, {}).get("percent") or 0) < 3:
    time.sleep(0.2)
for index in range(octo_rounds):
    action, want, phase = ("pause", "Paused", "paused") if index % 2 == 0 else ("resume", "Printing", "active")
    values.append(latency(lambda action=action: call("POST", octo["url"] + "/api/job", {"command": "pause", "action": action}, key),
                          lambda want=want: call("GET", octo["url"] + "/api/job", headers=key)["state"] == want,
                          lambda phase=phase: status().get(job, {}).get("phase") == phase))
busy = rate(octo_log, 20)
report("OctoPrint", None, values, idle, busy)
op.terminate()
call("POST", octo["url"] + "/api/job", {"command": "cancel"}, key)


# --- memory -----------------------------------------------------------------------------------
def rss(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0


def config(entries):
    path = os.path.join(work, "ci-%d.yaml" % len(entries))
    with open(path, "w") as f:
        f.write("sources:\n" + "".join(entries))
    return path


ha_source = "  - homeassistant: %s\n    token-file: %s\n    entities: [%%s]\n" % (home["url"], os.path.join(work, "ha.token"))
entities = ["sensor.printer_progress", "timer.tea", "update.hall_light_firmware", "binary_sensor.washer", "sensor.washer_remaining_time",
            "input_number.print_progress", "input_number.washer_minutes", "input_boolean.washer_running"]
one = follow("--config", config([ha_source % entities[0]]))
ten_entries = [ha_source % entity for entity in entities] + [
    "  - octoprint: %s\n    token-file: %s\n" % (octo["url"], os.path.join(work, "octo.key")),
    "  - moonraker: %s\n" % moon["moonraker"]["url"]]
ten = follow("--config", config(ten_entries))
time.sleep(30)
print("RSS: one source %.1f MiB, ten sources %.1f MiB (after 30 s)" % (rss(one.pid), rss(ten.pid)), flush=True)

for process in reversed(children):
    if process.poll() is None:
        process.terminate()
for process in children:
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
