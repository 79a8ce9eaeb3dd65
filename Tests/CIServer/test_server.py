#!/usr/bin/env python3
"""Tests of the CI server fixture: the real server on a test certificate authority made with the
openssl CLI, requested with the real curl and with urllib. Standard library only:

    python3 Tests/CIServer/test_server.py [-v] [TestCase.test_name]
"""

import base64
import email.utils
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import xml.etree.ElementTree as ElementTree
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "scenarios")
FOLDER = None  # the test CA, the server certificate and the servers' files


def setUpModule():
    global FOLDER
    FOLDER = tempfile.mkdtemp(prefix="ciserver-tests-")
    path = lambda name: os.path.join(FOLDER, name)  # noqa: E731
    # The extensions Python 3.13's strict verification (VERIFY_X509_STRICT) asks of a CA and a leaf.
    with open(path("san.cnf"), "w") as handle:
        handle.write("subjectAltName = IP:127.0.0.1, DNS:localhost\nbasicConstraints = critical, CA:FALSE\n"
                     "keyUsage = critical, digitalSignature, keyEncipherment\nextendedKeyUsage = serverAuth\n"
                     "subjectKeyIdentifier = hash\nauthorityKeyIdentifier = keyid, issuer\n")
    for arguments in (
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Headway test CA",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
         "-keyout", path("ca.key"), "-out", path("ca.crt")],
        ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("server.key"), "-out", path("server.csr")],
        ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"), "-CAcreateserial",
         "-days", "2", "-extfile", path("san.cnf"), "-out", path("server.crt")],
    ):
        subprocess.run(["openssl"] + arguments, check=True, capture_output=True)


def tearDownModule():
    shutil.rmtree(FOLDER, ignore_errors=True)


class Server:
    """server.py in its own process, on a free port, until stop()."""

    def __init__(self, scenario=None, clock="manual", speed=None, tls=True):
        self.tls = tls
        self.folder = tempfile.mkdtemp(dir=FOLDER)
        self.ready = os.path.join(self.folder, "port")
        self.log = os.path.join(self.folder, "requests.jsonl")
        command = [sys.executable, os.path.join(HERE, "server.py"), "--port", "0", "--clock", clock,
                   "--ready-file", self.ready, "--log", self.log]
        if scenario:
            command += ["--scenario", scenario if os.path.isabs(scenario) else os.path.join(SCENARIOS, scenario)]
        if speed:
            command += ["--speed", str(speed)]
        if tls:
            command += ["--cert", os.path.join(FOLDER, "server.crt"), "--key", os.path.join(FOLDER, "server.key")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.ready):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start: %s" % self.process.stderr.read())
            time.sleep(0.02)
        with open(self.ready) as handle:
            self.port = int(handle.read())
        self.base = "%s://127.0.0.1:%d" % ("https" if tls else "http", self.port)
        self.context = ssl.create_default_context(cafile=os.path.join(FOLDER, "ca.crt")) if tls else None

    def stop(self):
        if self.process.returncode is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stderr.close()

    # ---- urllib ----------------------------------------------------------------------------------

    def fetch(self, path, headers=None, method="GET", data=None, timeout=20):
        """(status, headers, body bytes), errors included."""
        headers = dict({"User-Agent": "ciserver-tests"}, **(headers or {}))
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def json(self, path, headers=None):
        status, headers_, body = self.fetch(path, headers)
        return status, headers_, json.loads(body) if body else None

    def control(self, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        status, _, answer = self.fetch("/_control/" + path, method="POST" if data is not None else "GET", data=data)
        return status, json.loads(answer)

    def at(self, seconds):
        status, answer = self.control("advance", {"to": seconds})
        assert status == 200, answer
        return answer

    def load(self, scenario):
        if isinstance(scenario, str):
            scenario = {"file": os.path.join(SCENARIOS, scenario)}
        status, answer = self.control("scenario", scenario)
        assert status == 200, answer

    # ---- curl ------------------------------------------------------------------------------------

    def curl(self, path, *arguments, timeout=60):
        """Runs the real curl; returns (exit status, status code, headers text, body bytes)."""
        headers = os.path.join(self.folder, "curl-headers")
        body = os.path.join(self.folder, "curl-body")
        command = ["curl", "-sS", "-A", "ciserver-tests", "-D", headers, "-o", body, "-w", "%{http_code}"]
        if self.tls:
            command += ["--cacert", os.path.join(FOLDER, "ca.crt")]
        result = subprocess.run(command + list(arguments) + [self.base + path], capture_output=True, timeout=timeout)
        with open(headers, "rb") as handle:
            head = handle.read().decode("latin-1")
        content = b""
        if os.path.exists(body):  # curl writes no file when no body came
            with open(body, "rb") as handle:
                content = handle.read()
            os.remove(body)
        code = int(result.stdout.decode() or 0)
        return result.returncode, code, head, content


class ServerTest(unittest.TestCase):
    scenario = "github-many.json"
    tls = True

    def setUp(self):
        self.server = Server(self.scenario, tls=self.tls)
        self.addCleanup(self.server.stop)

    def header(self, head, name):
        """The last value of a header in curl's -D output (after redirects, the last response's)."""
        values = re.findall(r"(?im)^%s:\s*(.*?)\r?$" % re.escape(name), head)
        return values[-1] if values else None


READER = {"Authorization": "Bearer ghp_reader"}


def run(server, number, **headers):
    status, _, body = server.json("/repos/acme/widgets/actions/runs/%d" % number, dict(READER, **headers))
    return status, body


def jobs(server, number, suffix="", headers=READER):
    status, _, body = server.json("/repos/acme/widgets/actions/runs/%d%s" % (number, suffix), headers)
    assert status == 200, body
    return body["jobs"]


def step_states(job):
    return [(step["status"], step["conclusion"]) for step in job["steps"]]


class GitHubJourneyTests(ServerTest):
    """The main journey: one run of 12 steps over 10 minutes, played on the manual clock."""

    scenario = "github-journey.json"

    def test_a_run_of_twelve_steps_is_queued_runs_and_succeeds(self):
        server = self.server
        headers = {"Authorization": "token ghp_journey"}
        status, _, listing = server.json("/repos/acme/widgets/actions/runs", headers)
        self.assertEqual((status, listing["total_count"], listing["workflow_runs"]), (200, 0, []))
        self.assertEqual(server.json("/repos/acme/widgets/actions/runs/9001", headers)[0], 404)

        server.at(5)
        status, _, body = server.json("/repos/acme/widgets/actions/runs/9001", headers)
        self.assertEqual((body["status"], body["conclusion"], body["run_attempt"]), ("queued", None, 1))
        self.assertEqual(body["created_at"], "2026-03-02T09:00:05Z")
        (job,) = jobs(server, 9001, "/jobs", headers)
        self.assertEqual((job["status"], job["steps"], job["runner_name"]), ("queued", [], None))

        server.at(20)
        self.assertEqual(run(server, 9001, Authorization="Bearer ghp_journey")[1]["status"], "in_progress")
        (job,) = jobs(server, 9001, "/jobs", headers)
        self.assertEqual(job["started_at"], "2026-03-02T09:00:20Z")
        self.assertEqual(step_states(job), [("in_progress", None)] + [("queued", None)] * 11)

        server.at(300)  # steps 1-5 took 120 s; step 6 (Build, 180 s) runs 140..320
        (job,) = jobs(server, 9001, "/jobs", headers)
        self.assertEqual(step_states(job), [("completed", "success")] * 5 + [("in_progress", None)] + [("queued", None)] * 6)
        self.assertEqual(job["steps"][5]["started_at"], "2026-03-02T09:02:20Z")
        self.assertIsNone(job["steps"][6]["started_at"])

        server.at(619)
        self.assertEqual(run(server, 9001, Authorization="Bearer ghp_journey")[1]["status"], "in_progress")
        server.at(620)
        body = run(server, 9001, Authorization="Bearer ghp_journey")[1]
        self.assertEqual((body["status"], body["conclusion"], body["updated_at"]), ("completed", "success", "2026-03-02T09:10:20Z"))
        (job,) = jobs(server, 9001, "/jobs", headers)
        self.assertEqual(step_states(job), [("completed", "success")] * 12)
        self.assertEqual([step["number"] for step in job["steps"]], list(range(1, 13)))
        self.assertEqual(job["completed_at"], "2026-03-02T09:10:20Z")

        # The same journey through curl: the list, by workflow file name.
        exit_status, code, head, content = server.curl("/repos/acme/widgets/actions/workflows/ci.yml/runs",
                                                       "-H", "Authorization: Bearer ghp_journey")
        self.assertEqual((exit_status, code), (0, 200))
        self.assertEqual([(r["id"], r["conclusion"]) for r in json.loads(content)["workflow_runs"]], [(9001, "success")])

    def test_the_real_clock_runs_at_the_given_speed(self):
        self.server.stop()
        self.server = Server("github-journey.json", clock="real", speed=100)
        self.addCleanup(self.server.stop)
        time.sleep(0.4)  # at least 40 scenario seconds
        answer = self.server.control("time")[1]
        self.assertGreaterEqual(answer["now"], 40)
        self.assertEqual(run(self.server, 9001, Authorization="Bearer ghp_journey")[1]["status"], "in_progress")
        status, answer = self.server.control("advance", {"seconds": 5})
        self.assertEqual(status, 409)
        self.assertIn("--clock manual", answer["error"])


class GitHubTimelineTests(ServerTest):
    def test_a_failure_at_step_seven_of_twelve_skips_the_rest(self):
        self.server.at(650)
        body = run(self.server, 9002)[1]
        self.assertEqual((body["status"], body["conclusion"]), ("completed", "failure"))
        (job,) = jobs(self.server, 9002, "/jobs")
        self.assertEqual(step_states(job), [("completed", "success")] * 6 + [("completed", "failure")] + [("completed", "skipped")] * 5)
        self.assertEqual(job["completed_at"], job["steps"][6]["completed_at"])

    def test_a_cancelled_run_and_a_re_run(self):
        server = self.server
        server.at(650)
        body = run(server, 9003)[1]
        self.assertEqual((body["status"], body["conclusion"]), ("completed", "cancelled"))
        (job,) = jobs(server, 9003, "/jobs")
        self.assertEqual(step_states(job), [("completed", "success")] * 2 + [("completed", "cancelled")] + [("completed", "skipped")] * 2)

        first = run(server, 9004)[1]
        self.assertEqual((first["run_attempt"], first["conclusion"], first["previous_attempt_url"]), (1, "failure", None))
        server.at(705)
        again = run(server, 9004)[1]
        self.assertEqual((again["run_attempt"], again["status"], again["conclusion"]), (2, "queued", None))
        self.assertEqual(again["created_at"], first["created_at"])
        self.assertEqual(again["run_started_at"], "2026-03-02T09:11:40Z")
        self.assertTrue(again["previous_attempt_url"].endswith("/actions/runs/9004/attempts/1"))
        self.assertEqual([job["run_attempt"] for job in jobs(server, 9004, "/jobs")], [2])
        self.assertEqual([job["run_attempt"] for job in jobs(server, 9004, "/jobs?filter=all")], [1, 2])
        self.assertEqual([job["conclusion"] for job in jobs(server, 9004, "/attempts/1/jobs")], ["failure"])
        status, _, old = server.json("/repos/acme/widgets/actions/runs/9004/attempts/1", READER)
        self.assertEqual((status, old["run_attempt"], old["conclusion"]), (200, 1, "failure"))
        self.assertEqual(server.json("/repos/acme/widgets/actions/runs/9004/attempts/3", READER)[0], 404)
        server.at(900)
        self.assertEqual(run(server, 9004)[1]["conclusion"], "success")

    def test_queued_runs_and_filters(self):
        server = self.server
        server.at(100000)
        self.assertEqual(run(server, 9005)[1]["status"], "queued")  # its runner never comes
        self.assertEqual(jobs(server, 9005, "/jobs")[0]["steps"], [])
        server.at(899)
        self.assertEqual(run(server, 9006)[1]["status"], "queued")
        server.at(900)
        self.assertEqual(run(server, 9006)[1]["status"], "in_progress")

        def ids(query):
            status, _, body = server.json("/repos/acme/widgets/actions/runs" + query, READER)
            self.assertEqual(status, 200, body)
            return [entry["id"] for entry in body["workflow_runs"]]

        server.at(650)
        self.assertEqual(run(server, 9007)[1]["status"], "waiting")  # for an approval until t=1500
        self.assertEqual(ids("?status=queued"), [9006, 9005])
        self.assertEqual(ids("?status=failure"), [9004, 9002, 8991])
        self.assertEqual(ids("?status=in_progress"), [])
        self.assertEqual(ids("?branch=release/1.0"), [9006])
        self.assertEqual(ids("?event=pull_request"), [9007, 9002])
        self.assertEqual(ids("?created=2026-03-01"), [8993, 8992, 8991, 8990])
        self.assertEqual(ids("?created=%3E%3D2026-03-02T09:05:00Z"), [9007, 9006, 9005])
        self.assertEqual(ids("?created=2026-03-01T00:00:00Z..2026-03-02T09:00:10Z"), [9001, 8993, 8992, 8991, 8990])
        self.assertEqual(ids("?per_page=3&page=2"), [9004, 9003, 9002])
        status, _, body = server.json("/repos/acme/widgets/actions/workflows/nightly.yml/runs", READER)
        self.assertEqual([entry["id"] for entry in body["workflow_runs"]], [9004])
        self.assertEqual(server.json("/repos/acme/widgets/actions/workflows/missing.yml/runs", READER)[0], 404)

    def test_pagination_links_lead_through_every_page(self):
        server = self.server
        server.at(650)
        seen, path, pages = [], "/repos/acme/widgets/actions/runs?per_page=4", 0
        while path:
            exit_status, code, head, content = server.curl(path, "-H", "Authorization: Bearer ghp_reader")
            self.assertEqual((exit_status, code), (0, 200))
            seen += [entry["id"] for entry in json.loads(content)["workflow_runs"]]
            links = dict((rel, url) for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', self.header(head, "Link") or ""))
            if pages == 0:
                self.assertEqual(set(links), {"next", "last"})
            path = links["next"][len(server.base):] if "next" in links else None
            pages += 1
        self.assertEqual(pages, 3)
        self.assertEqual(len(seen), 11)
        self.assertEqual(len(set(seen)), 11)
        exit_status, code, head, _ = server.curl("/repos/acme/widgets/actions/runs?per_page=100", "-H", "Authorization: Bearer ghp_reader")
        self.assertIsNone(self.header(head, "Link"))


class GitHubAccessTests(ServerTest):
    def test_a_304_on_a_matching_etag_is_not_charged_to_the_token(self):
        server = self.server
        server.at(300)
        path = "/repos/acme/widgets/actions/runs/9001"
        status, headers, _ = server.fetch(path, READER)
        etag, used = headers["ETag"], int(headers["x-ratelimit-used"])
        self.assertRegex(etag, r'^"[0-9a-f]{40}"$')
        for _ in range(3):
            status, again, body = server.fetch(path, dict(READER, **{"If-None-Match": etag}))
            self.assertEqual((status, body), (304, b""))
            self.assertEqual(int(again["x-ratelimit-used"]), used)
            self.assertEqual(again["ETag"], etag)
        exit_status, code, head, _ = server.curl(path, "-H", "Authorization: Bearer ghp_reader", "-H", "If-Modified-Since: " + headers["Last-Modified"])
        self.assertEqual(code, 304)
        core = server.json("/rate_limit", READER)[2]["resources"]["core"]
        self.assertEqual((core["used"], core["remaining"]), (used, 5000 - used))
        # The run changes: the old ETag no longer matches and the answer is charged.
        server.at(320)
        status, changed, _ = server.fetch(path, dict(READER, **{"If-None-Match": etag}))
        self.assertEqual(status, 200)
        self.assertNotEqual(changed["ETag"], etag)
        self.assertEqual(int(changed["x-ratelimit-used"]), used + 1)

    def test_the_rate_limit_is_spent_and_resets(self):
        server = self.server
        server.at(10)
        spent = {"Authorization": "Bearer ghp_nearly_spent"}
        remaining = [server.fetch("/repos/acme/widgets/actions/runs", spent)[1]["x-ratelimit-remaining"] for _ in range(2)]
        self.assertEqual(remaining, ["1", "0"])
        status, headers, body = server.json("/repos/acme/widgets/actions/runs", spent)
        self.assertEqual((status, headers["x-ratelimit-remaining"]), (403, "0"))
        self.assertIn("rate limit exceeded", body["message"])
        self.assertIn("documentation_url", body)
        reset = int(headers["x-ratelimit-reset"])
        self.assertEqual(reset - date_of(headers), 3600)
        server.at(10 + 3600)
        status, headers, _ = server.fetch("/repos/acme/widgets/actions/runs", spent)
        self.assertEqual((status, headers["x-ratelimit-used"], headers["x-ratelimit-remaining"]), (200, "1", "4999"))

        # Unauthenticated clients have their own, smaller budget; 429 when the scenario says so.
        with open(os.path.join(SCENARIOS, "github-many.json")) as handle:
            scenario = json.load(handle)
        scenario["github"]["rate_limit"] = {"unauthenticated": 2, "exceeded_status": 429}
        server.load(scenario)
        statuses = [server.fetch("/repos/acme/widgets/actions/runs")[0] for _ in range(3)]
        self.assertEqual(statuses, [200, 200, 429])
        self.assertEqual(server.fetch("/repos/acme/widgets/actions/runs", READER)[0], 200)

    def test_tokens_private_repositories_and_the_log(self):
        server = self.server
        server.at(100)
        bad = server.json("/repos/acme/widgets/actions/runs", {"Authorization": "Bearer ghp_unknown"})
        self.assertEqual((bad[0], bad[2]["message"]), (401, "Bad credentials"))
        self.assertEqual(server.json("/repos/acme/widgets/actions/runs", {"Authorization": "token ghp_expired"})[0], 401)
        firmware = "/repos/acme/firmware/actions/runs"
        self.assertEqual(server.json(firmware)[0], 404)
        self.assertEqual(server.json(firmware, {"Authorization": "Bearer ghp_widgets_only"})[0], 404)
        self.assertEqual(server.json(firmware, {"Authorization": "token ghp_reader"})[2]["total_count"], 1)
        self.assertEqual(server.json("/repos/acme/nothing/actions/runs", READER)[0], 404)
        self.assertEqual(server.json("/repos/ACME/Widgets/actions/runs/9001", READER)[0], 200)
        status, _, body = server.fetch("/repos/acme/widgets/actions/runs", {"User-Agent": ""})
        self.assertEqual(status, 403)

        requests = server.control("requests")[1]["requests"]
        entry = next(entry for entry in requests if entry["path"] == firmware and entry["status"] == 200)
        self.assertEqual(entry["request_headers"]["Authorization"], {"present": True, "scheme": "token"})
        self.assertEqual(entry["request_headers"]["User-Agent"], "ciserver-tests")
        self.assertIn(["x-ratelimit-resource", "core"], entry["response_headers"])
        with open(server.log) as handle:
            lines = [json.loads(line) for line in handle]
        self.assertEqual(len(lines), len(requests))
        with open(server.log) as handle:
            text = json.dumps(requests) + handle.read()
        for secret in ("ghp_reader", "ghp_unknown", "ghp_expired", "ghp_widgets_only"):
            self.assertNotIn(secret, text)
        self.assertEqual(server.control("reset-log", {})[0], 200)
        self.assertEqual(server.control("requests")[1]["requests"], [])

    def test_the_enterprise_server_prefix(self):
        server = self.server
        server.at(300)
        status, headers, body = server.json("/api/v3/repos/acme/widgets/actions/runs/9001", READER)
        self.assertEqual((status, body["status"]), (200, "in_progress"))
        self.assertTrue(body["url"].startswith(server.base + "/api/v3/repos/acme/widgets/"))
        self.assertTrue(body["html_url"].startswith(server.base + "/acme/widgets/"))
        self.assertIsNone(headers["x-ratelimit-limit"])  # rate limits are off on an enterprise server by default
        dotcom = run(server, 9001)[1]
        self.assertEqual(body["jobs_url"].replace("/api/v3", ""), dotcom["jobs_url"])
        self.assertEqual(server.json("/api/v3/repos/acme/widgets/actions/runs/9001/jobs", READER)[2]["total_count"], 1)
        exit_status, code, head, content = server.curl("/api/v3/repos/acme/widgets/actions/workflows", "-H", "Authorization: token ghp_reader")
        self.assertEqual((code, json.loads(content)["total_count"]), (200, 4))


class GitLabTests(ServerTest):
    scenario = "gitlab.json"
    TOKEN = {"PRIVATE-TOKEN": "glpat-reader"}

    def pipeline(self, number):
        status, _, body = self.server.json("/api/v4/projects/acme%%2Fwidgets/pipelines/%d" % number, self.TOKEN)
        self.assertEqual(status, 200, body)
        return body

    def jobs(self, number):
        status, _, body = self.server.json("/api/v4/projects/7/pipelines/%d/jobs" % number, {"Authorization": "Bearer glpat-reader"})
        self.assertEqual(status, 200, body)
        return {job["name"]: job for job in body}

    def test_a_pipeline_of_three_stages_on_the_timeline(self):
        server = self.server
        expected = [  # t, pipeline, compile, unit, lint, publish
            (0, "pending", "pending", "created", "created", "created"),
            (15, "running", "running", "created", "created", "created"),
            (135, "pending", "success", "pending", "pending", "created"),
            (140, "running", "success", "running", "running", "created"),
            (200, "running", "success", "running", "success", "created"),
            (340, "waiting_for_resource", "success", "success", "success", "waiting_for_resource"),
            (361, "pending", "success", "success", "success", "pending"),
            (400, "running", "success", "success", "success", "running"),
            (455, "success", "success", "success", "success", "success"),
        ]
        for t, state, *job_states in expected:
            server.at(t)
            body = self.pipeline(201)
            found = self.jobs(201)
            self.assertEqual([state] + job_states, [body["status"]] + [found[name]["status"] for name in ("compile", "unit", "lint", "publish")], t)
        self.assertEqual((body["started_at"], body["finished_at"]), ("2026-03-02T09:00:15.000Z", "2026-03-02T09:07:35.000Z"))
        self.assertEqual((body["duration"], body["queued_duration"]), (410, 15))
        self.assertEqual(found["publish"]["queued_duration"], 25.0)
        self.assertEqual([job["id"] for job in self.server.json("/api/v4/projects/7/pipelines/201/jobs", self.TOKEN)[2]], [20104, 20103, 20102, 20101])
        server.at(100)
        running = self.jobs(201)["compile"]
        self.assertEqual((running["duration"], running["finished_at"], running["queued_duration"]), (85.0, None, 15.0))
        self.assertIsNone(self.pipeline(201)["duration"])

    def test_failure_cancel_manual_and_the_list(self):
        server = self.server
        server.at(400)
        self.assertEqual(self.pipeline(202)["status"], "failed")
        found = self.jobs(202)
        self.assertEqual((found["unit"]["status"], found["unit"]["failure_reason"]), ("failed", "script_failure"))
        self.assertEqual((found["lint"]["status"], found["lint"]["allow_failure"]), ("failed", True))
        self.assertEqual((found["publish"]["status"], found["publish"]["started_at"]), ("skipped", None))
        canceled = self.pipeline(203)
        self.assertEqual((canceled["status"], canceled["finished_at"]), ("canceled", "2026-03-02T09:03:20.000Z"))
        self.assertEqual({job["status"] for job in self.jobs(203).values()}, {"canceled"})
        self.assertEqual(self.jobs(204)["production"]["status"], "manual")

        status, headers, body = server.json("/api/v4/projects/7/pipelines?per_page=2&page=2", self.TOKEN)
        self.assertEqual([p["id"] for p in body], [202, 201])
        self.assertEqual([headers[name] for name in ("x-total", "x-total-pages", "x-page", "x-per-page", "x-next-page", "x-prev-page")],
                         ["5", "3", "2", "2", "3", "1"])
        self.assertIn('rel="first"', headers["Link"])
        self.assertEqual(server.json("/api/v4/projects/7/pipelines?per_page=2&page=3", self.TOKEN)[1]["x-next-page"], "")

        def ids(query):
            return [p["id"] for p in server.json("/api/v4/projects/7/pipelines" + query, self.TOKEN)[2]]

        self.assertEqual(ids("?status=running"), [201])
        self.assertEqual(ids("?scope=finished&sort=asc"), [190, 202, 203, 204])
        self.assertEqual(ids("?ref=main&updated_after=2026-03-02T09:01:00Z"), [203, 201])
        self.assertEqual(ids("?order_by=updated_at&sort=asc"), [190, 204, 203, 202, 201])
        self.assertEqual(server.json("/api/v4/projects/7/pipelines/latest?ref=main", self.TOKEN)[2]["id"], 203)

    def test_tokens_etags_and_the_rate_limit(self):
        server = self.server
        server.at(50)
        self.assertEqual(server.json("/api/v4/projects/7/pipelines")[2], {"message": "404 Project Not Found"})
        self.assertEqual(server.json("/api/v4/projects/7/pipelines", {"PRIVATE-TOKEN": "glpat-expired"})[0:3:2], (401, {"message": "401 Unauthorized"}))
        self.assertEqual(server.json("/api/v4/projects/acme/widgets/pipelines", self.TOKEN)[0], 404)  # the path must be URL-encoded
        self.assertEqual(server.json("/api/v4/projects/8/pipelines")[0], 200)  # a public project
        self.assertEqual(server.json("/api/v4/projects/7/pipelines/999", self.TOKEN)[2], {"message": "404 Not found"})

        exit_status, code, head, _ = server.curl("/api/v4/projects/7/pipelines/201", "-H", "PRIVATE-TOKEN: glpat-reader")
        etag = self.header(head, "ETag")
        self.assertTrue(etag.startswith('W/"'))
        self.assertEqual(server.curl("/api/v4/projects/7/pipelines/201", "-H", "PRIVATE-TOKEN: glpat-reader", "-H", "If-None-Match: " + etag)[1], 304)
        server.at(140)  # the test stage starts: the pipeline changes
        self.assertEqual(server.curl("/api/v4/projects/7/pipelines/201", "-H", "PRIVATE-TOKEN: glpat-reader", "-H", "If-None-Match: " + etag)[1], 200)

        with open(os.path.join(SCENARIOS, "gitlab.json")) as handle:
            scenario = json.load(handle)
        scenario["gitlab"]["rate_limit"] = {"authenticated": 3, "period": 60}
        server.load(scenario)
        answers = [server.fetch("/api/v4/projects/7/pipelines", self.TOKEN) for _ in range(4)]
        self.assertEqual([status for status, _, _ in answers], [200, 200, 200, 429])
        self.assertEqual([headers["RateLimit-Remaining"] for _, headers, _ in answers[:3]], ["2", "1", "0"])
        status, headers, body = answers[3]
        self.assertEqual((body, headers["Retry-After"], headers["RateLimit-Name"]), (b"Retry later\n", "60", "throttle_authenticated_api"))
        self.assertTrue(headers["Content-Type"].startswith("text/plain"))
        self.assertRegex(headers["RateLimit-ResetTime"], r"^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$")
        server.at(61)
        self.assertEqual(server.fetch("/api/v4/projects/7/pipelines", self.TOKEN)[0], 200)


class JenkinsTests(ServerTest):
    scenario = "jenkins.json"
    AUTH = {"Authorization": "Basic " + base64.b64encode(b"alice:11a1b2c3d4e5f60718293a4b5c6d7e8f90").decode()}

    def test_builds_with_tree_and_estimated_duration(self):
        server = self.server
        server.at(300)
        tree = "builds[number,building,result,timestamp,duration,estimatedDuration,displayName,url]{0,3},lastBuild[number],lastCompletedBuild[number,result],lastSuccessfulBuild[number]"
        exit_status, code, head, content = server.curl("/job/widgets/api/json?tree=" + urllib.request.quote(tree, safe="=,"),
                                                       "-u", "alice:11a1b2c3d4e5f60718293a4b5c6d7e8f90")
        self.assertEqual(code, 200)
        self.assertEqual(self.header(head, "X-Jenkins"), "2.479.3")
        body = json.loads(content)
        self.assertEqual(set(body), {"_class", "builds", "lastBuild", "lastCompletedBuild", "lastSuccessfulBuild"})
        self.assertEqual([b["number"] for b in body["builds"]], [6, 5, 4])
        current = body["builds"][0]
        self.assertEqual((current["building"], current["result"], current["duration"]), (True, None, 0))
        self.assertEqual(current["estimatedDuration"], 603333)  # mean of #5 (UNSTABLE 620 s), #4 (610 s), #3 (580 s)
        self.assertEqual(current["timestamp"], int((datetime.fromisoformat("2026-03-02T09:00:10+00:00")).timestamp() * 1000))
        self.assertEqual((body["lastCompletedBuild"]["result"], body["lastSuccessfulBuild"]["number"]), ("UNSTABLE", 5))
        server.at(630)
        status, _, done = server.json("/job/widgets/6/api/json", self.AUTH)
        self.assertEqual((done["building"], done["result"], done["duration"]), (False, "SUCCESS", 620000))
        self.assertEqual(server.json("/job/widgets/lastBuild/api/json?tree=estimatedDuration", self.AUTH)[2]["estimatedDuration"], 616667)
        shallow = server.json("/job/widgets/api/json", self.AUTH)[2]
        self.assertEqual(set(shallow["builds"][0]), {"_class", "number", "url"})
        self.assertEqual(server.json("/job/widgets/api/json?tree=builds[number]{2}", self.AUTH)[2]["builds"], [{"_class": "hudson.model.FreeStyleBuild", "number": 4}])

    def test_folders_queue_and_authentication(self):
        server = self.server
        server.at(730)
        status, _, job = server.json("/job/team/job/firmware/api/json", self.AUTH)
        self.assertEqual((job["inQueue"], job["queueItem"]["why"], job["color"], job["fullName"]), (True, "Waiting for next available executor", "aborted", "team/firmware"))
        self.assertEqual(job["lastBuild"]["number"], 12)
        server.at(800)
        status, _, job = server.json("/job/team/job/firmware/api/json?tree=inQueue,color,builds[number,building]", self.AUTH)
        self.assertEqual((job["inQueue"], job["color"], job["builds"][0]), (False, "aborted_anime", {"_class": "org.jenkinsci.plugins.workflow.job.WorkflowRun", "number": 13, "building": True}))
        folder = server.json("/job/team/api/json", self.AUTH)[2]
        self.assertEqual([child["name"] for child in folder["jobs"]], ["firmware"])
        root = server.json("/api/json?tree=jobs[name]", self.AUTH)[2]
        self.assertEqual([child["name"] for child in root["jobs"]], ["team", "widgets"])

        self.assertEqual(server.fetch("/job/widgets/api/json")[0], 403)
        exit_status, code, head, content = server.curl("/job/widgets/api/json", "-u", "alice:wrong")
        self.assertEqual((code, b"Invalid password/token for user: alice" in content), (401, True))
        self.assertEqual(server.curl("/job/widgets/api/json", "-u", "bob:11old")[1], 401)
        self.assertEqual(server.fetch("/job/missing/api/json", self.AUTH)[0], 404)
        server.at(2000)  # #13 FAILURE 540 s, #12 ABORTED, #11 SUCCESS 480 s: the estimate skips the aborted build
        self.assertEqual(server.json("/job/team/job/firmware/api/json?tree=lastBuild[result,estimatedDuration]", self.AUTH)[2]["lastBuild"],
                         {"_class": "org.jenkinsci.plugins.workflow.job.WorkflowRun", "result": "FAILURE", "estimatedDuration": 510000})
        self.assertEqual(server.fetch("/job/widgets/api/json?tree=builds[number", self.AUTH)[0], 400)


class CCTrayTests(ServerTest):
    scenario = "cctray.json"

    def projects(self, path="/cc.xml"):
        status, headers, body = self.server.fetch(path)
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("application/xml"))
        root = ElementTree.fromstring(body)
        self.assertEqual(root.tag, "Projects")
        return {element.get("name"): element.attrib for element in root.findall("Project")}

    def test_activities_and_statuses_over_time(self):
        server = self.server
        server.at(20)
        found = self.projects("/go/cctray.xml")
        self.assertEqual({name: (p["activity"], p["lastBuildStatus"]) for name, p in found.items()},
                         {"widgets": ("Building", "Success"), "firmware": ("Sleeping", "Failure"), "docs": ("Sleeping", "Exception"),
                          "never-built": ("Sleeping", "Unknown"), "poller": ("CheckingModifications", "Success")})
        self.assertEqual((found["widgets"]["lastBuildLabel"], found["widgets"]["lastBuildTime"]), ("12", "2026-03-02T08:00:00Z"))
        self.assertNotIn("lastBuildLabel", found["never-built"])
        server.at(700)
        found = self.projects()
        self.assertEqual((found["widgets"]["activity"], found["widgets"]["lastBuildLabel"], found["poller"]["activity"]), ("Sleeping", "13", "Sleeping"))
        self.assertEqual(self.server.fetch("/cc.xml.bak")[0], 404)

    def test_a_feed_with_credentials_answers_401_with_a_challenge(self):
        with open(os.path.join(SCENARIOS, "cctray.json")) as handle:
            scenario = json.load(handle)
        scenario["cctray"]["basic_auth"] = {"user": "ci", "password": "secret"}
        self.server.load(scenario)
        status, headers, _ = self.server.fetch("/cc.xml")
        self.assertEqual((status, headers["WWW-Authenticate"]), (401, 'Basic realm="cctray"'))
        exit_status, code, _, content = self.server.curl("/cc.xml", "-u", "ci:secret")
        self.assertEqual(code, 200)
        self.assertIn(b"<Projects>", content)


class FaultTests(ServerTest):
    scenario = "faults.json"
    RUNS = "/repos/acme/widgets/actions/runs"

    def test_error_statuses_redirects_and_foreign_content(self):
        server = self.server
        server.at(30)
        for name, code in (("500", 500), ("502", 502), ("503-retry", 503)):
            status, headers, _ = server.fetch(self.RUNS + "?fault=" + name)
            self.assertEqual(status, code)
        self.assertEqual(server.fetch(self.RUNS + "?fault=503-retry")[1]["Retry-After"], "30")
        self.assertIsNone(server.fetch(self.RUNS + "?fault=502")[1]["Retry-After"])

        status, headers, body = server.fetch(self.RUNS + "?fault=malformed")
        self.assertEqual((status, headers["Content-Type"].split(";")[0]), (200, "application/json"))
        with self.assertRaises(json.JSONDecodeError):
            json.loads(body)

        exit_status, code, head, _ = server.curl(self.RUNS + "?fault=loop", "-L", "--max-redirs", "5")
        self.assertEqual((exit_status, code), (47, 302))  # curl: "Maximum (5) redirects followed"
        exit_status, code, head, _ = server.curl(self.RUNS + "?fault=elsewhere")
        self.assertEqual((code, self.header(head, "Location")), (301, server.base + "/moved/here"))

        status, headers, body = server.fetch(self.RUNS + "?fault=html")
        self.assertEqual((status, headers["Content-Type"].split(";")[0]), (502, "text/html"))
        self.assertTrue(body.startswith(b"<!DOCTYPE html>"))

    def test_credential_and_rate_limit_faults_in_the_apis_own_shape(self):
        server = self.server
        server.at(30)
        status, _, body = server.json(self.RUNS + "?fault=expired", {"Authorization": "Bearer ghp_journey"})
        self.assertEqual((status, body["message"]), (401, "Bad credentials"))
        self.assertEqual(server.fetch("/cc.xml?fault=expired")[1]["WWW-Authenticate"], 'Basic realm="cctray"')
        status, headers, body = server.json(self.RUNS + "?fault=rate")
        self.assertEqual((status, headers["x-ratelimit-remaining"]), (403, "0"))
        self.assertEqual(int(headers["x-ratelimit-reset"]) - date_of(headers), 120)
        status, headers, body = server.json(self.RUNS + "?fault=secondary")
        self.assertEqual((status, headers["retry-after"]), (403, "60"))
        self.assertIn("secondary rate limit", body["message"])

    def test_slow_trickled_cut_and_huge_bodies(self):
        server = self.server
        server.at(30)
        started = time.monotonic()
        self.assertEqual(server.fetch(self.RUNS + "/9001?fault=slow")[0], 200)
        self.assertGreaterEqual(time.monotonic() - started, 3)
        exit_status, code, _, _ = server.curl(self.RUNS + "/9001?fault=slow", "--max-time", "1")
        self.assertEqual(exit_status, 28)  # curl: operation timed out

        started = time.monotonic()
        status, _, body = server.fetch("/cc.xml?fault=trickle")  # about 1 KB in 64-byte pieces every 0.05 s
        self.assertEqual(status, 200)
        self.assertGreaterEqual(time.monotonic() - started, 0.05 * (len(body) // 64))
        ElementTree.fromstring(body)

        exit_status, code, head, content = server.curl(self.RUNS + "/9001?fault=cut")
        self.assertEqual(exit_status, 18)  # curl: transfer closed with outstanding read data remaining
        self.assertLess(len(content), int(self.header(head, "Content-Length")))

        before = peak_rss_kib(server.process.pid)
        exit_status, code, head, content = server.curl(self.RUNS + "?fault=huge")
        self.assertEqual((exit_status, code, len(content)), (0, 200, 50 * 1024 * 1024))
        self.assertEqual(json.loads(content)["padding"][:3], "xxx")
        self.assertLess(peak_rss_kib(server.process.pid) - before, 20 * 1024)  # streamed, not built: the peak grew far less than 50 MiB
        exit_status, code, _, _ = server.curl(self.RUNS + "?fault=huge", "--max-filesize", "1000000")
        self.assertEqual(exit_status, 63)  # curl refuses a body over its limit, as a careful client does

    def test_windows_and_counts(self):
        server = self.server
        path = self.RUNS + "/9001"
        for t, expected in ((199, 200), (200, 503), (259, 503), (260, 200)):
            server.at(t)
            self.assertEqual(server.fetch(path)[0], expected, t)
        statuses = [server.fetch(self.RUNS + "/9002")[0] for _ in range(3)]
        self.assertEqual(statuses, [500, 500, 200])
        faults = [entry["fault"] for entry in server.control("requests")[1]["requests"]]
        self.assertEqual(faults, [None, "status", "status", None, "status", "status", None])


def date_of(headers):
    return int(email.utils.parsedate_to_datetime(headers["Date"]).timestamp())


def peak_rss_kib(pid):
    with open("/proc/%d/status" % pid) as handle:
        return int(re.search(r"VmHWM:\s+(\d+)", handle.read()).group(1))


class ControlTests(ServerTest):
    scenario = None
    tls = False

    def test_plain_http_scenarios_posted_and_broken_ones_refused(self):
        server = self.server
        self.assertTrue(server.base.startswith("http://"))
        self.assertEqual(server.fetch("/repos/acme/widgets/actions/runs")[0], 404)
        server.load("github-journey.json")
        server.at(25)
        self.assertEqual(run(server, 9001, Authorization="Bearer ghp_journey")[1]["status"], "in_progress")
        answer = server.control("time")[1]
        self.assertEqual((answer["now"], answer["wall"], answer["clock"]), (25.0, "2026-03-02T09:00:25Z", "manual"))

        status, answer = server.control("scenario", {"github": {"repositories": [{"owner": "acme", "name": "w", "runs": [
            {"id": 1, "workflow": "ci.yml", "attempts": [{"jobs": []}]}]}]}})
        self.assertEqual(status, 400)
        self.assertEqual(answer["error"], "github.repositories[0].runs[0].attempts[0]: 'created' is missing (seconds from t=0 when the attempt was created)")
        status, answer = server.control("scenario", {"faults": [{"path": "(", "kind": "status"}]})
        self.assertEqual(status, 400)
        self.assertIn("faults[0].path", answer["error"])
        self.assertEqual(server.control("nothing-here")[0], 404)
        self.assertEqual(server.control("advance", {"minutes": 3})[0], 400)

    def test_the_readme_example_plays_as_it_says(self):
        with open(os.path.join(HERE, "README.md")) as handle:
            text = handle.read()
        example = json.loads(re.search(r"## A full example\n\n```json\n(.*?)\n```", text, re.S).group(1))
        server = self.server
        server.load(example)
        token = {"Authorization": "Bearer ghp_example"}

        def state(number=9001):
            body = server.json("/repos/acme/widgets/actions/runs/%d" % number, token)[2]
            return body["run_attempt"], body["status"], body["conclusion"]

        server.at(10)
        self.assertEqual(state(), (1, "queued", None))
        server.at(100)
        self.assertEqual(state(), (1, "in_progress", None))
        self.assertEqual(server.fetch("/repos/acme/widgets/actions/runs", token)[0], 503)
        server.at(325)
        self.assertEqual(state(), (1, "completed", "failure"))
        self.assertEqual(server.fetch("/repos/acme/widgets/actions/runs", token)[0], 200)
        server.at(600)
        self.assertEqual(state(), (2, "queued", None))
        server.at(915)
        self.assertEqual(state(), (2, "completed", "success"))
        gitlab = {"PRIVATE-TOKEN": "glpat-example"}
        server.at(200)
        jobs_now = {job["name"]: job["status"] for job in server.json("/api/v4/projects/7/pipelines/201/jobs", gitlab)[2]}
        self.assertEqual(jobs_now, {"compile": "success", "unit": "running", "lint": "success", "publish": "created"})
        auth = {"Authorization": "Basic " + base64.b64encode(b"alice:11example").decode()}
        server.at(10)
        job = server.json("/job/team/job/widgets/api/json", auth)[2]
        self.assertEqual((job["inQueue"], job["lastBuild"]["number"]), (True, 1))
        server.at(40)
        build = server.json("/job/team/job/widgets/lastBuild/api/json", auth)[2]
        self.assertEqual((build["number"], build["building"], build["estimatedDuration"]), (2, True, 600000))
        feed = ElementTree.fromstring(server.fetch("/cc.xml")[2]).find("Project")
        self.assertEqual(feed.get("activity"), "Building")


# ---- the fields table ---------------------------------------------------------------------------

DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")
HTTP_DATE = re.compile(r"^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$")


def reference_table():
    """(api, object, field, type) for every row of the README's fields table."""
    with open(os.path.join(HERE, "README.md")) as handle:
        text = handle.read()
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[2].startswith("`"):
            rows.append((cells[0], cells[1], cells[2].strip("`"), cells[3]))
    return rows


def type_matches(value, kind, present):
    """One alternative of the table's Type column."""
    if kind == "absent":
        return not present
    if not present:
        return False
    if kind.startswith("enum: "):
        return value in kind[len("enum: "):].split("/")
    checks = {
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "epoch-ms": lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 10 ** 12,
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list), "object": lambda v: isinstance(v, dict), "null": lambda v: v is None,
        "date-time": lambda v: isinstance(v, str) and DATE_TIME.match(v) is not None,
        "http-date": lambda v: isinstance(v, str) and HTTP_DATE.match(v) is not None,
        "empty": lambda v: v == "",
    }
    return checks[kind](value)


def lookup(value, dotted):
    """(present, value) of a dotted path in a JSON object."""
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


class ReferenceShapeTests(unittest.TestCase):
    """Every field the README table lists, in every response of each shipped timeline, at many times."""

    def setUp(self):
        self.rows = reference_table()
        self.assertGreater(len(self.rows), 150)
        self.checked = set()
        self.server = Server("github-many.json")
        self.addCleanup(self.server.stop)

    def check(self, api, obj, value, headers=None):
        rows = [row for row in self.rows if row[0] == api and row[1] == obj]
        self.assertTrue(rows, (api, obj))
        for _, _, field, kind in rows:
            if field.startswith("(header) "):
                header = headers.get(field[len("(header) "):])
                present, actual = header is not None, header
                if present and kind.split(" or ")[0] == "integer" and actual.lstrip("-").isdigit():
                    actual = int(actual)
            else:
                present, actual = lookup(value, field)
            self.assertTrue(any(type_matches(actual, alternative, present) for alternative in kind.split(" or ")),
                            "%s %s %s: %r is not %s" % (api, obj, field, actual, kind))
            self.checked.add((api, obj, field))

    def test_github_responses_have_every_listed_field(self):
        server = self.server
        for t in (0, 25, 130, 300, 650, 705, 900, 1700, 100000):
            server.at(t)
            for prefix in ("", "/api/v3"):
                base = prefix + "/repos/acme/widgets/actions"
                for path in (base + "/workflows/ci.yml/runs", base + "/workflows/161337/runs?per_page=2", base + "/runs?per_page=100"):
                    status, headers, body = server.json(path, READER)
                    self.assertEqual(status, 200)
                    self.check("GitHub", "Workflow Run list", body)
                    if not prefix:
                        self.check("GitHub", "Headers", body, headers)
                    for entry in body["workflow_runs"]:
                        self.check("GitHub", "Workflow Run", entry)
                for entry in body["workflow_runs"]:  # every run, through each endpoint that shows it or its jobs
                    number = entry["id"]
                    self.check("GitHub", "Workflow Run", server.json("%s/runs/%d" % (base, number), READER)[2])
                    self.check("GitHub", "Workflow Run", server.json("%s/runs/%d/attempts/1" % (base, number), READER)[2])
                    for suffix in ("/jobs", "/jobs?filter=all", "/attempts/1/jobs"):
                        listing = server.json("%s/runs/%d%s" % (base, number, suffix), READER)[2]
                        self.check("GitHub", "Job list", listing)
                        for job in listing["jobs"]:
                            self.check("GitHub", "Job", job)
                            for step in job["steps"]:
                                self.check("GitHub", "Job step", step)
                    if listing["jobs"]:
                        self.check("GitHub", "Job", server.json("%s/jobs/%d" % (base, listing["jobs"][0]["id"]), READER)[2])
                workflows = server.json(base + "/workflows", READER)[2]
                self.check("GitHub", "Workflow list", workflows)
                for workflow in workflows["workflows"]:
                    self.check("GitHub", "Workflow", workflow)
            self.check("GitHub", "Rate limit", server.json("/rate_limit", READER)[2])
        self.assert_every_row_checked("GitHub")

    def test_gitlab_jenkins_and_cctray_responses_have_every_listed_field(self):
        server = self.server
        token = {"PRIVATE-TOKEN": "glpat-reader"}
        server.load("gitlab.json")
        for t in (0, 10, 20, 140, 250, 340, 356, 400, 1000):
            server.at(t)
            for project in ("7", "acme%2Fwidgets", "8"):
                status, headers, listing = server.json("/api/v4/projects/%s/pipelines?per_page=3" % project, token)
                self.assertEqual(status, 200)
                self.check("GitLab", "List headers", None, headers)
                self.check("GitLab", "Headers", None, headers)
                for entry in server.json("/api/v4/projects/%s/pipelines?per_page=100" % project, token)[2]:
                    self.check("GitLab", "Pipeline", entry)
                    single = server.json("/api/v4/projects/%s/pipelines/%d" % (project, entry["id"]), token)[2]
                    self.check("GitLab", "Pipeline", single)
                    self.check("GitLab", "Pipeline (single)", single)
                    for job in server.json("/api/v4/projects/%s/pipelines/%d/jobs" % (project, entry["id"]), token)[2]:
                        self.check("GitLab", "Pipeline job", job)
        server.load("jenkins.json")
        auth = {"Authorization": "Basic " + base64.b64encode(b"alice:11a1b2c3d4e5f60718293a4b5c6d7e8f90").decode()}
        for t in (0, 300, 700, 730, 800, 2000):
            server.at(t)
            for path in ("widgets", "team/firmware"):
                url = "".join("/job/" + name for name in path.split("/"))
                status, headers, job = server.json(url + "/api/json", auth)
                self.check("Jenkins", "Job", job)
                self.check("Jenkins", "Headers", None, headers)
                for reference in job["builds"]:
                    self.check("Jenkins", "Build", server.json("%s/%d/api/json" % (url, reference["number"]), auth)[2])
        server.load("cctray.json")
        for t in (0, 20, 700):
            server.at(t)
            for path in ("/cc.xml", "/go/cctray.xml"):
                for element in ElementTree.fromstring(server.fetch(path)[2]).findall("Project"):
                    self.check("CCTray", "Project", dict(element.attrib))
        for api in ("GitLab", "Jenkins", "CCTray"):
            self.assert_every_row_checked(api)

    def assert_every_row_checked(self, api):
        missing = [row[:3] for row in self.rows if row[0] == api and row[:3] not in self.checked]
        self.assertEqual(missing, [])


if __name__ == "__main__":
    unittest.main()
