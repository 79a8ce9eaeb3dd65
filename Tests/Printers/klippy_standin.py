#!/usr/bin/env python3
"""A stand-in for Klippy (Klipper's host program) for the tests: its API server on a Unix socket, as
Klipper's published reference describes it, in front of a printer that plays prints from a
timeline (standin_timeline.py) at a chosen speed. Moonraker connects to it as to Klippy.

Protocol (Klipper3d/klipper docs/API_Server.md, "Request format", "API Protocol",
"Subscriptions"): JSON objects each terminated by 0x03; a request has `method`, optional `params`
(an object) and optional `id`; a request with an `id` gets `{"id", "result"}` or `{"id", "error":
{"error", "message"}}`, one without gets nothing. Subscriptions take a `response_template` to which
each later message adds `params`.

Endpoints (API_Server.md, "Available endpoints"), each with its section:
- `info`: system and version information (also Moonraker docs/external_api/printer.md, printer.info).
- `emergency_stop`: the printer goes to `shutdown`, as M112 does.
- `register_remote_method`: remembered; the control interface lists them.
- `objects/list`, `objects/query`, `objects/subscribe`: the printer objects of
  standin_printer.Printer.OBJECTS; a subscription gets the changed fields of its objects every
  250 ms (Moonraker docs/dev_changelog.md: "All subscribed objects will update at an interval of
  250ms"), only fields whose value changed, as the reference's example shows.
- `gcode/help`, `gcode/script`, `gcode/restart`, `gcode/firmware_restart`, `gcode/subscribe_output`.
- `pause_resume/pause`, `pause_resume/resume`, `pause_resume/cancel`: as PAUSE, RESUME, CANCEL_PRINT.
- `query_endstops/status`.
Anything else is answered with an error and logged, so a test sees what a client asked for.

Control (for tests; loopback HTTP, JSON bodies; Tests/Printers/README.md):
`GET /state`, `GET /requests`, `POST /reset-log`, `POST /play {"timeline": PATH or object,
"speed": F}`, `POST /event {an event without "at"}`, `POST /speed {"speed": F}`.

Usage: klippy_standin.py --socket PATH --gcodes DIR [--timeline FILE] [--speed F]
       [--config-file PATH] [--klipper-path DIR] [--control-port N] [--ready-file PATH]
SIGTERM or SIGINT stops it and removes the socket.
"""

import argparse
import asyncio
import collections
import json
import os
import platform
import signal
import socket
import sys
import time

import standin_printer
import standin_timeline
from standin_printer import GcodeError

TICK = 0.25  # seconds between subscription updates (see above)
MAX_MESSAGE = 1024 * 1024  # a request larger than this closes the connection: nothing unbounded
MAX_CONNECTIONS = 16
STARTUP_SECONDS = 0.5  # real seconds a restarted Klippy reports `startup` before `ready`
LOG_ENTRIES = 2000


ENDPOINTS = ("info", "emergency_stop", "register_remote_method", "list_endpoints", "objects/list", "objects/query",
             "objects/subscribe", "gcode/help", "gcode/script", "gcode/restart", "gcode/firmware_restart",
             "gcode/subscribe_output", "pause_resume/pause", "pause_resume/resume", "pause_resume/cancel",
             "query_endstops/status")


class ApiError(Exception):
    pass


class Connection:
    def __init__(self, writer):
        self.writer = writer
        self.subscription = {}  # object name -> list of fields, or None for all
        self.template = {}
        self.sent = {}  # object name -> fields as last sent
        self.output_templates = []
        self.output_seen = 0

    def send(self, message):
        self.writer.write(json.dumps(message).encode() + b"\x03")


class StandIn:
    def __init__(self, args):
        self.args = args
        self.clock = standin_printer.monotonic_clock(args.speed)
        self.timeline = standin_timeline.load(args.timeline) if args.timeline else standin_timeline.check({})
        self.next_event = 0
        self.printer = standin_printer.Printer(args.gcodes, self.timeline, args.config_file, self.clock)
        self.connections = set()
        self.server = None
        self.remote_methods = {}
        self.log = collections.deque(maxlen=LOG_ENTRIES)
        self.disconnected_until = None
        self.ready_at = None
        self.output_total = 0
        self.stopping = asyncio.Event()

    # -- the Unix socket ------------------------------------------------------------------------

    async def listen(self):
        if os.path.exists(self.args.socket):
            os.unlink(self.args.socket)
        self.server = await asyncio.start_unix_server(self.serve, path=self.args.socket, limit=MAX_MESSAGE)

    async def close_socket(self):
        for connection in list(self.connections):
            connection.writer.close()
        self.connections.clear()
        if self.server:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        if os.path.exists(self.args.socket):
            os.unlink(self.args.socket)

    async def serve(self, reader, writer):
        if len(self.connections) >= MAX_CONNECTIONS:
            writer.close()
            return
        connection = Connection(writer)
        self.connections.add(connection)
        try:
            while True:
                try:
                    data = await reader.readuntil(b"\x03")
                except asyncio.LimitOverrunError:
                    self.record("(too large)", {}, "a request over %d bytes: connection closed" % MAX_MESSAGE)
                    break
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                self.handle(connection, data[:-1])
                await writer.drain()
        finally:
            self.connections.discard(connection)
            writer.close()

    def handle(self, connection, data):
        try:
            request = json.loads(data.decode("utf-8"))
            if not isinstance(request, dict):
                raise ValueError("not an object")
        except ValueError as problem:
            self.record("(not JSON)", {}, str(problem))
            connection.send({"id": None, "error": {"error": "WebRequestError", "message": "Invalid request: %s" % problem}})
            return
        method = request.get("method")
        params = request.get("params", {})
        request_id = request.get("id")
        try:
            if not isinstance(method, str):
                raise ApiError("Invalid request: 'method' must be a string")
            if not isinstance(params, dict):
                raise ApiError("Invalid request: 'params' must be an object")
            result = self.dispatch(connection, method, params)
            self.record(method, params, None)
        except (ApiError, GcodeError) as problem:
            self.record(method, params, str(problem))
            if request_id is not None:
                connection.send({"id": request_id, "error": {"error": "WebRequestError", "message": str(problem)}})
            return
        if request_id is not None:
            connection.send({"id": request_id, "result": result})

    def record(self, method, params, error):
        text = json.dumps(params)
        self.log.append({"wall": time.time(), "t": round(self.clock(), 3), "method": method,
                         "params": params if len(text) <= 2048 else text[:2048] + "...", "error": error})

    # -- endpoints ------------------------------------------------------------------------------

    def dispatch(self, connection, method, params):
        printer = self.printer
        if method == "info":  # API_Server.md "info"; Moonraker printer.md printer.info for the fields
            return {"state": printer.webhooks_state, "state_message": printer.webhooks_message,
                    "hostname": socket.gethostname(), "klipper_path": self.args.klipper_path or os.path.dirname(os.path.abspath(__file__)),
                    "python_path": sys.executable, "process_id": os.getpid(), "user_id": os.getuid(),
                    "group_id": os.getgid(), "log_file": os.devnull, "config_file": self.args.config_file or "",
                    "software_version": "v0.13.0-headway-standin", "cpu_info": "%d core %s" % (os.cpu_count() or 1, platform.machine())}
        if method == "emergency_stop":  # API_Server.md "emergency_stop": shutdown, as M112
            printer.fail("Shutdown due to webhooks request", shutdown=True)
            return {}
        if method == "register_remote_method":  # API_Server.md "register_remote_method"
            name = params.get("remote_method")
            if not isinstance(name, str):
                raise ApiError("Invalid request: 'remote_method' must be a string")
            if len(self.remote_methods) < 256:
                self.remote_methods[name] = params.get("response_template", {})
            return {}
        if method == "objects/list":  # API_Server.md "objects/list"
            return {"objects": list(printer.OBJECTS)}
        if method in ("objects/query", "objects/subscribe"):  # API_Server.md "objects/query", "objects/subscribe"
            objects = params.get("objects")
            if not isinstance(objects, dict):
                raise ApiError("Invalid request: 'objects' must be an object of object names")
            printer.advance()
            status = self.status(objects)
            if method == "objects/subscribe":
                connection.subscription = {name: fields for name, fields in objects.items()}
                template = params.get("response_template", {})
                connection.template = template if isinstance(template, dict) else {}
                connection.sent = json.loads(json.dumps(status))
            return {"status": status, "eventtime": time.monotonic()}
        if method == "gcode/help":  # API_Server.md "gcode/help"
            return {name: "stand-in for Klipper's %s" % name for name in sorted(standin_printer.COMMANDS)}
        if method == "gcode/script":  # API_Server.md "gcode/script"
            script = params.get("script")
            if not isinstance(script, str):
                raise ApiError("Invalid request: 'script' must be a string")
            printer.run_script(script)
            if printer.restart_requested:
                self.schedule_restart()
            return {}
        if method in ("gcode/restart", "gcode/firmware_restart"):  # API_Server.md, as RESTART and FIRMWARE_RESTART
            self.schedule_restart()
            return {}
        if method == "gcode/subscribe_output":  # API_Server.md "gcode/subscribe_output"
            template = params.get("response_template", {})
            if len(connection.output_templates) < 8:
                connection.output_templates.append(template if isinstance(template, dict) else {})
            connection.output_seen = len(printer.output)
            return {}
        if method in ("pause_resume/pause", "pause_resume/resume", "pause_resume/cancel"):  # API_Server.md, as PAUSE/RESUME/CANCEL_PRINT
            printer.advance()
            {"pause": printer.pause, "resume": printer.resume, "cancel": printer.cancel}[method.split("/")[1]]()
            return {}
        if method == "list_endpoints":
            # Not in Klipper's reference; Moonraker asks it at start-up and registers its
            # printer.objects.* methods only when it gets this shape (README, "Start-up").
            return {"endpoints": list(ENDPOINTS)}
        if method == "query_endstops/status":  # API_Server.md "query_endstops/status"
            return {"x": "open", "y": "open", "z": "open"}
        raise ApiError("Invalid request method %r (the stand-in answers the endpoints of Klipper's docs/API_Server.md)" % method)

    def status(self, objects):
        status = {}
        for name, fields in objects.items():
            value = self.printer.status(name)
            if value is None:
                continue  # an object Klippy does not have is left out of the answer
            if isinstance(fields, list):
                value = {field: value[field] for field in fields if field in value}
            status[name] = value
        return status

    def schedule_restart(self):
        """A Klippy restart: the answer goes out first; then the connections close and a fresh
        Klippy listens. Moonraker learns of a restart from its connection: with the connection
        kept it never reported Klippy ready again (measured with Moonraker 0.11.0)."""
        self.printer.restart_requested = False
        asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self.reopen()))

    async def reopen(self):
        await self.close_socket()
        self.restart()
        await self.listen()

    def restart(self):
        """A Klippy restart: a fresh printer, `startup` for a moment, then `ready`."""
        temperatures = {name: heater.temperature for name, heater in self.printer.heaters.items()}
        self.printer.reset(self.timeline, temperatures)
        self.printer.webhooks_state = "startup"
        self.printer.webhooks_message = "Printer is not ready"
        self.ready_at = time.monotonic() + STARTUP_SECONDS

    # -- the timeline -----------------------------------------------------------------------

    async def apply(self, event):
        kind = event["kind"]
        printer = self.printer
        self.record("(timeline) " + kind, {k: v for k, v in event.items() if k != "kind"}, None)
        try:
            if kind == "print":
                printer.start_print(event["file"], event.get("seconds"))
            elif kind == "pause":
                printer.pause()
            elif kind == "resume":
                printer.resume()
            elif kind == "cancel":
                printer.cancel()
            elif kind == "error":
                printer.fail(event["message"], event["shutdown"])
            elif kind == "message":
                printer.display_message = event["text"]
            elif kind == "disconnect":
                await self.close_socket()
                self.disconnected_until = time.monotonic() + event["wall_seconds"]
        except GcodeError as problem:
            self.record("(timeline) " + kind, {}, str(problem))

    async def tick(self):
        while not self.stopping.is_set():
            events = self.timeline["events"]
            while self.next_event < len(events) and events[self.next_event]["at"] <= self.clock():
                event = events[self.next_event]
                self.next_event += 1
                self.printer.advance(until=event["at"])
                await self.apply(event)
            self.printer.advance()
            if self.disconnected_until is not None and time.monotonic() >= self.disconnected_until:
                self.disconnected_until = None
                self.restart()
                await self.listen()
            if self.ready_at is not None and time.monotonic() >= self.ready_at:
                self.ready_at = None
                self.printer.webhooks_state = "ready"
                self.printer.webhooks_message = "Printer is ready"
            self.notify()
            try:
                await asyncio.wait_for(self.stopping.wait(), TICK)
            except asyncio.TimeoutError:
                pass

    def notify(self):
        output = self.printer.output
        for connection in list(self.connections):
            changed = {}
            for name, fields in connection.subscription.items():
                current = self.status({name: fields}).get(name)
                if current is None:
                    continue
                before = connection.sent.get(name, {})
                delta = {field: value for field, value in current.items() if before.get(field) != value}
                if delta:
                    changed[name] = delta
                    connection.sent[name] = json.loads(json.dumps(current))
            if changed:
                message = dict(connection.template)
                message["params"] = {"status": changed, "eventtime": time.monotonic()}
                connection.send(message)
            for line in output[connection.output_seen:]:
                for template in connection.output_templates:
                    message = dict(template)
                    message["params"] = {"response": line}
                    connection.send(message)
            connection.output_seen = len(output)
        # Every connection has seen the output: it is dropped, so it never grows.
        del output[:]
        for connection in self.connections:
            connection.output_seen = 0

    # -- control --------------------------------------------------------------------------------

    async def control(self, reader, writer):
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length > MAX_MESSAGE:
                raise ApiError("a body over %d bytes" % MAX_MESSAGE)
            body = await reader.readexactly(length) if length else b""
            status, answer = 200, await self.control_request(method, path, body)
        except ApiError as problem:
            status, answer = 400, {"error": str(problem)}
        except (ValueError, standin_timeline.TimelineError) as problem:
            status, answer = 400, {"error": str(problem)}
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, asyncio.TimeoutError, ConnectionError):
            writer.close()
            return
        data = json.dumps(answer).encode()
        writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                     % (status, b"OK" if status == 200 else b"Bad Request", len(data)) + data)
        await writer.drain()
        writer.close()

    async def control_request(self, method, path, body):
        payload = json.loads(body.decode("utf-8")) if body.strip() else {}
        if method == "GET" and path == "/state":
            self.printer.advance()
            return {"clock": self.clock(), "speed": self.clock.speed(), "description": self.timeline["description"],
                    "events_applied": self.next_event, "events": len(self.timeline["events"]),
                    "connections": len(self.connections), "connected": self.server is not None,
                    "remote_methods": sorted(self.remote_methods),
                    "status": {name: self.printer.status(name) for name in self.printer.OBJECTS}}
        if method == "GET" and path == "/requests":
            return {"requests": list(self.log)}
        if method == "POST" and path == "/reset-log":
            self.log.clear()
            return {"ok": True}
        if method == "POST" and path == "/play":
            timeline = payload.get("timeline", {})
            timeline = standin_timeline.load(timeline) if isinstance(timeline, str) else standin_timeline.check(timeline)
            speed = float(payload.get("speed", self.clock.speed()))
            if speed <= 0:
                raise ApiError("speed must be more than 0")
            self.timeline = timeline
            self.next_event = 0
            self.clock.restart(speed)
            self.printer.reset(timeline, None)
            return {"ok": True, "events": len(timeline["events"])}
        if method == "POST" and path == "/event":
            event = standin_timeline.check_event(payload, "event", need_at=False)
            self.printer.advance()
            await self.apply(event)
            return {"ok": True}
        if method == "POST" and path == "/speed":
            speed = float(payload.get("speed", 0))
            if speed <= 0:
                raise ApiError("speed must be more than 0")
            self.printer.advance()
            self.clock.set_speed(speed)
            return {"ok": True}
        raise ApiError("no %s %s (GET /state, GET /requests, POST /reset-log, /play, /event, /speed)" % (method, path))


async def main_async(args):
    standin = StandIn(args)
    if args.klipper_path:
        for sub in ("config", "docs"):
            os.makedirs(os.path.join(args.klipper_path, sub), exist_ok=True)
    if args.config_file:
        with open(args.config_file, "w", encoding="utf-8") as config:
            config.write(standin.printer.config_text())
    await standin.listen()
    control = await asyncio.start_server(standin.control, "127.0.0.1", args.control_port, limit=MAX_MESSAGE)
    control_port = control.sockets[0].getsockname()[1]
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, standin.stopping.set)
    if args.ready_file:
        with open(args.ready_file + ".tmp", "w") as ready:
            json.dump({"socket": args.socket, "control_port": control_port, "pid": os.getpid()}, ready)
        os.replace(args.ready_file + ".tmp", args.ready_file)
    await standin.tick()
    control.close()
    await standin.close_socket()


def main():
    parser = argparse.ArgumentParser(description="Klippy's API server on a Unix socket, playing prints from a timeline.")
    parser.add_argument("--socket", required=True, help="the Unix socket to serve (Moonraker's klippy_uds_address)")
    parser.add_argument("--gcodes", required=True, help="the folder of G-code files (Moonraker's gcodes folder)")
    parser.add_argument("--timeline", help="a timeline JSON file to play from the start")
    parser.add_argument("--speed", type=float, default=1.0, help="timeline seconds per real second (default 1)")
    parser.add_argument("--config-file", help="where to write the stand-in's printer.cfg (reported by info)")
    parser.add_argument("--klipper-path", help="the folder `info` gives as Klipper's, made with config/ and docs/ "
                        "(Moonraker warns when they are missing); default: this script's folder, left as it is")
    parser.add_argument("--control-port", type=int, default=0, help="loopback port of the control interface (0: any)")
    parser.add_argument("--ready-file", help="written with the socket, control port and pid once serving")
    args = parser.parse_args()
    if args.speed <= 0:
        parser.error("--speed must be more than 0")
    if not os.path.isdir(args.gcodes):
        parser.error("--gcodes %s is not a folder" % args.gcodes)
    try:
        asyncio.run(main_async(args))
    except standin_timeline.TimelineError as problem:
        print("klippy_standin.py: %s" % problem, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
