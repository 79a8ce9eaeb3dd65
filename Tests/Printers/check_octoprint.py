#!/usr/bin/env python3
"""Proves that OctoPrint with its Virtual Printer shows a follower what it will read: it starts
OctoPrint through serve.py, uploads and prints the G-code files of Tests/Printers/gcode, pauses,
resumes and cancels through `POST /api/job`, and records what the REST API and the push socket
say meanwhile. Standard library only. References (docs.octoprint.org):

- api/job.html: `GET /api/job` (`state`, `job`, `progress.completion`, `printTime`,
  `printTimeLeft`, `printTimeLeftOrigin`), `POST /api/job` (`start`, `cancel`, `pause` with
  `action` pause/resume/toggle);
- api/printer.html: `GET /api/printer` (`state.text`, `state.flags`, `temperature.tool0/bed`
  `actual`/`target`);
- api/connection.html: `GET /api/connection` (`current.state`);
- api/files.html: `POST /api/files/local` (multipart `file`, `select`, `print`);
- api/push.html: the SockJS socket, its `connected`, `history`, `current` and `event` messages,
  `auth` with `user:session` from a passive login (api/general.html, `POST /api/login` with
  `passive`), and `current` "not more often than twice per second".
The SockJS framing (`o`, `h`, `a[...]`, `c[...]`; the raw `/websocket` endpoint; xhr-streaming's
2048-byte `h` prelude) is sockjs/sockjs-protocol's.

Usage: check_octoprint.py
"""

import http.client as httpclient
import json
import os
import sys
import threading
import time

from printer_servers import Checks, Servers, expect, http, multipart
from wsclient import WebSocket, WebSocketError

HERE = os.path.dirname(os.path.abspath(__file__))
GCODE = os.path.join(HERE, "gcode")


class Push:
    """OctoPrint's push socket through SockJS's raw WebSocket endpoint (`/sockjs/websocket`: one
    JSON message per frame), read in a thread that keeps every message with its arrival time."""

    def __init__(self, port):
        self.socket = WebSocket("127.0.0.1", port, "/sockjs/websocket")
        self.messages = []  # (monotonic time, type, payload)
        self.lock = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while not self.closed:
            try:
                text = self.socket.receive(0.5)
            except (WebSocketError, OSError):
                return
            if text is None:
                continue
            message = json.loads(text)
            with self.lock:
                for kind, payload in message.items():
                    self.messages.append((time.monotonic(), kind, payload))

    def send(self, message):
        self.socket.send(json.dumps(message))

    def of(self, kind, since=0.0):
        with self.lock:
            return [(t, payload) for t, k, payload in self.messages if k == kind and t >= since]

    def close(self):
        self.closed = True
        self.thread.join(2)
        self.socket.close()


class Check:
    def __init__(self, servers, checks):
        ready = servers.ready["octoprint"]
        self.url = ready["url"]
        self.port = ready["port"]
        self.key = {"X-Api-Key": ready["api_key"]}
        self.files = ready["files"]
        self.checks = checks
        self.samples = []  # (monotonic time, job, printer) from polling
        self.push = None

    def get(self, path):
        status, body = http("GET", self.url + path, headers=self.key)
        expect(status == 200, "GET %s: %s %s" % (path, status, body))
        return body

    def post(self, path, body):
        status, answer = http("POST", self.url + path, body, headers=self.key)
        expect(status in (200, 201, 204), "POST %s %s: %s %s" % (path, body, status, answer))
        return answer

    def sample(self):
        job = self.get("/api/job")
        printer = self.get("/api/printer")
        self.samples.append((time.monotonic(), job, printer))
        return job, printer

    def poll_until(self, what, predicate, timeout, interval=0.5):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job, printer = self.sample()
            if predicate(job, printer):
                return job, printer
            time.sleep(interval)
        raise AssertionError("%s: not within %g s; last /api/job %s" % (what, timeout, json.dumps(self.samples[-1][1])))

    def states(self, since):
        seen = []
        for t, job, _ in self.samples:
            if t >= since and (not seen or seen[-1] != job["state"]):
                seen.append(job["state"])
        return seen

    # -- the checks -------------------------------------------------------------------------

    def connected(self):
        version = self.get("/api/version")
        connection = self.get("/api/connection")["current"]
        expect(connection["state"] == "Operational" and connection["port"] == "VIRTUAL", "connection %s" % connection)
        files = self.get("/api/files?recursive=true")["files"]
        names = sorted(entry["name"] for entry in files)
        expect(names == self.files, "the uploads folder lists %s, expected %s" % (names, self.files))
        self.checks.fact("OctoPrint %s (API %s); /api/connection %s; files served: %s" % (
            version["server"], version["api"], json.dumps(connection), ", ".join(names)))

    def authentication(self):
        answers = {}
        for label, headers in (("no key", {}), ("a wrong key", {"X-Api-Key": "0" * 32}), ("the key", self.key)):
            answers[label] = http("GET", self.url + "/api/job", headers=headers)[0]
        expect(answers["the key"] == 200, "with the key: %s" % answers["the key"])
        expect(answers["no key"] in (401, 403) and answers["a wrong key"] in (401, 403), "without a valid key: %s" % answers)
        self.checks.fact("GET /api/job answers %s" % ", ".join("%s with %s" % (status, label) for label, status in answers.items()))

    def push_socket(self):
        push = self.push = Push(self.port)
        deadline = time.monotonic() + 5
        while not push.of("connected") and time.monotonic() < deadline:
            time.sleep(0.05)
        expect(push.of("connected"), "no `connected` message")
        time.sleep(1.5)
        before_auth = len(push.of("current"))
        login = self.post("/api/login", {"passive": True})
        push.send({"auth": "%s:%s" % (login["name"], login["session"])})
        authed = time.monotonic()
        deadline = authed + 5
        while len(push.of("current", authed)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        expect(push.of("history", authed), "no `history` message after auth")
        expect(len(push.of("current", authed)) >= 3, "no `current` messages after auth")
        fields = sorted(push.of("current", authed)[-1][1])
        self.checks.fact("push socket: `connected` at once; %d `current` in the 1.5 s before `auth`, then `history` and `current` "
                         "with %s" % (before_auth, ", ".join(fields)))

    def xhr_streaming(self):
        """SockJS's xhr-streaming transport: a POST whose answer streams 2048 `h` then frames."""
        connection = httpclient.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("POST", "/sockjs/000/headwaycheck/xhr_streaming", body=b"")
        response = connection.getresponse()
        expect(response.status == 200, "xhr_streaming: %s" % response.status)
        received = b""
        deadline = time.monotonic() + 5
        while b'a["{\\"connected' not in received.replace(b" ", b"") and b'a[{"connected' not in received and time.monotonic() < deadline:
            received += response.read1(65536)
        connection.close()
        lines = received.split(b"\n")
        expect(lines[0] == b"h" * 2048 and lines[1] == b"o", "xhr_streaming prelude %r" % received[:80])
        expect(b'"connected"' in received, "no connected frame over xhr_streaming: %r" % received[2048:2300])
        self.checks.fact("xhr-streaming: a 2048-byte `h` prelude, `o`, then `a[...]` frames (%r...)" % lines[2][:60].decode())

    def upload_and_print(self):
        with open(os.path.join(GCODE, "cura-m73.gcode"), "rb") as source:
            content = source.read()
        body, content_type = multipart({"select": "true", "print": "true"}, {"file": ("check-m73.gcode", content)})
        status, answer = http("POST", self.url + "/api/files/local", body, dict(self.key, **{"Content-Type": content_type}))
        expect(status == 201, "upload: %s %s" % (status, answer))
        started = time.monotonic()
        job, printer = self.poll_until("printing starts", lambda j, p: j["state"] == "Printing", 10, 0.2)
        # Heating: Printing, completion near 0, the hot end below its target.
        job, printer = self.poll_until("the hot end heats", lambda j, p: p["temperature"]["tool0"]["target"] == 200, 10, 0.2)
        heating_seen = self.samples[-1]
        self.poll_until("the hot end is up", lambda j, p: p["temperature"]["tool0"]["actual"] >= 199.5, 60)
        heated = time.monotonic() - started
        during_heat = [(job, printer) for t, job, printer in self.samples if t >= started
                       and printer["temperature"]["tool0"]["target"] == 200 and printer["temperature"]["tool0"]["actual"] < 199]
        expect(during_heat, "no sample while heating")
        expect(all(job["state"] == "Printing" for job, _ in during_heat), "states while heating: %s" % {job["state"] for job, _ in during_heat})
        expect(max(job["progress"]["completion"] for job, _ in during_heat) < 5, "completion ran on while heating")
        self.checks.fact("heat-up: state %r, completion %.2f %%, printTimeLeft %r (%r), tool0 %s, bed %s; 200 °C after %.1f s" % (
            heating_seen[1]["state"], heating_seen[1]["progress"]["completion"], heating_seen[1]["progress"]["printTimeLeft"],
            heating_seen[1]["progress"]["printTimeLeftOrigin"], json.dumps(heating_seen[2]["temperature"]["tool0"]),
            json.dumps(heating_seen[2]["temperature"]["bed"]), heated))
        # Printing until about a third, then pause.
        self.poll_until("a third printed", lambda j, p: j["progress"]["completion"] >= 33, 60)
        before_pause = self.samples[-1][1]
        self.post("/api/job", {"command": "pause", "action": "pause"})
        paused_at = time.monotonic()
        self.poll_until("paused", lambda j, p: j["state"] == "Paused", 15, 0.1)
        paused_job = self.samples[-1][1]
        time.sleep(5)
        still = self.sample()[0]
        expect(still["state"] == "Paused", "state after 5 s paused: %s" % still["state"])
        expect(abs(still["progress"]["completion"] - paused_job["progress"]["completion"]) < 0.01, "completion moved while paused")
        self.post("/api/job", {"command": "pause", "action": "resume"})
        self.poll_until("printing again", lambda j, p: j["state"] == "Printing", 15, 0.1)
        self.poll_until("finished", lambda j, p: j["state"] == "Operational", 120)
        done_job, done_printer = self.samples[-1][1], self.samples[-1][2]
        seen = self.states(started)
        # Before "Printing" a poll may catch the upload's "Operational" or OctoPrint's transient "Starting".
        lead = seen[:seen.index("Printing")] if "Printing" in seen else seen
        expect(set(lead) <= {"Operational", "Starting"} and "Paused" in seen and seen[-1] == "Operational", "states %s" % seen)
        expect(done_job["progress"]["completion"] == 100, "completion at the end %r" % done_job["progress"]["completion"])
        origins = sorted({job["progress"]["printTimeLeftOrigin"] for t, job, _ in self.samples if t >= started and job["state"] == "Printing"},
                         key=str)
        printing = [job for t, job, _ in self.samples if t >= started and job["state"] == "Printing"]
        self.checks.fact("states, in order: %s; pause took %.1f s to read Paused; while paused printTime %s -> %s" % (
            " -> ".join(seen), self.first_time("Paused", paused_at) or -1, paused_job["progress"]["printTime"], still["progress"]["printTime"]))
        self.checks.fact("before the pause /api/job progress %s; job %s" % (json.dumps(before_pause["progress"]), json.dumps(before_pause["job"])))
        self.checks.fact("printTimeLeftOrigin while printing: %s; printTimeLeft from %s to %s" % (
            origins, printing[0]["progress"]["printTimeLeft"], printing[-1]["progress"]["printTimeLeft"]))
        self.checks.fact("finished after %.1f s: /api/job %s; /api/printer state %s" % (
            time.monotonic() - started, json.dumps(done_job), json.dumps(done_printer["state"])))

    def first_time(self, state, since):
        for t, job, _ in self.samples:
            if t >= since and job["state"] == state:
                return t - since
        return None

    def cancel(self):
        self.post("/api/files/local/cura-no-m73.gcode", {"command": "select", "print": True})
        started = time.monotonic()
        self.poll_until("printing", lambda j, p: j["state"] == "Printing", 10, 0.2)
        self.poll_until("heated and a little printed", lambda j, p: j["progress"]["completion"] >= 5, 90)
        self.post("/api/job", {"command": "cancel"})
        cancel_at = time.monotonic()
        self.poll_until("cancelled", lambda j, p: j["state"] == "Operational", 30, 0.1)
        seen = self.states(started)
        expect("Cancelling" in seen or seen[-2:] == ["Printing", "Operational"], "states %s" % seen)
        after = self.samples[-1][1]
        self.checks.fact("cancel: states %s, Operational %.1f s after the cancel; afterwards /api/job %s" % (
            " -> ".join(seen), time.monotonic() - cancel_at, json.dumps(after)))

    def push_messages(self):
        push = self.push
        currents = push.of("current")
        printing = [(t, payload) for t, payload in currents if payload["state"]["flags"]["printing"]]
        expect(len(printing) > 10, "only %d `current` messages while printing" % len(printing))
        span = printing[-1][0] - printing[0][0]
        rate = (len(printing) - 1) / span if span > 0 else 0
        expect(rate <= 2.2, "%.2f `current` messages a second while printing (api/push.html: at most two)" % rate)
        states = []
        for _, payload in currents:
            text = payload["state"]["text"]
            if not states or states[-1] != text:
                states.append(text)
        events = [payload["type"] for _, payload in push.of("event")]
        for needed in ("PrintStarted", "PrintPaused", "PrintResumed", "PrintDone", "PrintCancelled"):
            expect(needed in events, "no %s event: %s" % (needed, events))
        sample = printing[len(printing) // 2][1]
        self.checks.fact("push `current` while printing: %d messages in %.1f s (%.2f a second); state texts in order: %s" % (
            len(printing), span, rate, " -> ".join(states)))
        self.checks.fact("push `current` mid-print: progress %s, state %s, temps %s" % (
            json.dumps(sample["progress"]), json.dumps(sample["state"]["text"]), json.dumps(sample["temps"][-1:] if sample["temps"] else [])))
        self.checks.fact("push events, in order: %s" % ", ".join(e for e in events if e.startswith("Print") or e in ("Connected", "FileSelected")))


def main():
    checks = Checks("check_octoprint")
    servers = Servers("--only", "octoprint")
    checks.fact("serve.py --only octoprint ready in %.1f s" % servers.start_seconds)
    check = Check(servers, checks)
    try:
        for title, function in (("OctoPrint is up with the Virtual Printer connected and the files listed", check.connected),
                                ("the API key is required and accepted", check.authentication),
                                ("the push socket sends state after auth", check.push_socket),
                                ("SockJS xhr-streaming works too", check.xhr_streaming),
                                ("upload and print: heat-up, printing, pause, resume, finished", check.upload_and_print),
                                ("select, print and cancel", check.cancel),
                                ("push messages: rate, states and events", check.push_messages)):
            checks.run(title, function)
    finally:
        if check.push:
            check.push.close()
        status = servers.stop()
        if status != 0:
            checks.failed.append("serve.py stopped with status %s" % status)
            print("FAIL serve.py stopped with status %s" % status)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
