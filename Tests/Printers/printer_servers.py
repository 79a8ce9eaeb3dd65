"""What the two checks share: starting the servers through serve.py, HTTP calls, and counting
checks that pass and fail."""

import json
import os
import subprocess
import sys
import time
import traceback
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


class Servers:
    """serve.py in the background; `ready` is its ready line, parsed."""

    def __init__(self, *arguments, timeout=120):
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "serve.py"), "--stop-on-eof"] + list(arguments),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started = time.monotonic()
        line = self.process.stdout.readline()
        if not line:
            self.process.wait(timeout)
            raise SystemExit("serve.py did not start the servers (status %s); its messages are above" % self.process.returncode)
        self.ready = json.loads(line)
        self.start_seconds = time.monotonic() - started

    def stop(self):
        self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.returncode


def http(method, url, body=None, headers=None, timeout=10):
    """(status, parsed JSON or text) for a request; a JSON body when `body` is a dict."""
    data = None
    headers = dict(headers or {})
    if isinstance(body, dict):
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    elif isinstance(body, bytes):
        data = body
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode("utf-8", "replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def multipart(fields, files):
    """A multipart/form-data body (RFC 7578): (body, content type)."""
    boundary = "headway-check-boundary"
    parts = []
    for name, value in fields.items():
        parts.append(('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (boundary, name, value)).encode())
    for name, (filename, content) in files.items():
        parts.append(('--%s\r\nContent-Disposition: form-data; name="%s"; filename="%s"\r\n'
                      'Content-Type: application/octet-stream\r\n\r\n' % (boundary, name, filename)).encode() + content + b"\r\n")
    parts.append(("--%s--\r\n" % boundary).encode())
    return b"".join(parts), "multipart/form-data; boundary=" + boundary


class Checks:
    """Runs named checks, each a function that raises AssertionError to fail; prints each result,
    the facts measured along the way, and a closing `N passed, N failed` line."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = []
        self.facts = []

    def run(self, title, function, *arguments):
        started = time.monotonic()
        try:
            function(*arguments)
        except AssertionError as problem:
            self.failed.append(title)
            print("FAIL %s (%.1f s): %s" % (title, time.monotonic() - started, problem), flush=True)
            return
        except Exception:
            self.failed.append(title)
            print("FAIL %s (%.1f s): an exception\n%s" % (title, time.monotonic() - started, traceback.format_exc()), flush=True)
            return
        self.passed += 1
        print("ok   %s (%.1f s)" % (title, time.monotonic() - started), flush=True)

    def fact(self, text):
        self.facts.append(text)
        print("     fact: " + text, flush=True)

    def finish(self):
        print("%s: %d passed, %d failed" % (self.name, self.passed, len(self.failed)), flush=True)
        return 1 if self.failed else 0


def expect(condition, message):
    if not condition:
        raise AssertionError(message)
