#!/usr/bin/env python3
"""Records the estimate corpus's followed runs: jobs that headway-ci reports from real servers
(Buildbot, OctoPrint with its Virtual Printer, Moonraker with the Klippy stand-in, a Home
Assistant timer), as the service hears them.

    python3 Scripts/lib/record_followed.py SECTION CORPUS_FOLDER

SECTION is buildbot, octoprint, moonraker or homeassistant. A `headway-sim serve --headless`
of its own answers; between it and headway-ci a relay writes down every line headway-ci sends,
with the second it was sent (since the relay started). Where the server has a time left of its
own (OctoPrint's printTimeLeft, a timer's end), it is read from the server every second beside
that, as the peer's figure. The recording, NAME.jsonl, is a header line
{"headway-follow-record": 1, "source": …}, then {"t": SECONDS, "line": REQUEST} for each line and
{"t": SECONDS, "peer": SECONDS_LEFT} for each of the server's figures, then
{"t": SECONDS, "end": true}. The service's replies are not kept: the replay (headway-bench
estimates) answers with its own core.

The servers are those of the tests (Tests/Printers, Tests/Home, Scripts/lib/buildbot.sh), made
by Scripts/bench-estimates record before this runs; the binaries are the debug build's.
"""
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binaries = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
work = tempfile.mkdtemp(prefix="headway-followed-")
children = []


def start(arguments, **options):
    options.setdefault("stdout", subprocess.DEVNULL)
    options.setdefault("stderr", subprocess.DEVNULL)
    process = subprocess.Popen(arguments, **options)
    children.append(process)
    return process


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    sys.exit("record_followed: %s did not happen within %d s" % (what, seconds))


def call(method, url, body=None, headers=None, form=False):
    data = None
    if body is not None:
        data = body.encode() if form else json.dumps(body).encode()
    elif method == "POST":
        data = b""
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=20) as reply:
        text = reply.read()
        return json.loads(text) if text.strip() else None


def upload(url, name, path, headers=None):
    """POSTs the file at `path` as `name` in a multipart form's `file` field, as a slicer's upload does."""
    boundary = "headway-corpus-boundary"
    body = ("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\nContent-Type: application/octet-stream\r\n\r\n" % (boundary, name)).encode()
    body += open(path, "rb").read() + ("\r\n--%s--\r\n" % boundary).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "multipart/form-data; boundary=" + boundary, **(headers or {})})
    with urllib.request.urlopen(request, timeout=60) as reply:
        reply.read()


def prints(lengths):
    """G-code files of the tests' kind (Tests/Printers/gcode/generate.py) that print for each of
    `lengths` seconds after heating: {seconds: folder}."""
    folders = {}
    for seconds in set(lengths):
        folder = os.path.join(work, "gcode-%d" % seconds)
        os.makedirs(folder)
        subprocess.run([sys.executable, os.path.join(root, "Tests/Printers/gcode/generate.py"), "--out", folder, "--seconds", str(seconds)], check=True)
        folders[seconds] = folder
    return folders


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    """A relay on a Unix socket in front of the service's, writing down each line clients send."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.path = os.path.join(work, "relay.sock")
        self.origin = time.monotonic()
        self.lines = []
        self.peer = []
        self.lock = threading.Lock()
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(self.path)
        self.listener.listen(16)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            service = socket.socket(socket.AF_UNIX)
            service.connect(self.upstream)
            threading.Thread(target=self.carry, args=(client, service, True), daemon=True).start()
            threading.Thread(target=self.carry, args=(service, client, False), daemon=True).start()

    def carry(self, source, target, written):
        pending = b""
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if written:
                    pending += data
                    *lines, pending = pending.split(b"\n")
                    now = time.monotonic() - self.origin
                    with self.lock:
                        self.lines += [(now, line.decode()) for line in lines if line.strip()]
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def watch(self, peer):
        """Reads the server's own time left (`peer()`: seconds, or None) every second."""
        def read():
            while True:
                try:
                    left = peer()
                except (OSError, ValueError, KeyError, TypeError):
                    left = None
                if left is not None:
                    with self.lock:
                        self.peer.append((time.monotonic() - self.origin, left))
                time.sleep(1)
        threading.Thread(target=read, daemon=True).start()

    def write(self, path, source):
        with self.lock, open(path, "w") as out:
            out.write(json.dumps({"headway-follow-record": 1, "source": source}) + "\n")
            # Status asks and subscriptions are not progress; the replay asks its own.
            entries = [(at, {"line": line}) for at, line in self.lines if json.loads(line).get("op") not in ("status", "subscribe")]
            entries += [(at, {"peer": round(left, 1)}) for at, left in self.peer]
            for at, entry in sorted(entries, key=lambda entry: entry[0]):
                out.write(json.dumps({"t": round(at, 3), **entry}) + "\n")
            out.write(json.dumps({"t": round(time.monotonic() - self.origin, 3), "end": True}) + "\n")


service_socket = os.path.join(work, "service.sock")
# A state folder of its own: what the service learns stays in this recording.
with open(os.path.join(root, "Boards/simulator.yaml")) as board, open(os.path.join(work, "service.yaml"), "w") as f:
    f.write(board.read() + "state-directory: %s\n" % os.path.join(work, "state"))
start([os.path.join(binaries, "headway-sim"), "serve", "--headless", "--socket", service_socket, "--config", os.path.join(work, "service.yaml")],
      env={**os.environ, "HOME": work})
wait_for(lambda: os.path.exists(service_socket), 30, "the service's socket")
recorder = Recorder(service_socket)


def follow(*arguments):
    return start([os.path.join(binaries, "headway-ci"), *arguments, "--socket", recorder.path],
                 stderr=open(os.path.join(work, "follower.log"), "a"))


def finished(count):
    """Whether `count` jobs have ended (their results shown) since the recording began."""
    return lambda: sum(1 for _, line in recorder.lines if json.loads(line).get("op") == "finish") >= count


def buildbot():
    """A real Buildbot building googletest (Debian's sources) through CMake, make and ctest, four
    builds of one builder, as a CI builds every push: the later ones find the durations the
    earlier ones taught."""
    venv = os.path.join(root, ".build-buildbot/venv/bin")
    master, worker = os.path.join(work, "master"), os.path.join(work, "worker")
    web, pb = free_port(), free_port()
    subprocess.run([os.path.join(venv, "buildbot"), "create-master", "-r", master], check=True, capture_output=True)
    subprocess.run([os.path.join(venv, "buildbot-worker"), "create-worker", worker, "127.0.0.1:%d" % pb, "w1", "pass"], check=True, capture_output=True)
    with open(os.path.join(master, "master.cfg"), "w") as cfg:
        cfg.write("""from buildbot.plugins import schedulers, steps, util, worker
c = BuildmasterConfig = {}
c['workers'] = [worker.Worker("w1", "pass")]
c['protocols'] = {'pb': {'port': "tcp:%d:interface=127.0.0.1"}}
c['schedulers'] = [schedulers.ForceScheduler(name="force", builderNames=["googletest"])]
f = util.BuildFactory()
f.addStep(steps.ShellCommand(name="clean", command=["rm", "-rf", "build"]))
f.addStep(steps.ShellCommand(name="configure", command=["cmake", "-S", "/usr/src/googletest", "-B", "build", "-Dgtest_build_samples=ON", "-Dgtest_build_tests=ON"]))
f.addStep(steps.Compile(name="compile", command=["make", "-C", "build", "-j2"]))
f.addStep(steps.ShellCommand(name="test", command=["ctest", "--test-dir", "build", "-j2"]))
c['builders'] = [util.BuilderConfig(name="googletest", workernames=["w1"], factory=f)]
c['www'] = dict(port="tcp:%d:interface=127.0.0.1", plugins={})
c['db'] = {'db_url': "sqlite:///state.sqlite"}
c['buildbotURL'] = "http://127.0.0.1:%d/"
c['buildbotNetUsageData'] = None
""" % (pb, web, web))
    # Twisted must hear of its children ending: SIGCHLD unblocked, SIGPIPE as usual.
    unblocked = ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"]
    start([os.path.join(venv, "python3"), *unblocked, os.path.join(venv, "buildbot"), "start", "--nodaemon", master])
    start([os.path.join(venv, "python3"), *unblocked, os.path.join(venv, "buildbot-worker"), "start", "--nodaemon", worker])
    url = "http://127.0.0.1:%d/" % web

    def connected():
        try:
            return any(w.get("connected_to") for w in call("GET", url + "api/v2/workers")["workers"])
        except OSError:
            return False
    wait_for(connected, 60, "the Buildbot worker's connection")
    follow("buildbot", url, "--builder", "googletest", "--interval", "2")
    for run in range(1, 5):
        call("POST", url + "api/v2/forceschedulers/force", {"jsonrpc": "2.0", "method": "force", "id": 1, "params": {"builderid": 1}})
        wait_for(finished(run), 900, "build %d's end" % run)
        time.sleep(5)


def octoprint():
    """OctoPrint 1.11.8 printing through its Virtual Printer, each of the test's three files."""
    ready = os.path.join(work, "octoprint.json")
    start([sys.executable, os.path.join(root, "Tests/Printers/serve.py"), "--dir", os.path.join(work, "octoprint"), "--only", "octoprint",
           "--ready-file", ready, "--stop-on-eof"], stdin=subprocess.PIPE)
    wait_for(lambda: os.path.exists(ready) and os.path.getsize(ready) > 0, 180, "OctoPrint's start")
    octo = json.load(open(ready))["octoprint"]
    key = {"X-Api-Key": octo["api_key"]}
    with open(os.path.join(work, "octo.key"), "w") as f:
        f.write(octo["api_key"] + "\n")
    follow("octoprint", octo["url"], "--token-file", os.path.join(work, "octo.key"))

    def left():
        job = call("GET", octo["url"] + "/api/job", headers=key)
        return job["progress"]["printTimeLeft"] if job["state"] == "Printing" else None
    recorder.watch(left)
    # A part printed twice (the second print finds the first one's duration), the others once.
    runs = [("cura-m73.gcode", 90, "vase"), ("prusaslicer-m73.gcode", 150, "bracket"), ("cura-no-m73.gcode", 60, "clip"),
            ("cura-m73.gcode", 90, "vase"), ("prusaslicer-m73.gcode", 45, "hook")]
    files = prints([seconds for _, seconds, _ in runs])
    for run, (flavour, seconds, part) in enumerate(runs, 1):
        name = "%s-%s" % (part, flavour)
        upload(octo["url"] + "/api/files/local", name, os.path.join(files[seconds], flavour), key)
        call("POST", octo["url"] + "/api/files/local/" + name, {"command": "select", "print": True}, key)
        wait_for(finished(run), 900, "print %d's end" % run)
        time.sleep(5)


def moonraker():
    """Moonraker 0.11.0 in front of the Klippy stand-in: prints of the slicers' files, heating
    first, each as long as the timeline says."""
    ready = os.path.join(work, "moonraker.json")
    start([sys.executable, os.path.join(root, "Tests/Printers/serve.py"), "--dir", os.path.join(work, "moonraker"), "--only", "moonraker",
           "--ready-file", ready, "--stop-on-eof"], stdin=subprocess.PIPE)
    wait_for(lambda: os.path.exists(ready) and os.path.getsize(ready) > 0, 180, "Moonraker's start")
    moon = json.load(open(ready))
    control = moon["klippy"]["control"]
    follow("moonraker", moon["moonraker"]["url"])
    # The stand-in prints a file in the time its timeline gives, not the slicer's: a real printer
    # runs slower or faster than its slicer said (acceleration, speed changes), here 0.8 to 1.3 times.
    runs = [("prusaslicer-m73.gcode", 90, 1.15, "vase"), ("cura-m73.gcode", 120, 0.85, "bracket"), ("cura-no-m73.gcode", 60, 1.3, "clip"),
            ("prusaslicer-m73.gcode", 90, 1.1, "vase"), ("cura-m73.gcode", 150, 0.95, "box")]
    files = prints([seconds for _, seconds, _, _ in runs])
    for run, (flavour, seconds, pace, part) in enumerate(runs, 1):
        name = "%s-%s" % (part, flavour)
        upload(moon["moonraker"]["url"] + "/server/files/upload", name, os.path.join(files[seconds], flavour))
        timeline = os.path.join(work, "print-%d.json" % run)
        with open(timeline, "w") as f:
            json.dump({"description": "one print", "events": [{"at": 0, "print": name, "seconds": round(seconds * pace)}]}, f)
        call("POST", control + "/play", {"timeline": timeline, "speed": 1})
        wait_for(finished(run), 900, "print %d's end" % run)
        time.sleep(5)


def homeassistant():
    """A real Home Assistant's timer.tea: four timers of different lengths, one paused a while."""
    out = os.path.join(work, "home.out")
    start([sys.executable, os.path.join(root, "Tests/Home/serve.py"), "--ignore-stdin"], stdout=open(out, "w"))
    wait_for(lambda: os.path.exists(out) and os.path.getsize(out) > 0, 300, "Home Assistant's start")
    home = json.loads(open(out).readline())
    auth = {"Authorization": "Bearer " + open(home["token_file"]).read().strip()}
    follow("homeassistant", home["url"], "--token-file", home["token_file"], "--entity", "timer.tea")

    def left():
        timer = call("GET", home["url"] + "/api/states/timer.tea", headers=auth)
        if timer["state"] != "active":
            return None
        ends = datetime.datetime.fromisoformat(timer["attributes"]["finishes_at"])
        return max(0.0, (ends - datetime.datetime.now(datetime.timezone.utc)).total_seconds())
    recorder.watch(left)
    time.sleep(5)
    for run, (seconds, pause) in enumerate([(40, None), (75, (20, 15)), (55, None), (90, (50, 10))], 1):
        call("POST", home["url"] + "/api/services/timer/start", {"entity_id": "timer.tea", "duration": seconds}, auth)
        if pause:
            time.sleep(pause[0])
            call("POST", home["url"] + "/api/services/timer/pause", {"entity_id": "timer.tea"}, auth)
            time.sleep(pause[1])
            call("POST", home["url"] + "/api/services/timer/start", {"entity_id": "timer.tea"}, auth)
        wait_for(finished(run), 600, "timer %d's end" % run)
        time.sleep(5)


section, corpus = sys.argv[1], sys.argv[2]
# Stopped, it still stops the servers and the service it started.
signal.signal(signal.SIGTERM, lambda *_: sys.exit("record_followed: stopped"))
try:
    {"buildbot": buildbot, "octoprint": octoprint, "moonraker": moonraker, "homeassistant": homeassistant}[section]()
    recording = os.path.join(work, section + ".jsonl")
    recorder.write(recording, section)
    subprocess.run(["xz", "-9", "-c", recording], stdout=open(os.path.join(corpus, section + ".jsonl.xz"), "wb"), check=True)
    print("record_followed: %s: %d lines" % (section, len(recorder.lines)))
finally:
    for process in reversed(children):
        if process.poll() is None:
            process.terminate()
    for process in children:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    shutil.rmtree(work, ignore_errors=True)
