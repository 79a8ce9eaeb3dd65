#!/usr/bin/env python3
"""headway-ci's numbers for docs/performance.md, against the CI server fixture (Tests/CIServer) on a
manual clock, with the release build of headway-ci and headway-sim serve --headless:

- the time from a step finishing at the server to the service showing the next one (the scenario's
  clock moved past a step's end, then the service's `status` read every 5 ms until the label names
  the new step), p50 and p99, at the default pacing and at one look a second;
- the resident memory of one headway-ci following 10 sources (10 GitHub repositories' runs), idle
  and while every one of them runs.

Requests per hour per source come from `swift run -c release headway-bench ci`.
Run: swift build -c release --product headway-ci && swift build --product headway-sim && python3 Scripts/bench-ci.py
"""
import json, os, random, socket, subprocess, sys, tempfile, time, urllib.request, ssl

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
release = os.path.join(root, ".build/release/headway-ci")
sim = os.path.join(root, ".build/debug/headway-sim")
work = tempfile.mkdtemp(prefix="bench-ci-")

def sh(*args):
    subprocess.run(args, check=True, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

# A test CA and a certificate for 127.0.0.1.
sh("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=bench CA",
   "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
sh("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
open(os.path.join(work, "ext"), "w").write("subjectAltName=IP:127.0.0.1\n")
sh("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.crt", "-days", "1", "-extfile", "ext")
context = ssl.create_default_context(cafile=os.path.join(work, "ca.crt"))

journey = json.load(open(os.path.join(root, "Tests/CIServer/scenarios/github-journey.json")))
journey["github"]["tokens"] = [{"token": "ghp_bench", "login": "octocat", "limit": 1000000}]
repository = journey["github"]["repositories"][0]
# Ten repositories with the same run, for the memory of ten sources.
repositories = []
for index in range(10):
    copy = json.loads(json.dumps(repository))
    copy["name"] = "widgets%d" % index
    copy["id"] = 1000 + index
    repositories.append(copy)
journey["github"]["repositories"] = [repository] + repositories
scenario = os.path.join(work, "scenario.json")
json.dump(journey, open(scenario, "w"))
open(os.path.join(work, "token"), "w").write("ghp_bench\n")

server = subprocess.Popen([sys.executable, os.path.join(root, "Tests/CIServer/server.py"), "--scenario", scenario, "--clock", "manual",
                           "--port", "0", "--ready-file", os.path.join(work, "port"), "--cert", os.path.join(work, "server.crt"),
                           "--key", os.path.join(work, "server.key")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while not os.path.exists(os.path.join(work, "port")):
    time.sleep(0.05)
port = int(open(os.path.join(work, "port")).read())
url = "https://127.0.0.1:%d" % port

def control(path, body):
    request = urllib.request.Request(url + "/_control/" + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return urllib.request.urlopen(request, context=context).read()

socket_path = os.path.join(work, "h.sock")
service = subprocess.Popen([sim, "serve", "--headless", "--socket", socket_path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while not os.path.exists(socket_path):
    time.sleep(0.05)

def status():
    with socket.socket(socket.AF_UNIX) as connection:
        connection.connect(socket_path)
        connection.sendall(b'{"v":1,"op":"status"}\n')
        data = b""
        while not data.endswith(b"\n"):
            data += connection.recv(65536)
    return {job["job"]: job for job in json.loads(data)["jobs"]}

def follower(arguments, sources=None):
    command = [release] + arguments + ["--socket", socket_path]
    if sources is None:
        command = [release, "github", "acme/widgets", "--api", url, "--ca-file", os.path.join(work, "ca.crt"), "--token-file",
                   os.path.join(work, "token")] + arguments + ["--socket", socket_path]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "ci.log"), "a"))

steps = [step["name"] for step in repository["runs"][0]["attempts"][0]["jobs"][0]["steps"]]
starts = [20, 25, 35, 80, 100, 140, 320, 470, 560, 590, 605, 615]

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

def latencies(arguments, runs, interval):
    samples = []
    for _ in range(runs):
        control("scenario", {"file": scenario})
        process = follower(arguments)
        control("advance", {"to": 10})
        deadline = time.monotonic() + 60
        while "acme/widgets/9001" not in status() and time.monotonic() < deadline:
            time.sleep(0.05)
        for index in range(1, len(steps)):
            # A step ends at a moment unrelated to the follower's looks.
            time.sleep(random.uniform(0, interval))
            control("advance", {"to": starts[index] + 0.5})
            started = time.monotonic()
            want = "build: %s (%d/12)" % (steps[index], index + 1)
            while status().get("acme/widgets/9001", {}).get("label") != want:
                if time.monotonic() - started > 60:
                    raise SystemExit("no %r: %r" % (want, status()))
                time.sleep(0.005)
            samples.append(time.monotonic() - started)
        process.terminate()
        process.wait()
    return samples

if "--memory-only" not in sys.argv:
    print("headway-ci (release) against the CI server fixture, a step finishing at the server to the service showing the next")
for name, arguments, runs, interval in [("one look a second (--interval 1)", ["--interval", "1", "--idle-interval", "1", "--budget", "100000"], 4, 1),
                                        ("the default pacing (15 s while a run goes on)", [], 2, 15)] * ("--memory-only" not in sys.argv):
    samples = latencies(arguments, runs, interval)
    print("  %s: %d steps, p50 %.2f s, p99 %.2f s, max %.2f s" % (name, len(samples), percentile(samples, 50), percentile(samples, 99), max(samples)))

def configuration(count):
    path = os.path.join(work, "ci-%d.yaml" % count)
    with open(path, "w") as out:
        out.write("ca-file: %s\nsources:\n" % os.path.join(work, "ca.crt"))
        for index in range(count):
            out.write("  - github: acme/widgets%d\n    api: %s\n    token-file: %s\n" % (index, url, os.path.join(work, "token")))
    return path

def rss(process):
    """VmRSS and RssAnon (the process's own memory; the rest is shared libraries' pages), in KiB."""
    fields = {}
    for line in open("/proc/%d/status" % process.pid):
        if line.startswith(("VmRSS:", "RssAnon:")):
            fields[line.split(":")[0]] = int(line.split()[1])
    return "%d KiB (anonymous %d KiB)" % (fields["VmRSS"], fields["RssAnon"])

for count in (1, 10):
    control("scenario", {"file": scenario})
    process = follower(["--config", configuration(count)], sources=count)
    time.sleep(20)
    idle = rss(process)
    control("advance", {"to": 150})
    # The first look found nothing: the next comes after the idle interval (60 s).
    deadline = time.monotonic() + 90
    while len([job for job, state in status().items() if job.startswith("acme/widgets") and job[12:13].isdigit() and state["phase"] == "active"]) < count:
        if time.monotonic() > deadline:
            raise SystemExit("not every run shown: %r %s" % (status(), open(os.path.join(work, "ci.log")).read()))
        time.sleep(0.5)
    time.sleep(30)
    print("headway-ci (release) following %d GitHub source%s: RSS idle %s, with a run going on at each %s" % (count, "" if count == 1 else "s", idle, rss(process)))
    process.terminate()
    process.wait()
service.terminate()
server.terminate()
