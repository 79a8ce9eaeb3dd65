"""The page as an attacker would try it: no session, a stale one, another origin, a forged Host, a
login flood, huge headers and bodies, slow clients, hundreds of viewers. Each is refused or
bounded, and the service keeps drawing throughout."""
import json, os, socket, threading, time
import pytest
from webtest import ROOT, Sim, control, hash_password, request, session, wait_for

PASSWORD = "correct horse battery"
TOKEN = "t0ken-for-scripts-0123456789abcdef"


@pytest.fixture(scope="module")
def sim():
    folder = os.path.join(ROOT, ".build-web", "security")
    os.makedirs(folder, exist_ok=True)
    token_file = os.path.join(folder, "token")
    with open(token_file, "w") as f:
        f.write(TOKEN + "\n")
    rig = open(os.path.join(ROOT, "Boards", "simulator.yaml")).read()
    config = rig + f"""
web:
  listen: 127.0.0.1:8080
  password-hash: '{hash_password(PASSWORD)}'
  token-file: {token_file}
  viewers: 8
"""
    s = Sim(config)
    yield s
    s.stop()


def drawing(sim, job="drawn"):
    """Whether the outputs still draw: an update reaches the glass within a second."""
    sim.send({"op": "begin", "job": job, "total": 100})
    value = (time.time() * 1000) % 90 + 1
    sim.send({"op": "update", "job": job, "value": value})
    def reached():
        for output in sim.glass()["outputs"]:
            for entry in output["jobs"]:
                if entry["job"] == job and abs(entry["value"] - value) < 1e-6:
                    return True
        return False
    wait_for(reached, timeout=5, what="a frame with the update")
    return True


def test_nothing_without_a_session(sim):
    for path in ("/api/events", "/api/state", "/metrics"):
        status, _, _ = request(sim.port, "GET", path)
        assert status == 401, path
    status, _, body = request(sim.port, "POST", "/api/jobs/cancel", {"job": "x"}, {"Origin": sim.base})
    assert status == 403
    status, _, body = request(sim.port, "GET", "/api/session")
    assert json.loads(body) == {"ok": True, "login": True, "session": False}
    # The page's shell is served: it asks for the password.
    status, headers, body = request(sim.port, "GET", "/")
    assert status == 200 and b"Password or token" in body
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_stale_and_forged_sessions(sim):
    forged = "headway_session=" + "ab" * 32
    assert request(sim.port, "GET", "/api/state", headers={"Cookie": forged})[0] == 401
    cookie, csrf = session(sim.port, PASSWORD)
    assert request(sim.port, "GET", "/api/state", headers={"Cookie": cookie})[0] == 200
    status, _, _ = request(sim.port, "POST", "/api/logout", {}, {"Cookie": cookie, "X-Headway-CSRF": csrf, "Origin": sim.base})
    assert status == 200
    assert request(sim.port, "GET", "/api/state", headers={"Cookie": cookie})[0] == 401
    assert control(sim.port, "cancel", "x", cookie, csrf)[0] == 403


def test_controls_only_from_the_page(sim):
    sim.send({"op": "begin", "job": "victim", "total": 10})
    cookie, csrf = session(sim.port, PASSWORD)
    assert control(sim.port, "cancel", "victim", cookie, csrf, origin="http://evil.example")[0] == 403
    assert control(sim.port, "cancel", "victim", cookie, "0" * 64)[0] == 403
    headers = {"Cookie": cookie, "Origin": sim.base}
    assert request(sim.port, "POST", "/api/jobs/cancel", {"job": "victim"}, headers)[0] == 403  # no CSRF token
    headers = {"Cookie": cookie, "X-Headway-CSRF": csrf, "Sec-Fetch-Site": "cross-site"}
    assert request(sim.port, "POST", "/api/jobs/cancel", {"job": "victim"}, headers)[0] == 403
    phases = {j["job"]: j["phase"] for j in sim.send({"op": "status"})[0]["jobs"]}
    assert phases["victim"] in ("pending", "active")
    # From the page itself it is taken.
    status, reply = control(sim.port, "cancel", "victim", cookie, csrf)
    assert status == 200 and reply["ok"], reply


def test_forged_host_is_refused(sim):
    for host in ("evil.example", f"evil.example:{sim.port}", "localhost.evil.example", "127.0.0.1.evil.example"):
        status, _, _ = request(sim.port, "GET", "/api/session", host=host)
        assert status in (400, 421), host
    status, _, _ = request(sim.port, "POST", "/api/login", {"secret": PASSWORD}, {"Origin": "http://evil.example"}, host="evil.example")
    assert status == 421


def login_from(address, port, secret):
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    connection.request("POST", "/api/login", body=json.dumps({"secret": secret}),
                       headers={"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, response.getheader("Retry-After")


def test_login_flood_is_limited(sim):
    results = [login_from("127.0.0.5", sim.port, f"guess{i}") for i in range(8)]
    assert [s for s, _ in results[:5]] == [403] * 5
    assert all(s == 429 for s, _ in results[5:]) and int(results[5][1]) > 0
    # Locked out even with the right password, from that address; another address is not.
    assert login_from("127.0.0.5", sim.port, PASSWORD)[0] == 429
    assert login_from("127.0.0.6", sim.port, PASSWORD)[0] == 200
    # The token is a password too, and a bearer for scripts.
    assert login_from("127.0.0.7", sim.port, TOKEN)[0] == 200
    assert request(sim.port, "GET", "/api/state", headers={"Authorization": "Bearer " + TOKEN})[0] == 200
    assert request(sim.port, "GET", "/api/state", headers={"Authorization": "Bearer " + TOKEN[:-1] + "x"})[0] == 401
    assert drawing(sim)


def test_guesses_sent_side_by_side_meet_the_limit_together(sim):
    # 24 wrong logins at once from one address: no more than the limit (5) are checked.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=24) as pool:
        statuses = [s for s, _ in pool.map(lambda i: login_from("127.0.0.8", sim.port, f"guess{i}"), range(24))]
    assert statuses.count(403) <= 5 and statuses.count(403) + statuses.count(429) == 24, statuses
    assert login_from("127.0.0.9", sim.port, PASSWORD)[0] == 200


def raw(port, data, source="127.0.0.1", read=True):
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    try:
        s.sendall(data)
        if not read:
            return s
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            out += chunk
        return out
    finally:
        if read:
            s.close()


def test_huge_headers_and_bodies(sim):
    host = f"Host: 127.0.0.1:{sim.port}\r\n".encode()
    answer = raw(sim.port, b"GET /api/session HTTP/1.1\r\n" + host + b"X-Long: " + b"a" * 100_000 + b"\r\nConnection: close\r\n\r\n")
    assert answer.split(b" ")[1] in (b"413", b"431"), answer[:80]
    answer = raw(sim.port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
    assert answer.split(b" ")[1] in (b"414", b"413", b"431"), answer[:80]
    many = b"".join(b"X-%d: 1\r\n" % i for i in range(5000))
    answer = raw(sim.port, b"GET /api/session HTTP/1.1\r\n" + host + many + b"Connection: close\r\n\r\n")
    assert answer.split(b" ")[1] in (b"413", b"431"), answer[:80]
    status, _, _ = request(sim.port, "POST", "/api/login", b"{\"secret\":\"" + b"x" * 1_000_000 + b"\"}", {"Content-Type": "application/json"})
    assert status == 413
    assert drawing(sim)


def test_slow_clients_are_bounded(sim):
    # Slowloris: connections that send a header a byte at a time, from one address.
    slow = []
    for _ in range(40):
        try:
            slow.append(raw(sim.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", source="127.0.0.9", read=False))
        except OSError:
            break
    time.sleep(0.5)
    closed = 0
    for s in slow:
        try:
            s.settimeout(0.2)
            if s.recv(1) == b"":
                closed += 1
        except socket.timeout:
            pass
        except OSError:
            closed += 1
    assert closed >= 40 - 24, f"only {closed} of 40 slow connections from one address were refused (the limit is 24)"
    # Meanwhile the page answers others, and the outputs draw.
    assert request(sim.port, "GET", "/api/session")[0] == 200
    assert drawing(sim)
    for s in slow:
        s.close()


def test_hundreds_of_viewers(sim):
    cookie, _ = session(sim.port, PASSWORD)
    streams, refused = [], 0
    for i in range(300):
        source = f"127.0.1.{1 + i % 200}"
        try:
            s = raw(sim.port, f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{sim.port}\r\nCookie: {cookie}\r\n\r\n".encode(), source=source, read=False)
            streams.append(s)
        except OSError:
            refused += 1
    time.sleep(1)
    live, full = 0, 0
    for s in streams:
        s.settimeout(0.5)
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"event: full" in data or b"event: jobs" in data:
                    break
        except (socket.timeout, OSError):
            pass
        if b"event: full" in data:
            full += 1
        elif b"event: jobs" in data:
            live += 1
    assert live <= 8, f"{live} streams live; the limit is 8"
    assert live >= 1
    assert drawing(sim)
    for s in streams:
        s.close()
    # Once they are gone, a new viewer gets in.
    time.sleep(1)
    def viewer():
        s = raw(sim.port, f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{sim.port}\r\nCookie: {cookie}\r\n\r\n".encode(), read=False)
        s.settimeout(3)
        data = b""
        try:
            while b"event: jobs" not in data and b"event: full" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            s.close()
        return b"event: jobs" in data
    wait_for(viewer, timeout=15, interval=1, what="a viewer let in after the flood")


def test_metrics_need_access(sim):
    assert request(sim.port, "GET", "/metrics")[0] == 401
    status, headers, body = request(sim.port, "GET", "/metrics", headers={"Authorization": "Bearer " + TOKEN})
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    assert b"headway_jobs{phase=\"active\"}" in body
