#!/usr/bin/env python3
"""A local HTTP(S) server that answers as GitHub Actions, GitLab CI, Jenkins and CCTray feeds do,
from a scenario: a timeline of runs relative to t=0, rendered at the server's clock, with faults
placed on paths for windows of time. Python 3 standard library only.

    server.py [--port 0] [--cert FILE --key FILE] [--scenario FILE] [--clock real|manual]
              [--speed F] [--ready-file PATH] [--log FILE]

Control endpoints (never part of an API) live under /_control/; README.md describes them and the
scenario format."""

import argparse
import json
import os
import signal
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Request, Response, http_date, iso_seconds, json_response  # noqa: E402
from scenario import ScenarioError, World, load_file  # noqa: E402

HUGE_DEFAULT = 50 * 1024 * 1024
CHUNK = 64 * 1024


class Clock:
    """Scenario time in seconds since t=0. `manual` moves only when told to; `real` follows the
    monotonic clock, `speed` times faster."""

    def __init__(self, mode, speed):
        self.mode = mode
        self.speed = speed
        self.lock = threading.Lock()
        self.restart()

    def restart(self):
        with self.lock:
            self.origin = time.monotonic()
            self.offset = 0.0

    def now(self):
        with self.lock:
            if self.mode == "manual":
                return self.offset
            return (time.monotonic() - self.origin) * self.speed

    def advance(self, seconds=None, to=None):
        with self.lock:
            self.offset = float(to) if to is not None else self.offset + float(seconds)
            return self.offset


class State:
    def __init__(self, clock, world, log_path):
        self.clock = clock
        self.world = world
        self.lock = threading.Lock()
        self.requests = []
        self.log_file = open(log_path, "a", encoding="utf-8") if log_path else None

    def record(self, entry):
        with self.lock:
            self.requests.append(entry)
            if self.log_file:
                self.log_file.write(json.dumps(entry) + "\n")
                self.log_file.flush()


def request_summary(headers):
    """The request headers a polite client's behaviour shows in; credentials only as present and scheme."""
    summary = {name: headers.get(name) for name in ("If-None-Match", "If-Modified-Since", "User-Agent", "Accept")
               if headers.get(name) is not None}
    authorization = headers.get("Authorization")
    summary["Authorization"] = {"present": authorization is not None,
                                "scheme": authorization.strip().split(" ", 1)[0] if authorization else None}
    summary["PRIVATE-TOKEN"] = {"present": headers.get("PRIVATE-TOKEN") is not None}
    return summary


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ci-fixture"
    sys_version = ""

    def log_message(self, format, *args):
        pass

    def version_string(self):
        return self.server_version

    def date_time_string(self, timestamp=None):
        # The Date header tells the scenario's wall time, which x-ratelimit-reset and the bodies use.
        state = self.server.state
        return http_date(state.world.epoch + state.clock.now())

    def do_GET(self):
        self.serve()

    def do_HEAD(self):
        self.serve(head=True)

    def do_POST(self):
        self.serve()

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def base_url(self):
        scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
        return "%s://%s" % (scheme, self.headers.get("Host") or "127.0.0.1:%d" % self.server.server_port)

    # ---- one request ----------------------------------------------------------------------------

    def serve(self, head=False):
        state = self.server.state
        body = self.read_body()
        if self.path.startswith("/_control/"):
            return self.send(self.control(self.path.split("?", 1)[0], body), head)
        now = state.clock.now()
        world = state.world
        request = Request(self.command, self.path, self.headers, now, world.epoch, self.base_url(), self.client_address[0])
        key, api = world.api_for(request.path)
        with state.lock:
            fault = world.fault_for(self.path, now)
        kind = fault["kind"] if fault else None
        response = None
        if kind in ("unauthorized", "rate_limit", "secondary_rate_limit") and api is not None:
            response = api.fault(request, kind, fault)
        if response is None:
            response = self.fault_response(request, fault) if fault else None
        if response is None:
            response = api.handle(request) if api else Response(404, b"Not Found\n", content_type="text/plain; charset=utf-8")
        entry = {"t": round(now, 3), "method": self.command, "path": self.path, "api": key, "fault": kind,
                 "request_headers": request_summary(self.headers), "status": response.status,
                 "response_headers": response.headers}
        if fault and kind == "delay":
            time.sleep(float(fault.get("seconds", 5)))
        try:
            self.send(response, head, fault)
        finally:
            state.record(entry)

    def fault_response(self, request, fault):
        """Faults that replace the response; delay, trickle and close_mid_body change how the real
        one is sent instead (see send)."""
        kind = fault["kind"]
        if kind == "status":
            status = int(fault.get("status", 503))
            response = Response(status, fault.get("body", "%d error\n" % status).encode(), content_type="text/plain; charset=utf-8")
            if "retry_after" in fault:
                response.add("Retry-After", fault["retry_after"])
            return response
        if kind == "malformed_json":
            return Response(200, b'{"total_count": 3, "workflow_runs": [{"id": 1, "status": "in_prog')
        if kind == "huge":
            response = Response(200, b"")
            response.huge = int(fault.get("bytes", HUGE_DEFAULT))
            return response
        if kind == "redirect_loop":
            return Response(302, b"", content_type=None, headers=[("Location", request.base_url + request.raw_path)])
        if kind == "redirect":
            location = fault.get("location", "/")
            if location.startswith("/"):
                location = request.base_url + location
            return Response(int(fault.get("status", 302)), b"", content_type=None, headers=[("Location", location)])
        if kind == "html" or kind in ("unauthorized", "rate_limit", "secondary_rate_limit"):
            status = int(fault.get("status", 200 if kind == "html" else {"unauthorized": 401}.get(kind, 429)))
            page = "<!DOCTYPE html>\n<html><head><title>%d</title></head><body><h1>Something went wrong</h1></body></html>\n" % status
            return Response(status, page.encode(), content_type="text/html; charset=utf-8")
        return None

    def send(self, response, head=False, fault=None):
        huge = getattr(response, "huge", None)
        length = huge if huge is not None else len(response.body)
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        if response.status != 304:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        if head or response.status == 304:
            return
        kind = fault["kind"] if fault else None
        if huge is not None:
            self.stream_huge(huge)
        elif kind == "trickle":
            piece = int(fault.get("chunk", 16))
            for start in range(0, len(response.body), piece):
                self.wfile.write(response.body[start:start + piece])
                self.wfile.flush()
                time.sleep(float(fault.get("interval", 0.5)))
        elif kind == "close_mid_body":
            self.wfile.write(response.body[:max(1, len(response.body) // 2)])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        else:
            self.wfile.write(response.body)

    def stream_huge(self, size):
        """A valid JSON object of exactly `size` bytes, written piece by piece, never held whole."""
        head, tail = b'{"padding": "', b'"}\n'
        self.wfile.write(head)
        left = size - len(head) - len(tail)
        filler = b"x" * CHUNK
        while left > 0:
            piece = filler[:min(CHUNK, left)]
            self.wfile.write(piece)
            left -= len(piece)
        self.wfile.write(tail)

    # ---- control --------------------------------------------------------------------------------

    def control(self, path, body):
        state = self.server.state
        try:
            payload = json.loads(body) if body.strip() else {}
        except json.JSONDecodeError as problem:
            return json_response(400, {"error": "the body is not JSON: %s" % problem})
        if path == "/_control/time" and self.command == "GET":
            return json_response(200, self.time_body())
        if path == "/_control/advance" and self.command == "POST":
            if state.clock.mode != "manual":
                return json_response(409, {"error": "the clock is real; start the server with --clock manual to move it"})
            if not isinstance(payload.get("seconds", payload.get("to")), (int, float)):
                return json_response(400, {"error": 'send {"seconds": N} to move the clock N seconds, or {"to": T}'})
            state.clock.advance(payload.get("seconds"), payload.get("to"))
            return json_response(200, self.time_body())
        if path == "/_control/requests" and self.command == "GET":
            with state.lock:
                return json_response(200, {"requests": list(state.requests)})
        if path == "/_control/reset-log" and self.command == "POST":
            with state.lock:
                state.requests.clear()
            return json_response(200, {"requests": 0})
        if path == "/_control/scenario" and self.command == "POST":
            try:
                scenario = load_file(payload["file"]) if "file" in payload else payload
                state.world = World(scenario, payload.get("file", "posted scenario"))
            except (ScenarioError, OSError) as problem:
                return json_response(400, {"error": str(problem)})
            state.clock.restart()
            return json_response(200, dict(self.time_body(), scenario=state.world.name))
        return json_response(404, {"error": "no control endpoint %s %s" % (self.command, path)})

    def time_body(self):
        state = self.server.state
        now = state.clock.now()
        return {"clock": state.clock.mode, "now": now, "speed": state.clock.speed,
                "epoch": iso_seconds(state.world.epoch), "wall": iso_seconds(state.world.epoch + now),
                "scenario": state.world.name}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, state, tls):
        super().__init__(address, Handler)
        self.state = state
        self.tls = tls

    def finish_request(self, request, client_address):
        # The TLS handshake runs in the connection's own thread, so a slow client blocks nobody.
        if self.tls is not None:
            try:
                request = self.tls.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return
        try:
            super().finish_request(request, client_address)
        except (ConnectionError, ssl.SSLError, OSError):
            pass


def main():
    parser = argparse.ArgumentParser(description="Serve CI servers' REST APIs from a scenario timeline.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 picks a free one")
    parser.add_argument("--cert", help="PEM certificate chain; with --key the server speaks HTTPS")
    parser.add_argument("--key", help="PEM private key for --cert")
    parser.add_argument("--scenario", help="scenario JSON file (without it the world is empty)")
    parser.add_argument("--clock", choices=["real", "manual"], default="real")
    parser.add_argument("--speed", type=float, default=1.0, help="real clock only: scenario seconds per second")
    parser.add_argument("--ready-file", help="write the port here once listening")
    parser.add_argument("--log", help="append one JSON line per request served")
    arguments = parser.parse_args()
    if bool(arguments.cert) != bool(arguments.key):
        parser.error("--cert and --key go together")
    try:
        scenario = load_file(arguments.scenario) if arguments.scenario else {}
        world = World(scenario, arguments.scenario or "empty")
    except (ScenarioError, OSError) as problem:
        print("ciserver: %s" % problem, file=sys.stderr)
        return 2
    tls = None
    if arguments.cert:
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(arguments.cert, arguments.key)
    state = State(Clock(arguments.clock, arguments.speed), world, arguments.log)
    server = Server(("127.0.0.1", arguments.port), state, tls)
    port = server.server_address[1]
    if arguments.ready_file:
        temporary = arguments.ready_file + ".tmp"
        with open(temporary, "w") as handle:
            handle.write("%d\n" % port)
        os.replace(temporary, arguments.ready_file)
    print("ciserver: listening on %s://127.0.0.1:%d" % ("https" if tls else "http", port), file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
