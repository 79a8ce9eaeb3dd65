"""The page's event stream (/api/events) read as the page reads it: the whole state first, then
numbered patches — JSON Merge Patch for descriptions and jobs, ByteDelta runs for each output's
bytes (Sources/HeadwayService/Web/PageState.swift) — applied to a state of its own, so that a test
can compare what a page would show with what the service says it shows."""
import base64, copy, json, socket


def merge(target, patch):
    """RFC 7386."""
    if not isinstance(patch, dict):
        return patch
    target = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = merge(target.get(key), value)
    return target


def apply_delta(data, delta):
    """A ByteDelta's runs written into `data` (a bytearray); raises on runs that do not fit."""
    i = at = 0

    def count():
        nonlocal i
        value = shift = 0
        while True:
            byte = delta[i]
            i += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7

    while i < len(delta):
        skip, length = count(), count()
        at += skip
        assert at + length <= len(data) and i + length <= len(delta), "a run beyond the picture"
        data[at:at + length] = delta[i:i + length]
        at += length
        i += length


class PageState:
    """What a page holds: `seq`, each output's description and bytes, jobs, history, about."""

    def __init__(self):
        self.seq = None
        self.outputs, self.jobs, self.history, self.about = [], {}, {}, {}
        self.states = self.patches = 0

    def take(self, event, data):
        value = json.loads(data)
        if event == "state":
            self.states += 1
            self.seq = value["seq"]
            self.outputs = []
            for whole in value["outputs"]:
                description = {k: v for k, v in whole.items() if k != "data"}
                data = bytearray(base64.b64decode(whole["data"])) if "data" in whole else None
                self.outputs.append((description, data))
            self.jobs, self.history, self.about = value["jobs"], value["history"], value["about"]
        elif event == "message":
            assert self.seq is not None, "a patch before the state"
            assert value["seq"] == self.seq + 1, f"patch {value['seq']} after {self.seq}"
            self.patches += 1
            self.seq = value["seq"]
            for entry in value.get("outputs", []):
                index, delta = entry[0], entry[1]
                description, data = self.outputs[index]
                if len(entry) > 2:
                    changes = dict(entry[2])
                    if "data" in changes:
                        whole = changes.pop("data")
                        data = bytearray(base64.b64decode(whole)) if whole is not None else None
                    description = merge(description, changes)
                if delta:
                    apply_delta(data, base64.b64decode(delta))
                self.outputs[index] = (description, data)
            for key in ("jobs", "history", "about"):
                if key in value:
                    setattr(self, key, merge(getattr(self, key), value[key]))

    def output(self, name):
        return next((d, b and bytes(b)) for d, b in self.outputs if d["name"] == name)

    def snapshot(self):
        """The state as the service's /api/state gives it (its `seq` aside)."""
        outputs = []
        for description, data in self.outputs:
            whole = dict(description)
            if data is not None:
                whole["data"] = base64.b64encode(bytes(data)).decode()
            outputs.append(whole)
        return {"outputs": outputs, "jobs": copy.deepcopy(self.jobs), "history": self.history, "about": self.about}


class EventStream:
    """An open /api/events: events read off the socket as they come (chunked transfer undone)."""

    def __init__(self, port, cookie=None, receive_buffer=None, source="127.0.0.1"):
        self.socket = socket.socket()
        if receive_buffer:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.socket.bind((source, 0))
        self.socket.connect(("127.0.0.1", port))
        head = f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n"
        self.socket.sendall(head.encode())
        self.raw, self.body, self.headers_done = b"", b"", False
        self.received = 0

    def close(self):
        self.socket.close()

    def _fill(self, timeout):
        self.socket.settimeout(timeout)
        chunk = self.socket.recv(65536)
        if not chunk:
            raise EOFError("the stream ended")
        self.received += len(chunk)
        self.raw += chunk
        if not self.headers_done:
            if b"\r\n\r\n" not in self.raw:
                return
            head, self.raw = self.raw.split(b"\r\n\r\n", 1)
            assert head.startswith(b"HTTP/1.1 200"), head
            self.headers_done = True
        while b"\r\n" in self.raw:
            size_line, rest = self.raw.split(b"\r\n", 1)
            size = int(size_line, 16)
            if len(rest) < size + 2:
                return
            self.body += rest[:size]
            self.raw = rest[size + 2:]

    def events(self, timeout=5):
        """The events complete so far, reading for at most `timeout` s while none is."""
        while b"\n\n" not in self.body:
            try:
                self._fill(timeout)
            except socket.timeout:
                return []
        complete, self.body = self.body.rsplit(b"\n\n", 1)
        found = []
        for block in complete.split(b"\n\n"):
            event, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
            if data:
                found.append((event, "\n".join(data)))
        return found

    def follow(self, state, until, timeout=10):
        """Applies events to `state` until `until(state)` holds."""
        import time
        deadline = time.time() + timeout
        while time.time() < deadline:
            for event, data in self.events(timeout=0.5):
                state.take(event, data)
            if state.seq is not None and until(state):
                return state
        raise AssertionError("the stream never reached the state looked for")
