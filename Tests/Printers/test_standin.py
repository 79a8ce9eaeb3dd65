#!/usr/bin/env python3
"""Tests of the Klippy stand-in on its own (no Moonraker): the framing and answers of Klipper's
docs/API_Server.md, its bounds, subscriptions that send only what changed, the M73 timeout, and
the errors for bad files and timelines. Also checks that the committed G-code files are what
gcode/generate.py writes. About 10 s; standard library only."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from printer_servers import http  # noqa: E402


class StandIn:
    def __init__(self, *arguments):
        self.folder = tempfile.mkdtemp(prefix="standin-test-")
        self.gcodes = os.path.join(self.folder, "gcodes")
        shutil.copytree(os.path.join(HERE, "gcode"), self.gcodes)
        self.socket = os.path.join(self.folder, "klippy.sock")
        ready = os.path.join(self.folder, "ready")
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "klippy_standin.py"), "--socket", self.socket,
                                         "--gcodes", self.gcodes, "--ready-file", ready] + list(arguments),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(ready):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the stand-in did not start: %s" % self.process.communicate()[1])
            time.sleep(0.05)
        with open(ready) as source:
            self.control = "http://127.0.0.1:%d" % json.load(source)["control_port"]

    def connect(self):
        return Client(self.socket)

    def stop(self):
        self.process.terminate()
        self.process.communicate(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.sock.settimeout(5)
        self.buffer = b""

    def send(self, message):
        self.sock.sendall(json.dumps(message).encode() + b"\x03")

    def receive(self, timeout=5):
        self.sock.settimeout(timeout)
        while b"\x03" not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data
        message, _, self.buffer = self.buffer.partition(b"\x03")
        return json.loads(message)

    def call(self, method, params=None, request_id=1):
        self.send({"id": request_id, "method": method, "params": params or {}})
        while True:
            message = self.receive()
            if message.get("id") == request_id:
                return message

    def close(self):
        self.sock.close()


class StandInTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.standin = StandIn("--speed", "1")

    @classmethod
    def tearDownClass(cls):
        cls.standin.stop()

    def setUp(self):
        http("POST", self.standin.control + "/play", {"timeline": {}, "speed": 1})
        self.client = self.standin.connect()

    def tearDown(self):
        self.client.close()

    def test_two_requests_in_one_write_are_both_answered_and_one_without_id_is_not(self):
        self.client.sock.sendall(b'{"method": "info"}\x03{"id": 7, "method": "objects/list"}\x03{"id": 8, "method": "info"}\x03')
        first, second = self.client.receive(), self.client.receive()
        self.assertEqual((first["id"], second["id"]), (7, 8))
        self.assertIn("print_stats", first["result"]["objects"])
        self.assertEqual(second["result"]["state"], "ready")

    def test_errors_have_klippys_shape(self):
        answer = self.client.call("no/such/endpoint")
        self.assertEqual(answer["error"]["error"], "WebRequestError")
        self.assertIn("no/such/endpoint", answer["error"]["message"])
        self.assertIn("error", self.client.call("objects/query", {"objects": ["print_stats"]}))
        self.client.sock.sendall(b"not json\x03")
        self.assertIn("Invalid request", self.client.receive()["error"]["message"])

    def test_a_missing_or_escaping_file_is_refused(self):
        for name in ("missing.gcode", "../ready"):
            answer = self.client.call("gcode/script", {"script": 'SDCARD_PRINT_FILE FILENAME="%s"' % name})
            self.assertEqual(answer["error"]["message"], "Unable to open file", name)

    def test_a_request_over_the_bound_closes_the_connection(self):
        with self.assertRaises((ConnectionError, BrokenPipeError, ConnectionResetError)):
            self.client.sock.sendall(b"x" * (1024 * 1024 + 10))
            self.client.receive()
        again = self.standin.connect()
        self.assertEqual(again.call("info")["result"]["state"], "ready")
        again.close()

    def test_connections_are_bounded(self):
        extra = [self.standin.connect() for _ in range(20)]
        answered = 0
        for client in extra:
            try:
                answered += "result" in client.call("info")
            except (ConnectionError, OSError):
                pass
            client.close()
        self.assertLessEqual(answered + 1, 16)
        self.assertGreater(answered, 0)

    def test_remote_methods_and_output_are_bounded(self):
        for n in range(300):
            self.client.send({"method": "register_remote_method", "params": {"remote_method": "m%d" % n, "response_template": {}}})
        state = None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            state = http("GET", self.standin.control + "/state")[1]
            if len(state["remote_methods"]) >= 256:
                break
            time.sleep(0.1)
        self.assertEqual(len(state["remote_methods"]), 256)
        self.client.call("gcode/subscribe_output", {"response_template": {"key": 1}})
        self.client.call("gcode/script", {"script": "\n".join("NOPE%d" % n for n in range(500))}, request_id=2)
        lines = []
        try:
            while True:
                message = self.client.receive(1.0)
                if message.get("key") == 1:
                    lines.append(message["params"]["response"])
        except socket.timeout:
            pass
        self.assertEqual(len(lines), 200)
        self.assertEqual(lines[-1], '// Unknown command:"NOPE499"')

    def test_a_subscription_sends_only_changed_fields(self):
        answer = self.client.call("objects/subscribe", {"objects": {"print_stats": None, "extruder": ["target"]},
                                                        "response_template": {"method": "status"}})
        self.assertEqual(answer["result"]["status"]["print_stats"]["state"], "standby")
        self.assertEqual(answer["result"]["status"]["extruder"], {"target": 0.0})
        self.client.call("gcode/script", {"script": "M104 S200"}, request_id=2)
        message = self.client.receive()
        self.assertEqual(message["method"], "status")
        self.assertEqual(message["params"]["status"], {"extruder": {"target": 200.0}})
        self.assertIn("eventtime", message["params"])

    def test_m73_progress_expires_after_five_timeline_seconds(self):
        http("POST", self.standin.control + "/play", {"timeline": {}, "speed": 10})
        self.client.call("gcode/script", {"script": "M73 P42"})
        status = self.client.call("objects/query", {"objects": {"display_status": None}}, request_id=2)["result"]["status"]
        self.assertEqual(status["display_status"]["progress"], 0.42)
        time.sleep(0.7)
        status = self.client.call("objects/query", {"objects": {"display_status": None}}, request_id=3)["result"]["status"]
        self.assertEqual(status["display_status"]["progress"], 0.0)

    def test_pause_resume_cancel_endpoints_and_history_of_a_print(self):
        http("POST", self.standin.control + "/play", {"timeline": {"events": [{"at": 0, "print": "cura-no-m73.gcode", "seconds": 60}]},
                                                      "speed": 100})
        time.sleep(0.3)
        query = {"objects": {"print_stats": ["state"], "pause_resume": None}}
        self.assertEqual(self.client.call("objects/query", query)["result"]["status"]["print_stats"]["state"], "printing")
        self.client.call("pause_resume/pause", request_id=2)
        status = self.client.call("objects/query", query, request_id=3)["result"]["status"]
        self.assertEqual((status["print_stats"]["state"], status["pause_resume"]["is_paused"]), ("paused", True))
        self.client.call("pause_resume/resume", request_id=4)
        self.client.call("pause_resume/cancel", request_id=5)
        self.assertEqual(self.client.call("objects/query", query, request_id=6)["result"]["status"]["print_stats"]["state"], "cancelled")
        methods = [entry["method"] for entry in http("GET", self.standin.control + "/requests")[1]["requests"]]
        self.assertIn("(timeline) print", methods)

    def test_a_broken_timeline_is_refused_with_its_place(self):
        status, answer = http("POST", self.standin.control + "/play", {"timeline": {"events": [{"at": 1, "pause": True}, {"at": "x", "cancel": True}]}})
        self.assertEqual(status, 400)
        self.assertIn("timeline.events[1].at", answer["error"])
        status, answer = http("POST", self.standin.control + "/event", {"explode": 1})
        self.assertEqual(status, 400)
        self.assertIn("needs exactly one of", answer["error"])


class CommandLineTests(unittest.TestCase):
    def test_a_broken_timeline_file_stops_it_with_status_2(self):
        folder = tempfile.mkdtemp()
        try:
            path = os.path.join(folder, "t.json")
            with open(path, "w") as out:
                json.dump({"events": [{"at": 0, "print": "a.gcode", "seconds": -1}]}, out)
            run = subprocess.run([sys.executable, os.path.join(HERE, "klippy_standin.py"), "--socket", os.path.join(folder, "s"),
                                  "--gcodes", folder, "--timeline", path], capture_output=True, text=True, timeout=10)
            self.assertEqual(run.returncode, 2)
            self.assertIn("timeline.events[0].seconds: -1 is not a number of at least", run.stderr)
        finally:
            shutil.rmtree(folder)

    def test_the_committed_gcode_files_are_what_the_generator_writes(self):
        run = subprocess.run([sys.executable, os.path.join(HERE, "gcode", "generate.py"), "--check"], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)


if __name__ == "__main__":
    unittest.main()
