"""A small WebSocket client (RFC 6455) on the standard library, for the checks of the printer
servers: OctoPrint's SockJS socket and Moonraker's JSON-RPC socket both speak it.

Client frames are masked (RFC 6455 §5.3), the handshake's Sec-WebSocket-Accept is checked
(§4.2.2: base64 of SHA-1 of the key and the protocol's GUID), pings are answered (§5.5.2),
fragmented messages are joined (§5.4), and a message larger than `max_message` is refused, so a
broken server cannot grow the client without bound.
"""

import base64
import hashlib
import os
import socket
import struct
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 §1.3


class WebSocketError(Exception):
    pass


class WebSocket:
    def __init__(self, host, port, path, headers=None, timeout=10.0, max_message=16 * 1024 * 1024):
        self.max_message = max_message
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = ["GET %s HTTP/1.1" % path, "Host: %s:%d" % (host, port), "Upgrade: websocket",
                 "Connection: Upgrade", "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"]
        lines += ["%s: %s" % item for item in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = self._read_until(b"\r\n\r\n", 64 * 1024)
        status, _, rest = head.decode("latin-1").partition("\r\n")
        if " 101 " not in status + " ":
            raise WebSocketError("%s:%d%s answered %r instead of 101 Switching Protocols" % (host, port, path, status))
        fields = {}
        for line in rest.split("\r\n"):
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        expected = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if fields.get("sec-websocket-accept") != expected:
            raise WebSocketError("Sec-WebSocket-Accept %r is not %r" % (fields.get("sec-websocket-accept"), expected))

    def _read_until(self, marker, limit):
        while marker not in self.buffer:
            if len(self.buffer) > limit:
                raise WebSocketError("no %r within %d bytes" % (marker, limit))
            self._fill()
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise WebSocketError("the server closed the connection")
        self.buffer += data

    def _read(self, count):
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
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def receive(self, timeout=None):
        """The next text message, or None when `timeout` seconds pass without one."""
        deadline = None if timeout is None else time.monotonic() + timeout
        message = b""
        while True:
            if deadline is None:
                self.sock.settimeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0 and len(self.buffer) < 2:
                    return None
                self.sock.settimeout(max(left, 0.001))
            try:
                first, second = self._read(2)
            except socket.timeout:
                return None
            self.sock.settimeout(10.0)  # the rest of a frame that has begun
            final, opcode = first & 0x80, first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            if second & 0x80:
                raise WebSocketError("the server masked a frame (RFC 6455 §5.1 forbids it)")
            if len(message) + length > self.max_message:
                raise WebSocketError("a message over %d bytes" % self.max_message)
            payload = self._read(length)
            if opcode == 0x8:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None
                raise WebSocketError("the server closed the socket (code %s, %r)" % (code, payload[2:].decode("utf-8", "replace")))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if final:
                return message.decode("utf-8")

    def close(self):
        try:
            self._send_frame(0x8, struct.pack(">H", 1000))
        except OSError:
            pass
        self.sock.close()
