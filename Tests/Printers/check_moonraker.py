#!/usr/bin/env python3
"""Proves that Moonraker, in front of the Klippy stand-in, shows a follower what it will read: it
starts both through serve.py, plays the timelines of Tests/Printers/timelines at a high speed and
watches them through Moonraker's JSON-RPC WebSocket (Arksine/moonraker docs/external_api:
printer.md `printer.objects.subscribe`, `printer.print.*`; file_manager.md `server.files.metadata`;
history.md `server.history.list`; jsonrpc_notifications.md `notify_status_update`,
`notify_klippy_*`), and checks what reaches the stand-in. Standard library only.

Usage: check_moonraker.py [--speed F]   (default 120: a 600-second print plays in about 6 s)
"""

import argparse
import json
import os
import sys
import time

from printer_servers import Checks, Servers, expect, http
from wsclient import WebSocket

HERE = os.path.dirname(os.path.abspath(__file__))
TIMELINES = os.path.join(HERE, "timelines")
OBJECTS = {"print_stats": None, "virtual_sdcard": None, "display_status": None, "pause_resume": None,
           "webhooks": None, "extruder": ["temperature", "target"], "heater_bed": ["temperature", "target"],
           "idle_timeout": None}


class Moonraker:
    """A JSON-RPC client on Moonraker's WebSocket that keeps the subscribed objects merged from the
    subscription's answer and the `notify_status_update` deltas, and a log of every notification."""

    def __init__(self, port):
        self.socket = WebSocket("127.0.0.1", port, "/websocket")
        self.next_id = 0
        self.state = {}
        self.notifications = []  # (monotonic time, method, params)
        self.samples = []  # (monotonic time, merged state copy) after each status update

    def call(self, method, params=None, timeout=15):
        self.next_id += 1
        request_id = self.next_id
        self.socket.send(json.dumps({"jsonrpc": "2.0", "method": method, "params": params or {}, "id": request_id}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.socket.receive(deadline - time.monotonic())
            if message is None:
                break
            parsed = json.loads(message)
            if parsed.get("id") == request_id:
                if "error" in parsed:
                    raise AssertionError("%s answered %s" % (method, parsed["error"]))
                return parsed["result"]
            self.take(parsed)
        raise AssertionError("%s: no answer within %g s" % (method, timeout))

    def take(self, message):
        method = message.get("method")
        if method is None:
            return
        now = time.monotonic()
        self.notifications.append((now, method, message.get("params")))
        if method == "notify_status_update":
            for name, fields in message["params"][0].items():
                merge(self.state.setdefault(name, {}), fields)
            self.samples.append((now, json.loads(json.dumps(self.state))))

    def subscribe(self):
        result = self.call("printer.objects.subscribe", {"objects": OBJECTS})
        self.state = result["status"]
        return result

    def pump(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            message = self.socket.receive(left)
            if message is not None:
                self.take(json.loads(message))

    def wait(self, what, predicate, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return
            self.pump(min(0.2, max(0.0, deadline - time.monotonic())))
        raise AssertionError("%s: not within %g s; print_stats %s" % (what, timeout, json.dumps(self.state.get("print_stats"))))

    def job_state(self):
        return self.state.get("print_stats", {}).get("state")


def merge(into, fields):
    for key, value in fields.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value


class Check:
    def __init__(self, servers, speed, checks):
        self.ready = servers.ready
        self.speed = speed
        self.checks = checks
        self.control = self.ready["klippy"]["control"]
        self.moonraker = self.ready["moonraker"]["url"]
        self.client = Moonraker(self.ready["moonraker"]["port"])

    def standin_requests(self):
        return http("GET", self.control + "/requests")[1]["requests"]

    def play(self, timeline):
        status, answer = http("POST", self.control + "/play", {"timeline": os.path.join(TIMELINES, timeline), "speed": self.speed})
        expect(status == 200, "play %s: %s %s" % (timeline, status, answer))
        self.client.samples = []
        started = time.monotonic()
        self.client.wait("%s starts" % timeline, lambda c: c.job_state() == "printing", 10)
        return started

    def states_seen(self):
        seen = []
        for _, sample in self.client.samples:
            state = sample.get("print_stats", {}).get("state")
            if state and (not seen or seen[-1] != state):
                seen.append(state)
        return seen

    # -- the checks -------------------------------------------------------------------------

    def server_info(self):
        info = http("GET", self.moonraker + "/server/info")[1]["result"]
        expect(info["klippy_state"] == "ready", "klippy_state %s" % info["klippy_state"])
        expect(info["failed_components"] == [], "failed components %s" % info["failed_components"])
        expect(info["warnings"] == [], "warnings %s" % info["warnings"])
        expect(info["missing_klippy_requirements"] == [], "missing %s" % info["missing_klippy_requirements"])
        self.checks.fact("Moonraker %s, API %s, components: %s" % (info["moonraker_version"], info["api_version_string"],
                                                                   ", ".join(info["components"])))

    def startup_requests(self):
        asked = [(entry["method"], entry["params"]) for entry in self.standin_requests()]
        methods = [method for method, _ in asked]
        for needed in ("info", "list_endpoints", "objects/subscribe", "gcode/subscribe_output", "objects/list",
                       "objects/query", "register_remote_method"):
            expect(needed in methods, "Moonraker did not ask %s at start-up: %s" % (needed, methods))
        queried = sorted({name for method, params in asked if method in ("objects/query", "objects/subscribe")
                          for name in params.get("objects", {})})
        remote = sorted(params["remote_method"] for method, params in asked if method == "register_remote_method")
        self.checks.fact("Moonraker asked at start-up, in order: %s" % ", ".join(dict.fromkeys(methods)))
        self.checks.fact("objects it queried or subscribed: %s; remote methods it registered: %s" % (", ".join(queried), ", ".join(remote)))

    def metadata(self):
        for name, slicer in (("cura-m73.gcode", "Cura"), ("prusaslicer-m73.gcode", "PrusaSlicer"), ("cura-no-m73.gcode", "Cura")):
            data = self.client.call("server.files.metadata", {"filename": name})
            expect(data.get("slicer") == slicer, "%s: slicer %r" % (name, data.get("slicer")))
            expect(data.get("estimated_time") == 20, "%s: estimated_time %r" % (name, data.get("estimated_time")))
            expect(data.get("layer_count") == 30, "%s: layer_count %r" % (name, data.get("layer_count")))
            self.checks.fact("metadata of %s: %s" % (name, json.dumps({key: data.get(key) for key in (
                "slicer", "slicer_version", "estimated_time", "layer_count", "layer_height", "object_height",
                "filament_total", "first_layer_extr_temp", "first_layer_bed_temp")})))

    def m73_print(self):
        started = self.play("m73-complete.json")
        client = self.client
        client.wait("the M73 print completes", lambda c: c.job_state() == "complete", 60)
        wall = time.monotonic() - started
        expect(self.states_seen()[-2:] == ["printing", "complete"], "states %s" % self.states_seen())
        samples = [sample for _, sample in client.samples]
        heating = [s for s in samples if s["extruder"]["target"] == 200 and s["extruder"]["temperature"] < 199]
        expect(heating, "no update while the hot end heated")
        body = [s for s in samples if s["print_stats"]["info"]["current_layer"]]
        expect(body and body[0]["extruder"]["temperature"] >= 199.5, "a layer began before the hot end was up")
        expect(max(s["virtual_sdcard"]["progress"] for s in heating) < 0.05, "the file moved on while heating")
        sdcard = [s["virtual_sdcard"]["progress"] for s in samples]
        expect(all(b >= a for a, b in zip(sdcard, sdcard[1:])), "virtual_sdcard.progress went back")
        m73 = [s["display_status"]["progress"] for s in body]
        expect(any(abs(p - s["virtual_sdcard"]["progress"]) > 0.02 for p, s in zip(m73, body)),
               "display_status.progress never differed from the file position")
        # Klipper's display_status drops an M73 older than 5 s back to the file position (the header's
        # M73 P0 expires while the hot end heats), so each value is a whole percent or that position.
        expect(all(abs(p * 100 - round(p * 100)) < 1e-9 or p == s["virtual_sdcard"]["progress"]
                   for p, s in zip(m73[:-1], body) if p < 1),
               "a display_status.progress that is neither an M73 percent nor the file position: %s" % m73)
        last = client.state
        expect(last["print_stats"]["info"] == {"total_layer": 30, "current_layer": 30}, "layers %s" % last["print_stats"]["info"])
        expect(last["display_status"]["progress"] == 1.0 and last["virtual_sdcard"]["progress"] == 1.0, "not 100 %% at the end")
        duration = last["print_stats"]["print_duration"]
        expect(650 < duration < 700, "print_duration %.1f, expected 600 s of printing plus about 71 s of heating" % duration)
        updates = len(client.samples)
        self.checks.fact("M73 print: states %s; %d notify_status_update in %.1f s (%.1f a second) at speed %g; "
                         "print_duration at the end %.1f s; layers %s" % (" -> ".join(self.states_seen()), updates, wall,
                                                                            updates / wall, self.speed, duration, last["print_stats"]["info"]))

    def no_m73_print(self):
        self.play("no-m73-complete.json")
        client = self.client
        client.wait("the print without M73 completes", lambda c: c.job_state() == "complete", 60)
        samples = [sample for _, sample in client.samples]
        expect(all(s["display_status"]["progress"] == s["virtual_sdcard"]["progress"] for s in samples),
               "display_status.progress is not the file position without M73")
        expect(all(s["print_stats"]["info"]["current_layer"] is None for s in samples),
               "current_layer without SET_PRINT_STATS_INFO in the file")
        self.checks.fact("without M73: display_status.progress == virtual_sdcard.progress in all %d updates; info.current_layer stays null" % len(samples))

    def paused_resumed(self):
        self.play("paused-resumed.json")
        client = self.client
        client.wait("the paused print completes", lambda c: c.job_state() == "complete", 60)
        expect(self.states_seen()[-4:] == ["printing", "paused", "printing", "complete"], "states %s" % self.states_seen())
        paused = [s for _, s in client.samples if s["print_stats"]["state"] == "paused"]
        expect(all(s["pause_resume"]["is_paused"] and not s["virtual_sdcard"]["is_active"] for s in paused),
               "pause_resume.is_paused or virtual_sdcard.is_active wrong while paused")
        stats = client.state["print_stats"]
        gap = stats["total_duration"] - stats["print_duration"]
        expect(110 < gap < 130, "total_duration - print_duration is %.1f, expected the 120 s paused" % gap)
        self.checks.fact("paused and resumed: states %s; total_duration %.1f, print_duration %.1f" % (
            " -> ".join(self.states_seen()), stats["total_duration"], stats["print_duration"]))

    def cancelled_by_timeline(self):
        self.play("cancelled.json")
        self.client.wait("the print is cancelled", lambda c: c.job_state() == "cancelled", 60)
        stats = self.client.state["print_stats"]
        expect(stats["filename"] == "cura-m73.gcode", "filename after cancel %r" % stats["filename"])
        self.checks.fact("cancelled by the timeline: states %s; after it print_stats.filename stays %r and virtual_sdcard.progress %.3f" % (
            " -> ".join(self.states_seen()), stats["filename"], self.client.state["virtual_sdcard"]["progress"]))

    def control_through_moonraker(self):
        status, _ = http("POST", self.control + "/play", {"timeline": os.path.join(TIMELINES, "idle.json"), "speed": self.speed})
        expect(status == 200, "play idle.json")
        http("POST", self.control + "/reset-log")
        client = self.client
        client.samples = []
        client.call("printer.print.start", {"filename": "cura-m73.gcode"})
        client.wait("printing after printer.print.start", lambda c: c.job_state() == "printing", 10)
        client.call("printer.print.pause")
        client.wait("paused after printer.print.pause", lambda c: c.job_state() == "paused", 10)
        client.call("printer.print.resume")
        client.wait("printing after printer.print.resume", lambda c: c.job_state() == "printing", 10)
        client.call("printer.print.cancel")
        client.wait("cancelled after printer.print.cancel", lambda c: c.job_state() == "cancelled", 10)
        reached = [(entry["method"], entry["params"]) for entry in self.standin_requests() if not entry["method"].startswith("objects/")]
        methods = [method for method, _ in reached]
        expect(("gcode/script", {"script": 'SDCARD_PRINT_FILE FILENAME="cura-m73.gcode"'}) in reached, "start: %s" % reached)
        for endpoint in ("pause_resume/pause", "pause_resume/resume", "pause_resume/cancel"):
            expect(endpoint in methods, "%s did not reach the stand-in: %s" % (endpoint, methods))
        self.checks.fact("printer.print.start/pause/resume/cancel reach Klippy as: %s" % "; ".join(
            "%s %s" % (method, json.dumps(params)) for method, params in reached))

    def error_and_restart(self):
        self.play("error.json")
        client = self.client
        client.wait("Klippy shuts down", lambda c: any(method == "notify_klippy_shutdown" for _, method, _ in c.notifications), 60)
        client.wait("the print is in error", lambda c: c.job_state() == "error", 10)
        info = http("GET", self.moonraker + "/server/info")[1]["result"]
        expect(info["klippy_state"] == "shutdown", "klippy_state %s" % info["klippy_state"])
        webhooks = client.state["webhooks"]
        expect(webhooks["state"] == "shutdown", "webhooks %s" % webhooks)
        message = client.state["print_stats"]["message"]
        client.notifications = []
        client.call("printer.firmware_restart")
        client.wait("Klippy ready again", lambda c: any(method == "notify_klippy_ready" for _, method, _ in c.notifications), 20)
        client.subscribe()  # a restarted Klippy forgets subscriptions; a client subscribes again on notify_klippy_ready
        expect(client.job_state() == "standby", "after the restart print_stats.state is %s" % client.job_state())
        self.checks.fact("error: states %s, print_stats.message %r, webhooks %s; printer.firmware_restart -> %s" % (
            " -> ".join(self.states_seen()), message, json.dumps(webhooks), ", ".join(method for _, method, _ in client.notifications)))

    def disconnect(self):
        self.client.notifications = []
        self.play("disconnect.json")
        client = self.client
        client.wait("Klippy disconnects", lambda c: any(method == "notify_klippy_disconnected" for _, method, _ in c.notifications), 60)
        lost = time.monotonic()
        client.wait("Klippy is back", lambda c: any(method == "notify_klippy_ready" for _, method, _ in c.notifications), 30)
        back = time.monotonic() - lost
        client.subscribe()
        expect(client.job_state() == "standby", "after Klippy came back print_stats.state is %s" % client.job_state())
        self.checks.fact("disconnect for 2 s: %s; Moonraker reported Klippy ready %.1f s after it reported the disconnect" % (
            " -> ".join(dict.fromkeys(method for _, method, _ in client.notifications if method.startswith("notify_klippy"))), back))

    def history(self):
        jobs = self.client.call("server.history.list", {"limit": 20, "order": "asc"})["jobs"]
        statuses = [job["status"] for job in jobs]
        expect(statuses[:4] == ["completed", "completed", "completed", "cancelled"], "history statuses %s" % statuses)
        # docs/external_api/history.md, Job Status: a shutdown ends a job as klippy_shutdown and a
        # lost connection as klippy_disconnect.
        expect(statuses[4:7] == ["cancelled", "klippy_shutdown", "klippy_disconnect"], "history statuses %s" % statuses)
        for job in jobs:
            expect(job["total_duration"] >= job["print_duration"] >= 0, "durations of %s" % job)
        paused = jobs[2]
        expect(110 < paused["total_duration"] - paused["print_duration"] < 130, "the paused job's durations %s" % paused)
        expect(jobs[0]["metadata"].get("estimated_time") == 20, "metadata in history %s" % jobs[0]["metadata"])
        totals = self.client.call("server.history.totals")
        self.checks.fact("history (oldest first): %s" % "; ".join("%s %s print %.0f s total %.0f s (wall %.1f s)" % (
            job["filename"], job["status"], job["print_duration"], job["total_duration"], (job["end_time"] or 0) - job["start_time"])
            for job in jobs))
        self.checks.fact("history totals: %s" % json.dumps(totals))

    def emergency_stop(self):
        http("POST", self.control + "/reset-log")
        self.client.notifications = []
        self.client.call("printer.emergency_stop")
        self.client.wait("Klippy shuts down", lambda c: any(method == "notify_klippy_shutdown" for _, method, _ in c.notifications), 10)
        expect("emergency_stop" in [entry["method"] for entry in self.standin_requests()], "emergency_stop did not reach the stand-in")
        self.client.call("printer.firmware_restart")
        self.client.wait("Klippy ready again", lambda c: any(method == "notify_klippy_ready" for _, method, _ in c.notifications), 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed", type=float, default=120.0)
    args = parser.parse_args()
    checks = Checks("check_moonraker")
    servers = Servers("--only", "moonraker")
    checks.fact("serve.py --only moonraker ready in %.1f s" % servers.start_seconds)
    try:
        check = Check(servers, args.speed, checks)
        check.client.subscribe()
        for title, function in (("Moonraker sees Klippy ready, without warnings", check.server_info),
                                ("Moonraker's start-up requests reach the stand-in", check.startup_requests),
                                ("server.files.metadata: estimated_time and layer_count", check.metadata),
                                ("a print with M73: heat-up, progress, layers, complete", check.m73_print),
                                ("a print without M73: progress is the file position", check.no_m73_print),
                                ("paused then resumed by the timeline", check.paused_resumed),
                                ("cancelled by the timeline", check.cancelled_by_timeline),
                                ("start, pause, resume, cancel through Moonraker reach the stand-in", check.control_through_moonraker),
                                ("an error shuts Klippy down; a firmware restart brings it back", check.error_and_restart),
                                ("Klippy disconnects mid-print and comes back", check.disconnect),
                                ("server.history.list: finished jobs with durations", check.history),
                                ("printer.emergency_stop reaches the stand-in", check.emergency_stop)):
            checks.run(title, function)
    finally:
        status = servers.stop()
        if status != 0:
            checks.failed.append("serve.py stopped with status %s" % status)
            print("FAIL serve.py stopped with status %s" % status)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
