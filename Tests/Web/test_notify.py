"""Notifications to local receivers: a webhook's JSON and an ntfy-style topic, each event sent once,
a receiver that fails first tried again with back-off, one that hangs never holding up a frame."""
import json, os, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import pytest
from webtest import ROOT, Sim, wait_for


class Receiver:
    """A local HTTP receiver: fails the first `failures` posts to /hook with 500, hangs on /hang."""

    def __init__(self, failures=1):
        self.posts = []
        self.failures = failures
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.posts.append((self.path, dict(self.headers), body, time.monotonic()))
                if self.path == "/hang":
                    time.sleep(30)
                failing = self.path == "/hook" and receiver.failures > 0
                if failing:
                    receiver.failures -= 1
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def to(self, path):
        return [(h, json.loads(b) if h.get("Content-Type") == "application/json" else b.decode(), t) for p, h, b, t in self.posts if p == path]


@pytest.fixture(scope="module")
def setup():
    receiver = Receiver()
    rig = open(os.path.join(ROOT, "Boards", "simulator.yaml")).read()
    config = rig + f"""
timings:
  stall-after: 2
notify:
  - jobs: "backup-*"
    on: [succeeded, failed, stalled]
    webhook: http://127.0.0.1:{receiver.port}/hook
  - jobs: "*"
    on: [failed]
    ntfy: http://127.0.0.1:{receiver.port}/topic
  - jobs: "slow"
    webhook: http://127.0.0.1:{receiver.port}/hang
"""
    sim = Sim(config, web=None)
    yield sim, receiver
    sim.stop()
    receiver.server.shutdown()


def test_failure_to_webhook_and_ntfy_once_each_retried(setup):
    sim, receiver = setup
    sim.headway("--job", "nightly", "begin", "--name", "backup-nightly", "--label", "Nightly <backup>")
    time.sleep(0.5)
    sim.headway("--job", "nightly", "fail")
    hooks = wait_for(lambda: len(receiver.to("/hook")) >= 2 and receiver.to("/hook"), timeout=15, what="the webhook, again after its 500")
    first, second = hooks[0], hooks[1]
    assert first[1] == second[1], "the retry carries the same notification"
    assert 0.8 <= second[2] - first[2] <= 5, "a back-off of about a second"
    body = second[1]
    assert body["event"] == "failed" and body["job"] == "nightly" and body["name"] == "backup-nightly" and body["label"] == "Nightly <backup>"
    topic = wait_for(lambda: receiver.to("/topic"), what="the ntfy topic")
    headers, text, _ = topic[0]
    assert text == "Nightly <backup> failed"
    assert headers["Title"].endswith(": failed") and headers["Priority"] == "high"
    # Looked at every second while the job lingers: still told once.
    time.sleep(3)
    assert len(receiver.to("/hook")) == 2 and len(receiver.to("/topic")) == 1


def test_stall_and_success(setup):
    sim, receiver = setup
    before = len(receiver.to("/hook"))
    sim.headway("--job", "weekly", "begin", "--name", "backup-weekly", "--total", "10")
    sim.headway("--job", "weekly", "set", "4")
    stalled = wait_for(lambda: [b for _, b, _ in receiver.to("/hook")[before:] if b["event"] == "stalled"], timeout=15, what="the stall")
    assert stalled[0]["job"] == "weekly" and stalled[0]["percent"] == 40
    sim.headway("--job", "weekly", "done")
    wait_for(lambda: [b for _, b, _ in receiver.to("/hook")[before:] if b["event"] == "succeeded"], timeout=10, what="the success")
    # A job whose name no rule for the hook covers is not sent there.
    sim.headway("--job", "other", "begin", "--name", "deploy")
    sim.headway("--job", "other", "done")
    time.sleep(2.5)
    assert not [b for _, b, _ in receiver.to("/hook") if b["job"] == "other"]


def test_a_hanging_receiver_never_holds_up_the_display(setup):
    sim, receiver = setup
    sim.send({"op": "begin", "job": "slow", "total": 100, "name": "slow"}, {"op": "finish", "job": "slow", "outcome": "succeeded"})
    wait_for(lambda: receiver.to("/hang"), what="the hanging receiver asked")
    # While it hangs, updates keep reaching the glass.
    sim.send({"op": "begin", "job": "live", "total": 100})
    for value in (10, 20, 30):
        sim.send({"op": "update", "job": "live", "value": value})
        def reached():
            return any(e["job"] == "live" and e["value"] == value for o in sim.glass()["outputs"] for e in o["jobs"])
        wait_for(reached, timeout=5, what=f"value {value} on the glass")
