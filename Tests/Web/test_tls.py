"""The page served with a certificate (web.tls, docs/web.md): over HTTPS and nothing else, a
malformed request still ends its connection, and a key that does not match its certificate
stops the start with a line that says so. Certificates made here by openssl, for 127.0.0.1."""
import http.client, json, os, socket, ssl, subprocess, tempfile

import pytest

from webtest import ROOT, Sim, need

FOLDER = tempfile.mkdtemp(prefix="headway-tls-")


def pair(name):
    cert, key = os.path.join(FOLDER, name + "-cert.pem"), os.path.join(FOLDER, name + "-key.pem")
    subprocess.run([need("openssl"), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert], check=True, capture_output=True)
    return cert, key


def config(cert, key):
    rig = open(os.path.join(ROOT, "Boards", "simulator.yaml")).read()
    return rig + f"\nweb:\n  listen: 127.0.0.1:8080\n  tls:\n    certificate: {cert}\n    key: {key}\n"


@pytest.fixture(scope="module")
def served():
    cert, key = pair("page")
    sim = Sim(config(cert, key))
    yield sim, ssl.create_default_context(cafile=cert)
    sim.stop()


def test_the_page_and_its_session_come_over_https(served):
    sim, context = served
    connection = http.client.HTTPSConnection("127.0.0.1", sim.port, timeout=10, context=context)
    connection.request("GET", "/")
    page = connection.getresponse()
    assert page.status == 200 and b"<html" in page.read().lower()
    connection.request("GET", "/api/session")
    session = connection.getresponse()
    assert session.status == 200 and "csrf" in json.loads(session.read()) and session.getheader("Set-Cookie")
    connection.close()


def test_plain_http_gets_no_answer(served):
    sim, _ = served
    with socket.create_connection(("127.0.0.1", sim.port), timeout=5) as plain:
        plain.sendall(f"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:{sim.port}\r\n\r\n".encode())
        answer = b""
        try:
            while chunk := plain.recv(65536):
                answer += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    assert b"HTTP/1." not in answer, answer[:80]


def test_a_malformed_request_ends_its_connection_over_tls(served):
    sim, context = served
    host = f"Host: 127.0.0.1:{sim.port}\r\n".encode()
    smuggled = b"POST /api/jobs/cancel HTTP/1.1\r\n" + host + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"
    with context.wrap_socket(socket.create_connection(("127.0.0.1", sim.port), timeout=10), server_hostname="127.0.0.1") as tls:
        tls.sendall(smuggled + b"GET /api/session HTTP/1.1\r\n" + host + b"\r\n")
        answer = b""
        try:
            while chunk := tls.recv(65536):
                answer += chunk
        except (ConnectionResetError, socket.timeout, ssl.SSLError):
            pass
    assert answer.startswith(b"HTTP/1.1 400 ") and answer.count(b"HTTP/1.") == 1, answer[:200]


def test_a_key_of_another_certificate_stops_the_start():
    cert, _ = pair("one")
    _, other_key = pair("other")
    with pytest.raises(RuntimeError) as failure:
        Sim(config(cert, other_key)).stop()
    assert "check that tls.key is the private key of tls.certificate" in str(failure.value), str(failure.value)
