#!/usr/bin/python3
"""An HTTP relay in front of a real server (OctoPrint, Moonraker, Home Assistant) that turns
faulty on demand, for the follower's fault tests: it passes each request to the server and its
answer back, unless the mode file says otherwise. Standard library only.

    fault_relay.py --port N --upstream http://127.0.0.1:M --mode-file PATH [--log PATH]

--log appends one line per request (seconds since 1970, method, path): what the benchmark counts.

Modes (the mode file's first word, read at every request; no file: pass):
  pass       relay the request and the answer; a WebSocket upgrade becomes a tunnel of bytes both
             ways to the server (as a proxy that passes upgrades does), kept until either side
             closes, whatever the mode becomes
  huge       answer 200 with a JSON body of 9 MiB (past headway-ci's 8 MiB limit)
  malformed  answer 200 with a body that is not JSON
  garbage    answer bytes that are not HTTP, then close
  no-upgrade relay as pass, but answer a WebSocket upgrade 400 (a proxy that does not pass them)
  hang-up    close the connection without answering

Flood modes: a WebSocket upgrade is answered by the relay itself, as a Home Assistant-shaped server
gone wrong (auth_required, auth_ok and the subscription's result at once, whatever the client
says), which then sends as fast as the socket takes, reading and dropping what the client sends;
every other request is relayed as in pass:
  flood-ping    ping frames
  flood-text    text messages that are about nothing followed
  flood-change  change notifications for the subscription
  flood-large   text messages just under headway-ci's 1 MiB limit
"""
import base64
import hashlib
import threading
import argparse
import http.server
import os
import select
import socket
import socketserver
import sys
import time
import urllib.parse
import urllib.error
import urllib.request


def text_frame(payload):
    """One unmasked text frame, as a server sends (RFC 6455 §5.2)."""
    n = len(payload)
    if n < 126:
        head = bytes([0x81, n])
    elif n < 65536:
        head = bytes([0x81, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 127]) + n.to_bytes(8, "big")
    return head + payload


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--mode-file", required=True)
    parser.add_argument("--log")
    options = parser.parse_args()

    class Relay(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def mode(self):
            try:
                with open(options.mode_file) as f:
                    return (f.read().split() or ["pass"])[0]
            except FileNotFoundError:
                return "pass"

        def answer(self, status, body, kind="application/json"):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                # The follower refused the answer as it came (its size limit): what is tested.
                self.close_connection = True

        def relay(self, method):
            if options.log:
                with open(options.log, "a") as log:
                    log.write(f"{time.time():.3f} {method} {self.path}\n")
            mode = self.mode()
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if mode == "huge":
                chunk = b'{"pad":"' + b"x" * 1024 + b'"},'
                self.answer(200, b"[" + chunk * (9 * 1024) + b"{}]")
                return
            if mode == "malformed":
                self.answer(200, b'{"state": "Printing", "progress": {"completion": 4')
                return
            if mode == "garbage":
                self.wfile.write(b"\x16\x03\x01 not http at all\r\n\r\n")
                self.close_connection = True
                return
            if mode == "hang-up":
                self.close_connection = True
                return
            if self.headers.get("Upgrade", "").lower() == "websocket":
                if mode.startswith("flood-"):
                    self.flood(mode)
                elif mode == "no-upgrade":
                    self.answer(400, b"Can \"Upgrade\" only to \"WebSocket\".", "text/plain")
                else:
                    self.tunnel()
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "accept-encoding", "content-length")}
            request = urllib.request.Request(options.upstream + self.path, data=body, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=20) as reply:
                    self.answer(reply.status, reply.read(), reply.headers.get("Content-Type", "application/json"))
            except urllib.error.HTTPError as error:
                self.answer(error.code, error.read(), error.headers.get("Content-Type", "application/json"))
            except (urllib.error.URLError, OSError) as error:
                self.answer(502, str(error).encode(), "text/plain")

        def tunnel(self):
            """The upgrade request to the server as it came, then bytes both ways until one closes."""
            target = urllib.parse.urlsplit(options.upstream)
            try:
                upstream = socket.create_connection((target.hostname, target.port or 80), timeout=10)
            except OSError as error:
                self.answer(502, str(error).encode(), "text/plain")
                return
            head = "%s %s HTTP/1.1\r\n" % (self.command, self.path)
            head += "".join("%s: %s\r\n" % (k, v) for k, v in self.headers.items()) + "\r\n"
            upstream.sendall(head.encode("latin-1"))
            self.close_connection = True
            ends = [self.connection, upstream]
            try:
                while True:
                    readable, _, _ = select.select(ends, [], [], 60)
                    for end in readable:
                        data = end.recv(65536)
                        if not data:
                            return
                        (upstream if end is self.connection else self.connection).sendall(data)
            except OSError:
                return
            finally:
                upstream.close()

        def flood(self, mode):
            """The upgrade accepted (RFC 6455 §4.2.2), the subscription granted, then `mode`'s frames
            until the client goes."""
            key = self.headers.get("Sec-WebSocket-Key", "")
            accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
            self.close_connection = True
            self.wfile.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
            opening = [b'{"type":"auth_required","ha_version":"2025.1.0"}', b'{"type":"auth_ok","ha_version":"2025.1.0"}',
                       b'{"id":1,"type":"result","success":true,"result":null}']
            if mode == "flood-ping":
                frame = b"\x89\x00"
            elif mode == "flood-text":
                frame = text_frame(b'{"id":7,"type":"event","event":{"a":{"light.elsewhere":{"s":"on"}}}}')
            elif mode == "flood-change":
                frame = text_frame(b'{"id":1,"type":"event","event":{"c":{"sensor.printer_progress":{"+":{"lc":1}}}}}')
            else:
                frame = text_frame(b'{"id":7,"type":"event","pad":"' + b"x" * ((1 << 20) - 64) + b'"}')
            chunk = b"".join(text_frame(m) for m in opening)
            burst = frame * max(1, (256 << 10) // len(frame))
            connection = self.connection

            def drain():
                try:
                    while connection.recv(65536):
                        pass
                except OSError:
                    pass
            threading.Thread(target=drain, daemon=True).start()
            try:
                connection.sendall(chunk)
                while True:
                    connection.sendall(burst)
            except OSError:
                return

        def do_GET(self):
            self.relay("GET")

        def do_POST(self):
            self.relay("POST")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", options.port), Relay)
    print("ready", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
