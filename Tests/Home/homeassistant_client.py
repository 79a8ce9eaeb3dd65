"""A small client for Home Assistant's HTTP and WebSocket APIs, Python 3 standard library only.

The WebSocket side is RFC 6455 as far as Home Assistant's server needs it: the opening handshake
(section 4), masked text frames from the client, fragmented and unfragmented frames from the
server, ping answered with pong and close answered with close (section 5.5). Home Assistant's
messages are JSON objects (developers.home-assistant.io/docs/api/websocket, "Message format").
"""

import base64
import hashlib
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request

# RFC 6455 section 1.3: the GUID the server appends to Sec-WebSocket-Key before hashing.
WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
# A bound on what one message may grow to: Home Assistant's get_states for a test home is a few kB.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


class HTTPFailure(Exception):
    def __init__(self, method, url, status, body):
        super().__init__(f"{method} {url}: HTTP {status}: {body[:300]!r}")
        self.status = status
        self.body = body


def http_json(url, method="GET", body=None, form=None, token=None, timeout=10):
    """Sends a JSON body (or a form) and returns the decoded JSON answer; HTTPFailure otherwise."""
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
    except urllib.error.HTTPError as error:
        raise HTTPFailure(method, url, error.code, error.read().decode(errors="replace")) from None
    return json.loads(text) if text else None


class Closed(Exception):
    """The server closed the connection (code and reason from its close frame, when it sent one)."""

    def __init__(self, code=None, reason=""):
        super().__init__(f"closed by the server (code {code}, {reason!r})")
        self.code = code
        self.reason = reason


class WebSocket:
    """One client connection to ws://HOST:PORT/PATH."""

    def __init__(self, url, timeout=10):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "ws":
            raise ValueError(f"{url}: only ws:// is supported here")
        self.sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = self._read_until(b"\r\n\r\n").decode("latin-1")
        status_line, *header_lines = head.split("\r\n")
        if " 101 " not in status_line + " ":
            raise ConnectionError(f"{url}: no WebSocket upgrade: {status_line}")
        headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in header_lines if ":" in line)}
        expected = base64.b64encode(hashlib.sha1((key + WEBSOCKET_GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            raise ConnectionError(f"{url}: wrong Sec-WebSocket-Accept")

    def _read_until(self, marker):
        while marker not in self.buffer:
            self._fill()
            if len(self.buffer) > 65536:
                raise ConnectionError("handshake answer too long")
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise Closed(None, "connection ended")
        self.buffer += chunk

    def _read_exact(self, count):
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_json(self, message):
        self._send_frame(0x1, json.dumps(message).encode())

    def _read_frame(self):
        first, second = self._read_exact(2)
        fin, opcode = first & 0x80, first & 0x0F
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read_exact(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read_exact(8))
        if length > MAX_MESSAGE_BYTES:
            raise ConnectionError(f"a frame of {length} bytes is over the bound")
        mask = self._read_exact(4) if second & 0x80 else None
        payload = self._read_exact(length)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(fin), opcode, payload

    def receive_json(self, timeout):
        """The next message, or None when none comes within timeout seconds."""
        deadline = time.monotonic() + timeout
        message = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 and not self.buffer:
                return None
            self.sock.settimeout(max(remaining, 0.001))
            try:
                fin, opcode, payload = self._read_frame()
            except socket.timeout:
                return None
            if opcode == 0x9:  # ping
                self._send_frame(0xA, payload)
            elif opcode == 0x8:  # close
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                try:
                    self._send_frame(0x8, payload[:2])
                except OSError:
                    pass
                raise Closed(code, payload[2:].decode(errors="replace"))
            elif opcode in (0x1, 0x0):
                message += payload
                if len(message) > MAX_MESSAGE_BYTES:
                    raise ConnectionError("a message over the bound")
                if fin:
                    return json.loads(message)

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


class AuthInvalid(Exception):
    pass


class HomeAssistantSocket(WebSocket):
    """Home Assistant's WebSocket API: the auth phase, then commands with ids and their events."""

    def __init__(self, base_url, timeout=10):
        super().__init__(base_url.replace("http://", "ws://", 1).rstrip("/") + "/api/websocket", timeout)
        self.next_id = 1
        self.events = []  # (monotonic time received, message) of every event message not yet taken
        self.hello = self.receive_json(timeout)  # {"type": "auth_required", "ha_version": …}

    def auth(self, token, timeout=10):
        self.send_json({"type": "auth", "access_token": token})
        answer = self.receive_json(timeout)
        if answer is None or answer.get("type") != "auth_ok":
            raise AuthInvalid(answer)
        return answer

    def send_command(self, kind, **fields):
        ident = self.next_id
        self.next_id += 1
        self.send_json({"id": ident, "type": kind, **fields})
        return ident

    def wait_result(self, ident, timeout=10):
        """The result message for ident; event messages that come first are kept in self.events."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive_json(left)
            if message is None:
                break
            if message.get("type") == "event":
                self.events.append((time.monotonic(), message))
            elif message.get("id") == ident:
                return message
        raise TimeoutError(f"no result for command {ident} within {timeout} s")

    def command(self, kind, timeout=10, **fields):
        """Sends a command and returns its result; RuntimeError when it did not succeed."""
        answer = self.wait_result(self.send_command(kind, **fields), timeout)
        if not answer.get("success"):
            raise RuntimeError(f"{kind}: {answer.get('error')}")
        return answer.get("result")

    def next_event(self, timeout):
        """(monotonic time received, event message) or None."""
        if self.events:
            return self.events.pop(0)
        message = self.receive_json(timeout)
        while message is not None and message.get("type") != "event":
            message = self.receive_json(timeout)
        return (time.monotonic(), message) if message else None
