"""Shared by the web page's suites: the programs, a simulator serving the page, the socket, HTTP."""
import http.client, json, os, shutil, signal, socket, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("HEADWAY_BIN", os.path.join(ROOT, ".build", "debug"))


def program(name):
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is missing: build it first (swift build)")
    return path


def need(tool):
    """A program a suite needs: missing fails under CI, skips elsewhere."""
    found = shutil.which(tool)
    if found:
        return found
    if os.environ.get("CI"):
        raise RuntimeError(f"{tool} is missing (Scripts/test-web installs it)")
    import pytest
    pytest.skip(f"{tool} is not installed")


class Sim:
    """`headway-sim serve --headless` with the page, in a folder of its own."""

    def __init__(self, config=None, web="127.0.0.1:0", extra=()):
        self.dir = tempfile.mkdtemp(prefix="headway-web-")
        self.socket = os.path.join(self.dir, "s.sock")
        self.portfile = os.path.join(self.dir, "port")
        args = [program("headway-sim"), "serve", "--headless"]
        if config is not None:
            path = os.path.join(self.dir, "config.yaml")
            with open(path, "w") as f:
                f.write(config)
            args += ["--config", path]
        if web:
            args += ["--web", web, "--web-port-file", self.portfile]
        args += list(extra)
        env = dict(os.environ, HEADWAY_SOCKET=self.socket, STATE_DIRECTORY=os.path.join(self.dir, "state"))
        self.log = open(os.path.join(self.dir, "sim.log"), "w+")
        self.env = env
        self.process = self.spawn(args, env)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("headway-sim ended: " + self.output())
            if os.path.exists(self.socket) and (not web or (os.path.exists(self.portfile) and open(self.portfile).read().strip())):
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("headway-sim did not start: " + self.output())
        self.port = int(open(self.portfile).read()) if web else None

    def spawn(self, args, env):
        return subprocess.Popen(args, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def output(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def send(self, *requests):
        """Sends request lines; returns the replies."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.socket)
            s.settimeout(5)
            data = "".join(json.dumps(dict(v=1, **r)) + "\n" for r in requests).encode()
            s.sendall(data)
            replies, buffer = [], b""
            while len(replies) < len(requests):
                chunk = s.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    replies.append(json.loads(line))
            return replies

    def glass(self):
        return self.send({"op": "glass"})[0]

    def headway(self, *args, **kwargs):
        return subprocess.run([program("headway"), *args], env=self.env, capture_output=True, text=True, timeout=30, **kwargs)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def request(port, method, path, body=None, headers=None, host=None, timeout=10):
    """One HTTP request; (status, headers, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    all_headers = {"Host": host or f"127.0.0.1:{port}"}
    all_headers.update(headers or {})
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body)
        all_headers.setdefault("Content-Type", "application/json")
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), data


def session(port, secret=None):
    """A session (cookie header, CSRF token): logs in with `secret` when given."""
    if secret is None:
        status, headers, body = request(port, "GET", "/api/session")
    else:
        status, headers, body = request(port, "POST", "/api/login", {"secret": secret}, {"Origin": f"http://127.0.0.1:{port}"})
    assert status == 200, (status, body)
    cookie = headers["Set-Cookie"].split(";")[0]
    return cookie, json.loads(body)["csrf"]


def control(port, verb, job, cookie, csrf, origin=None):
    headers = {"Cookie": cookie, "X-Headway-CSRF": csrf, "Origin": origin or f"http://127.0.0.1:{port}"}
    status, _, body = request(port, "POST", f"/api/jobs/{verb}", {"job": job}, headers)
    return status, json.loads(body)


def hash_password(password):
    out = subprocess.run([program("headwayd"), "hash-password"], input=password + "\n", capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().split(": ", 1)[1].strip("'")


def wait_for(predicate, timeout=10, interval=0.05, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            value = predicate()
        except Exception as error:  # an element the page replaced meanwhile: look again
            if type(error).__name__ != "StaleElementReferenceException":
                raise
            value = None
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


def read_pbm(path):
    """A PBM (P1 or P4) as rows of 0/1."""
    data = open(path, "rb").read()
    tokens, index = [], 0
    def token():
        nonlocal index
        while True:
            while data[index:index + 1].isspace():
                index += 1
            if data[index:index + 1] == b"#":
                while data[index:index + 1] not in (b"\n", b""):
                    index += 1
                continue
            start = index
            while index < len(data) and not data[index:index + 1].isspace():
                index += 1
            return data[start:index]
    magic = token()
    width, height = int(token()), int(token())
    if magic == b"P4":
        index += 1
        row_bytes = (width + 7) // 8
        rows = []
        for y in range(height):
            row = data[index + y * row_bytes:index + (y + 1) * row_bytes]
            rows.append([(row[x // 8] >> (7 - x % 8)) & 1 for x in range(width)])
        return width, height, rows
    bits = [int(c) for c in data[index:].decode() if c in "01"]
    return width, height, [bits[y * width:(y + 1) * width] for y in range(height)]
