#!/usr/bin/env python3
"""Proves, against the real Home Assistant of Tests/Home, what headway-ci's follower will read.

    python3 Tests/Home/check_homeassistant.py [--url URL --token-file PATH] [--record FILE]

Without --url it starts the test home itself (serve.py's TestHome) and stops it at the end.
Two WebSocket connections watch while the entities are driven through the REST API
(POST /api/services/DOMAIN/SERVICE, developers.home-assistant.io/docs/api/rest):
  full     subscribe_events state_changed (and the timer's own events): every entity's change,
           old and new state whole (docs/api/websocket, "Subscribe to events")
  compact  subscribe_entities with entity_ids: the named entities only, first all of them, then
           only what changed (homeassistant/components/websocket_api/commands.py,
           handle_subscribe_entities; the frontend's subscription, not in the developer docs)
Each check prints PASS or FAIL with what it saw; the last line is "N passed, N failed".
--record writes every message with the times it was received, the latencies and sizes (the
figures of Tests/Home/README.md).
"""

import argparse
import json
import os
import queue
import statistics
import sys
import threading
import time
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from homeassistant_client import AuthInvalid, Closed, HTTPFailure, HomeAssistantSocket, http_json  # noqa: E402
from serve import ENTITIES, NotInstalled, TestHome  # noqa: E402

# What onboarding's core_config step makes Home Assistant log: it starts the met, radio_browser
# and google_translate flows, whose libraries are not installed (the test home runs --skip-pip).
EXPECTED_LOG_ERRORS = ("met", "radio_browser", "google_translate")


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, condition, seen=""):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
        print(f"{'PASS' if condition else 'FAIL'} {name}" + (f": {seen}" if seen != "" else ""), flush=True)
        return condition


class Watcher:
    """A subscribed connection read by a thread of its own, so each message is timed as it comes."""

    def __init__(self, url, token):
        self.socket = HomeAssistantSocket(url)
        self.socket.auth(token)
        self.messages = queue.Queue()
        self.log = []  # every message: (wall time received, size in bytes, message)
        self.closed = None

    def subscribe(self, kind, **fields):
        answer = self.socket.wait_result(self.socket.send_command(kind, **fields))
        assert answer.get("success"), answer
        return answer["id"]

    def start(self):
        for when, message in self.socket.events:  # those that came before the thread
            self.messages.put((time.time(), message))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                message = self.socket.receive_json(3600)
            except (Closed, OSError) as error:
                self.closed = (time.time(), error)
                self.messages.put((time.time(), None))
                return
            if message is not None:
                received = time.time()
                self.log.append((received, len(json.dumps(message, ensure_ascii=False).encode()), message))
                self.messages.put((received, message))

    def until(self, predicate, timeout=5):
        """The first message (time, message) for which predicate holds; earlier ones are dropped."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                received, message = self.messages.get(timeout=left)
            except queue.Empty:
                break
            if message is None:
                return None
            if predicate(message):
                return received, message
        return None

    def quiet_for(self, seconds):
        """The messages that came within seconds (none, when nothing changed)."""
        time.sleep(seconds)
        drained = []
        while not self.messages.empty():
            drained.append(self.messages.get()[1])
        return drained


def changed(entity_id, where=lambda state: True):
    """A state_changed event message for entity_id whose new state satisfies where."""
    def test(message):
        event = message.get("event", {})
        data = event.get("data", {})
        return (event.get("event_type") == "state_changed" and data.get("entity_id") == entity_id
                and data.get("new_state") is not None and where(data["new_state"]))
    return test


def diff(entity_id, where=lambda plus: True):
    """A subscribe_entities message whose "c" (changes) holds entity_id with "+" satisfying where."""
    def test(message):
        change = message.get("event", {}).get("c", {}).get(entity_id)
        return change is not None and where(change.get("+", {}))
    return test


def timestamp(text):
    return datetime.fromisoformat(text).timestamp()


class Check:
    def __init__(self, url, token, log_path, results):
        self.url = url
        self.token = token
        self.log_path = log_path
        self.r = results
        self.latencies = {"full": [], "compact": []}
        self.record = {"url": url}

    def call(self, domain, service, **data):
        sent = time.time()
        answer = http_json(f"{self.url}/api/services/{domain}/{service}", "POST", body=data, token=self.token)
        return sent, answer

    def time_full(self, hit):
        """The latency of a state_changed message: its new state's last_updated to its arrival."""
        if hit:
            received, message = hit
            self.latencies["full"].append(received - timestamp(message["event"]["data"]["new_state"]["last_updated"]))
        return hit

    def time_compact(self, hit):
        if hit:
            received, message = hit
            for change in message["event"]["c"].values():
                plus = change.get("+", {})
                stamp = plus.get("lu", plus.get("lc"))
                if stamp is not None:
                    self.latencies["compact"].append(received - stamp)
        return hit

    def run(self):
        r = self.r
        hello = HomeAssistantSocket(self.url)
        r.check("the server speaks first: auth_required with its version", hello.hello.get("type") == "auth_required", hello.hello)
        self.record["auth_required"] = hello.hello
        try:
            hello.auth("not-a-token")
            r.check("a wrong token is refused", False)
        except AuthInvalid as error:
            answer = error.args[0]
            r.check("a wrong token is answered auth_invalid", answer and answer.get("type") == "auth_invalid", answer)
            self.record["auth_invalid"] = answer
            try:
                closed = hello.receive_json(5)
                r.check("and the connection is closed after it", False, closed)
            except Closed as ending:
                r.check("and the connection is closed after it", True, f"close code {ending.code}")
        hello.sock.close()

        full = Watcher(self.url, self.token)
        self.record["auth_ok"] = {"type": "auth_ok", "ha_version": hello.hello.get("ha_version")}
        states = {state["entity_id"]: state for state in full.socket.command("get_states")}
        self.record["get_states"] = {entity: states.get(entity) for entity in ENTITIES.values()}
        self.check_initial_states(states)
        full.subscribe("subscribe_events", event_type="state_changed")
        for kind in ("timer.started", "timer.restarted", "timer.paused", "timer.cancelled", "timer.finished"):
            full.subscribe("subscribe_events", event_type=kind)
        full.start()
        compact = Watcher(self.url, self.token)
        compact.subscribe("subscribe_entities", entity_ids=sorted(ENTITIES.values()))
        compact.start()
        first = compact.until(lambda message: "a" in message.get("event", {}))
        added = first[1]["event"]["a"] if first else {}
        self.record["subscribe_entities_first"] = first[1] if first else None
        r.check("subscribe_entities sends every named entity first, and only them", set(added) == set(ENTITIES.values()), sorted(added))
        r.check("each compressed state has s (state), a (attributes), c (context id), lc (last changed, epoch seconds)",
                all({"s", "a", "c", "lc"} <= set(entry) for entry in added.values()), next(iter(added.values()), None))
        quiet = compact.quiet_for(3)
        r.check("nothing comes while nothing changes (3 s)", not quiet, quiet)

        self.check_percentage(full, compact)
        self.check_washer(full, compact)
        self.check_timer(full, compact)
        self.check_update(full, compact)
        self.check_revoked_token()
        self.summarise(full, compact)
        self.check_log()

    def check_initial_states(self, states):
        r = self.r
        r.check("get_states has every entity of the test home", set(ENTITIES.values()) <= set(states), sorted(set(ENTITIES.values()) - set(states)))
        number = states.get("input_number.print_progress", {})
        r.check("input_number: state a decimal string, unit %, min 0, max 100, step 1",
                number.get("state") == "0.0" and number["attributes"].get("unit_of_measurement") == "%"
                and (number["attributes"].get("min"), number["attributes"].get("max"), number["attributes"].get("step")) == (0.0, 100.0, 1.0), number)
        washer = states.get("sensor.washer_remaining_time", {})
        r.check("washer sensor: device_class duration, unit min, state a string",
                washer.get("state") == "0" and washer["attributes"].get("device_class") == "duration"
                and washer["attributes"].get("unit_of_measurement") == "min", washer)
        running = states.get("binary_sensor.washer", {})
        r.check("binary sensor: off, device_class running", running.get("state") == "off" and running["attributes"].get("device_class") == "running", running)
        timer = states.get("timer.tea", {})
        r.check("timer idle: duration '0:02:00', no remaining, no finishes_at, friendly_name with its emoji",
                timer.get("state") == "idle" and timer["attributes"].get("duration") == "0:02:00"
                and "remaining" not in timer["attributes"] and "finishes_at" not in timer["attributes"]
                and timer["attributes"].get("friendly_name") == "Tea ☕", timer)
        update = states.get("update.hall_light_firmware", {})
        attributes = update.get("attributes", {})
        r.check("update: on (1.0.0 → 1.1.0), in_progress false, update_percentage null, PROGRESS in supported_features",
                update.get("state") == "on" and attributes.get("in_progress") is False and attributes.get("update_percentage") is None
                and attributes.get("supported_features", 0) & 4, update)

    def check_percentage(self, full, compact):
        r = self.r
        sent, _ = self.call("input_number", "set_value", entity_id="input_number.print_progress", value=42)
        hit = self.time_full(full.until(changed("input_number.print_progress", lambda s: s["state"] == "42.0")))
        r.check("input_number.set_value 42: state_changed with new_state.state '42.0' (and old_state)",
                hit is not None and hit[1]["event"]["data"]["old_state"]["state"] == "0.0", hit and hit[1]["event"]["data"]["new_state"]["state"])
        self.record["state_changed_example"] = hit[1] if hit else None
        if hit:
            self.record["call_to_full_ms"] = round((hit[0] - sent) * 1000, 1)
        hit = self.time_compact(compact.until(diff("input_number.print_progress", lambda plus: plus.get("s") == "42.0")))
        r.check("subscribe_entities: {'c': {id: {'+': {'s': '42.0', 'lc': …, 'c': …}}}}, attributes not repeated", hit is not None and "a" not in hit[1]["event"]["c"]["input_number.print_progress"]["+"], hit and hit[1])
        self.record["subscribe_entities_change_example"] = hit[1] if hit else None
        hit = self.time_full(full.until(changed("sensor.printer_progress", lambda s: s["state"] == "42.0")))
        r.check("the percentage sensor follows: '42.0', unit %", hit is not None and hit[1]["event"]["data"]["new_state"]["attributes"].get("unit_of_measurement") == "%", hit and hit[1]["event"]["data"]["new_state"])
        self.time_compact(compact.until(diff("sensor.printer_progress")))
        self.call("input_number", "set_value", entity_id="input_number.print_progress", value=42.5)
        hit = self.time_full(full.until(changed("input_number.print_progress")))
        r.check("step is not enforced: set_value 42.5 gives '42.5' (step 1)", hit is not None and hit[1]["event"]["data"]["new_state"]["state"] == "42.5", hit and hit[1]["event"]["data"]["new_state"]["state"])
        self.record["off_step_value"] = hit[1]["event"]["data"]["new_state"]["state"] if hit else "no change"
        try:
            self.call("input_number", "set_value", entity_id="input_number.print_progress", value=150)
            refused = None
        except HTTPFailure as error:
            refused = error
        r.check("a value over max is refused with HTTP 400", refused is not None and refused.status == 400, refused)
        self.record["over_max"] = str(refused)

    def check_washer(self, full, compact):
        r = self.r
        self.call("input_number", "set_value", entity_id="input_number.washer_minutes", value=45)
        hit = self.time_full(full.until(changed("sensor.washer_remaining_time", lambda s: s["state"] == "45")))
        r.check("washer remaining time: '45' (minutes, a string of an integer)", hit is not None, hit and hit[1]["event"]["data"]["new_state"])
        self.time_compact(compact.until(diff("sensor.washer_remaining_time")))
        self.call("input_boolean", "turn_on", entity_id="input_boolean.washer_running")
        hit = self.time_full(full.until(changed("binary_sensor.washer", lambda s: s["state"] == "on")))
        r.check("binary sensor: 'on' while the washer runs", hit is not None, hit and hit[1]["event"]["data"]["new_state"])
        self.time_compact(compact.until(diff("binary_sensor.washer")))
        self.call("input_boolean", "turn_off", entity_id="input_boolean.washer_running")
        hit = self.time_full(full.until(changed("binary_sensor.washer", lambda s: s["state"] == "off")))
        r.check("binary sensor: 'off' when it stops", hit is not None)
        self.time_compact(compact.until(diff("binary_sensor.washer")))

    def check_timer(self, full, compact):
        r = self.r
        record = self.record.setdefault("timer", {})
        sent, _ = self.call("timer", "start", entity_id="timer.tea")
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "active")))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["started"] = attributes
        finishes = timestamp(attributes["finishes_at"]) if "finishes_at" in attributes else 0
        r.check("timer.start: active, duration and remaining '0:02:00', finishes_at an ISO time 120 s on (start truncated to the second)",
                attributes.get("duration") == "0:02:00" and attributes.get("remaining") == "0:02:00" and -1.5 < finishes - sent - 120 <= 0.5,
                f"{attributes}, finishes_at - sent = {finishes - sent:.3f} s")
        self.time_compact(compact.until(diff("timer.tea")))
        started = full.until(lambda m: m.get("event", {}).get("event_type") == "timer.started")
        r.check("the timer.started event comes too, with entity_id only", started is not None and started[1]["event"]["data"] == {"entity_id": "timer.tea"}, started and started[1]["event"])
        quiet = compact.quiet_for(2.5)
        r.check("an active timer sends nothing while it runs (remaining does not tick)", not quiet, quiet)
        self.call("timer", "pause", entity_id="timer.tea")
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "paused")))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["paused"] = attributes
        r.check("timer.pause: paused, remaining '0:01:5x', no finishes_at", hit is not None and attributes.get("remaining", "").startswith("0:01:5") and "finishes_at" not in attributes, attributes)
        hit = self.time_compact(compact.until(diff("timer.tea", lambda plus: plus.get("s") == "paused")))
        removed = hit[1]["event"]["c"]["timer.tea"].get("-") if hit else None
        r.check("subscribe_entities names a removed attribute under '-': {'a': ['finishes_at']}", removed == {"a": ["finishes_at"]}, hit and hit[1]["event"])
        paused_remaining = attributes.get("remaining")
        resumed_at, _ = self.call("timer", "start", entity_id="timer.tea")
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "active")))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["resumed"] = attributes
        r.check("timer.start again resumes: active, remaining as paused, duration still '0:02:00', a new finishes_at",
                attributes.get("remaining") == paused_remaining and attributes.get("duration") == "0:02:00" and "finishes_at" in attributes, attributes)
        self.time_compact(compact.until(diff("timer.tea")))
        restarted = full.until(lambda m: m.get("event", {}).get("event_type") == "timer.restarted")
        r.check("resuming fires timer.restarted", restarted is not None)
        self.call("timer", "cancel", entity_id="timer.tea")
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "idle")))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["cancelled"] = attributes
        r.check("timer.cancel: idle, no remaining, no finishes_at", hit is not None and "remaining" not in attributes and "finishes_at" not in attributes, attributes)
        self.time_compact(compact.until(diff("timer.tea")))
        cancelled = full.until(lambda m: m.get("event", {}).get("event_type") == "timer.cancelled")
        r.check("and timer.cancelled", cancelled is not None)
        self.call("timer", "start", entity_id="timer.tea", duration="00:00:03")
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "active")))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["short"] = attributes
        r.check("timer.start with duration 00:00:03: duration shows the run's '0:00:03'", attributes.get("duration") == "0:00:03", attributes)
        self.time_compact(compact.until(diff("timer.tea")))
        finishes = timestamp(attributes["finishes_at"]) if "finishes_at" in attributes else 0
        hit = self.time_full(full.until(changed("timer.tea", lambda s: s["state"] == "idle"), timeout=6))
        record["finished"] = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else None
        late = hit[0] - finishes if hit else None
        r.check("it finishes by itself: idle at finishes_at, duration back to '0:02:00'",
                hit is not None and hit[1]["event"]["data"]["new_state"]["attributes"]["duration"] == "0:02:00" and 0 <= late < 0.5,
                f"idle message {late:.3f} s after finishes_at" if hit else "no idle")
        record["finish_message_after_finishes_at_ms"] = round(late * 1000, 1) if late is not None else None
        self.time_compact(compact.until(diff("timer.tea")))
        finished = full.until(lambda m: m.get("event", {}).get("event_type") == "timer.finished")
        r.check("and timer.finished with finished_at", finished is not None and "finished_at" in finished[1]["event"]["data"], finished and finished[1]["event"]["data"])

    def check_update(self, full, compact):
        r = self.r
        record = self.record.setdefault("update", {})
        self.call("input_boolean", "turn_on", entity_id="input_boolean.firmware_installing")
        hit = self.time_full(full.until(changed("update.hall_light_firmware", lambda s: s["attributes"].get("in_progress") is True)))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["installing"] = hit[1]["event"]["data"]["new_state"] if hit else None
        r.check("update in progress: in_progress true, update_percentage 0.0 (the template's integer arrives as a float), state still 'on'",
                attributes.get("update_percentage") == 0 and hit[1]["event"]["data"]["new_state"]["state"] == "on", attributes)
        self.time_compact(compact.until(diff("update.hall_light_firmware")))
        seen = []
        for percentage in range(10, 101, 10):
            self.call("input_number", "set_value", entity_id="input_number.firmware_percentage", value=percentage)
            hit = self.time_full(full.until(changed("update.hall_light_firmware", lambda s, p=percentage: s["attributes"].get("update_percentage") == p)))
            seen.append(hit[1]["event"]["data"]["new_state"]["attributes"]["update_percentage"] if hit else None)
            compact_hit = self.time_compact(compact.until(diff("update.hall_light_firmware")))
            if percentage == 50 and compact_hit:
                record["compact_progress_example"] = compact_hit[1]
        r.check("update_percentage follows 10 … 100", seen == list(range(10, 101, 10)), seen)
        self.call("input_boolean", "turn_off", entity_id="input_boolean.firmware_installing")
        hit = self.time_full(full.until(changed("update.hall_light_firmware", lambda s: s["attributes"].get("in_progress") is False)))
        attributes = hit[1]["event"]["data"]["new_state"]["attributes"] if hit else {}
        record["done"] = attributes
        r.check("not in progress: update_percentage null again (the input still says 100)", hit is not None and attributes.get("update_percentage") is None, attributes)
        self.time_compact(compact.until(diff("update.hall_light_firmware")))

    def check_revoked_token(self):
        r = self.r
        record = self.record.setdefault("revoked", {})
        admin = HomeAssistantSocket(self.url)
        admin.auth(self.token)
        second = admin.command("auth/long_lived_access_token", client_name="headway revoke check", lifespan=1)
        tokens = admin.command("auth/refresh_tokens")
        mine = [t for t in tokens if t.get("client_name") == "headway revoke check"]
        record["refresh_token_entry"] = mine[0] if mine else None
        r.check("auth/refresh_tokens lists the long-lived token's refresh token (type long_lived_access_token)",
                len(mine) == 1 and mine[0].get("type") == "long_lived_access_token", mine)
        watcher = HomeAssistantSocket(self.url)
        watcher.auth(second)
        watcher.command("subscribe_entities", entity_ids=["input_number.print_progress"])
        revoked_at = time.time()
        admin.command("auth/delete_refresh_token", refresh_token_id=mine[0]["id"])
        ending = None
        try:
            while (message := watcher.receive_json(5)) is not None:
                if message.get("type") == "event" and "a" in message["event"]:
                    continue
                ending = message
                break
        except Closed as closed:
            ending = closed
        record["open_connection"] = f"{ending!r} {time.time() - revoked_at:.3f} s after the delete"
        r.check("a connection open with the revoked token is closed by the server at once", isinstance(ending, Closed), record["open_connection"])
        again = HomeAssistantSocket(self.url)
        try:
            again.auth(second)
            r.check("a new connection with the revoked token is refused", False)
        except AuthInvalid as error:
            record["new_connection"] = error.args[0]
            r.check("a new connection with the revoked token: auth_invalid", error.args[0].get("type") == "auth_invalid", error.args[0])
        again.sock.close()
        try:
            http_json(f"{self.url}/api/", token=second)
            r.check("the REST API refuses the revoked token", False)
        except HTTPFailure as error:
            record["rest"] = f"HTTP {error.status} {error.body.strip()}"
            r.check("the REST API answers 401 to the revoked token", error.status == 401, record["rest"])
        admin.close()

    def check_restart(self, home):
        """Home Assistant restarted (the homeassistant.restart action) and crashed (SIGKILL), each
        time started again by TestHome as its supervisor would."""
        r = self.r
        record = self.record.setdefault("restart", {})
        watcher = HomeAssistantSocket(self.url)
        watcher.auth(self.token)
        watcher.command("subscribe_entities", entity_ids=["input_number.print_progress"])
        asked = time.time()
        self.call("homeassistant", "restart")
        try:
            while watcher.receive_json(10) is not None:
                pass
            ending = None
        except Closed as closed:
            ending = closed
        record["socket"] = f"{ending!r} {time.time() - asked:.3f} s after the call"
        r.check("homeassistant.restart closes the connection (no unavailable states first)", isinstance(ending, Closed), record["socket"])
        home.process.wait(30)
        r.check("Home Assistant exits with status 100 for its supervisor", home.process.returncode == 100, home.process.returncode)
        back = home.restart()
        record["back_seconds"] = back["seconds"]
        connection = HomeAssistantSocket(self.url)
        connection.auth(self.token)
        states = {state["entity_id"]: state["state"] for state in connection.command("get_states")}
        record["states_after_restart"] = {entity: states.get(entity) for entity in ENTITIES.values()}
        r.check("after the restart: same port and token, helpers restored (print progress '42.5', washer 45 min)",
                states.get("input_number.print_progress") == "42.5" and states.get("sensor.washer_remaining_time") == "45", record["states_after_restart"])
        connection.close()
        back = home.restart(crash=True)
        record["crash_back_seconds"] = back["seconds"]
        connection = HomeAssistantSocket(self.url)
        connection.auth(self.token)
        r.check("after a crash (SIGKILL): the token still works", connection.command("get_config")["state"] == "RUNNING")
        connection.close()

    def summarise(self, full, compact):
        def stats(values):
            values = sorted(v * 1000 for v in values)
            return {"count": len(values), "min_ms": round(values[0], 2), "median_ms": round(statistics.median(values), 2), "max_ms": round(values[-1], 2)} if values else None
        full_sizes = [size for _, size, message in full.log if message.get("event", {}).get("event_type") == "state_changed"]
        compact_sizes = [size for _, size, message in compact.log if "c" in message.get("event", {})]
        self.record["latency_state_to_socket"] = {name: stats(values) for name, values in self.latencies.items()}
        self.record["message_bytes"] = {
            "state_changed": {"count": len(full_sizes), "median": statistics.median(full_sizes) if full_sizes else None, "max": max(full_sizes, default=None)},
            "subscribe_entities_change": {"count": len(compact_sizes), "median": statistics.median(compact_sizes) if compact_sizes else None, "max": max(compact_sizes, default=None)},
            "subscribe_entities_first": next((size for _, size, message in compact.log if "a" in message.get("event", {})), None),
        }
        print("latency, last_updated at Home Assistant to the message on the socket:", json.dumps(self.record["latency_state_to_socket"]))
        print("message sizes (bytes):", json.dumps(self.record["message_bytes"]))
        full_latency = self.record["latency_state_to_socket"]["full"]
        # Home Assistant pushes at once (a median of about a millisecond); on a 2-core machine busy
        # with other suites one message in two dozen has taken 139 ms, so the bound is the half
        # second a follower would notice, the median held to 100 ms.
        self.r.check("every change reached the socket within 500 ms of last_updated, half of them within 100 ms",
                     full_latency and full_latency["max_ms"] < 500 and full_latency["median_ms"] < 100, full_latency)
        self.record["full_log"] = [{"received": when, "bytes": size, "message": message} for when, size, message in full.log]
        self.record["compact_log"] = [{"received": when, "bytes": size, "message": message} for when, size, message in compact.log]

    def check_log(self):
        if not self.log_path:
            return
        with open(self.log_path, errors="replace") as handle:
            errors = [line for line in handle if " ERROR " in line]
        unexpected = [line for line in errors if not any(f"integration {name}:" in line for name in EXPECTED_LOG_ERRORS) and "Error doing job: Task exception was never retrieved" not in line]
        self.r.check("Home Assistant logged no errors but onboarding's three flows without their libraries", not unexpected, unexpected[:5])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url")
    parser.add_argument("--token-file")
    parser.add_argument("--log", help="Home Assistant's log, checked for errors")
    parser.add_argument("--record", help="write what was seen, as JSON, to this file")
    arguments = parser.parse_args()
    results = Results()
    home = None
    try:
        if arguments.url:
            url, token_file, log = arguments.url, arguments.token_file, arguments.log
        else:
            try:
                home = TestHome()
            except NotInstalled as error:
                print(f"check_homeassistant: {error}", file=sys.stderr)
                sys.exit(3)
            ready = home.start()
            print("ready:", json.dumps(ready), flush=True)
            url, token_file, log = ready["url"], ready["token_file"], ready["log"]
        with open(token_file) as handle:
            token = handle.read().strip()
        check = Check(url, token, log, results)
        check.run()
        if home:
            check.check_restart(home)
        if arguments.record:
            with open(arguments.record, "w") as handle:
                json.dump(check.record, handle, indent=1, ensure_ascii=False)
    finally:
        if home:
            status, left = home.stop()
            results.check("Home Assistant stopped on SIGTERM with status 0, no process left", status == 0 and not left, (status, left))
    print(f"{results.passed} passed, {results.failed} failed")
    sys.exit(1 if results.failed else 0)


if __name__ == "__main__":
    main()
