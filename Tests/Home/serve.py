#!/usr/bin/env python3
"""Runs the test home: a real Home Assistant on a free loopback port, onboarded, with a token.

    python3 Tests/Home/serve.py [--token-file PATH] [--keep] [--ignore-stdin]

Home Assistant is the one Scripts/lib/homeassistant.sh installs (ensure_homeassistant); this
starts it on a fresh copy of Tests/Home/config, waits until it runs, onboards it
(Tests/Home/onboard.py), writes a long-lived token and prints one JSON line on stdout:

    {"ready": true, "url": "http://127.0.0.1:PORT", "websocket_url": "ws://127.0.0.1:PORT/api/websocket",
     "token_file": PATH, "version": "2026.2.3", "pid": N, "config": HOST_PATH, "log": HOST_PATH,
     "seconds": S, "entities": {ROLE: ENTITY_ID, …}}

Then it keeps Home Assistant running until SIGTERM, SIGINT or SIGHUP, or until its standard
input ends (so a test that dies takes it along; --ignore-stdin for a shell's background job),
stops it (SIGTERM, SIGKILL after 20 s), checks that no process of it is left, removes the run's
folder (--keep leaves it) and prints {"stopped": true, "exit_status": N (0: a clean stop),
"leftover_processes": [], "seconds": S}.
Home Assistant also gets SIGTERM when this process dies, however it dies.
Restarts, each followed by another ready line with "restarted" (same port, storage and token):
the homeassistant.restart action (Home Assistant exits with status 100 for its supervisor, this,
to start it again): "restarted": "restart"; SIGUSR1 to this process kills Home Assistant with
SIGKILL, a crash, and starts it again: "restarted": "crash".
Exit status 3: Home Assistant is not installed here (the message says how to install it);
1: it did not start or stopped early (the message holds the end of its log).
"""

import argparse
import ctypes
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from homeassistant_client import HTTPFailure, HomeAssistantSocket, http_json  # noqa: E402
from onboard import TOKEN_CLIENT_NAME, onboard  # noqa: E402

# What each entity of Tests/Home/config stands for.
ENTITIES = {
    "percentage": "input_number.print_progress",
    "percentage_sensor": "sensor.printer_progress",
    "timer": "timer.tea",
    "remaining_minutes": "sensor.washer_remaining_time",
    "remaining_minutes_input": "input_number.washer_minutes",
    "running": "binary_sensor.washer",
    "running_input": "input_boolean.washer_running",
    "update": "update.hall_light_firmware",
    "update_installing_input": "input_boolean.firmware_installing",
    "update_percentage_input": "input_number.firmware_percentage",
}
START_SECONDS = 90
STOP_SECONDS = 20
LIBRARIES = "source Scripts/lib/packages.sh && source Scripts/lib/debian13.sh && source Scripts/lib/homeassistant.sh"
PR_SET_PDEATHSIG = 1
RESTART_EXIT_STATUS = 100  # homeassistant/const.py RESTART_EXIT_CODE


class NotInstalled(Exception):
    pass


class StartFailure(Exception):
    pass


def shell(command, *arguments):
    return subprocess.run(["bash", "-c", f"{LIBRARIES} && {command}", "serve", *arguments], cwd=REPOSITORY, capture_output=True, text=True)


def installed_root():
    """The chroot Home Assistant lives in, and its version; NotInstalled when it is not there."""
    answer = shell('homeassistant_installed && echo "$homeassistant_root" && echo "$homeassistant_version"')
    if answer.returncode != 0:
        raise NotInstalled(
            "Home Assistant is not installed here (or not at the pinned version): Scripts/test installs it, or\n"
            f"  cd {REPOSITORY} && bash -c '{LIBRARIES} && ensure_homeassistant'"
        )
    root, version = answer.stdout.splitlines()
    return root, version


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_child():
    """In the child before exec: no blocked signals (a test runner's children inherit its blocked
    ones, and Home Assistant must hear SIGTERM), and SIGTERM when this process ends, however it
    ends (the setting survives the execs down to Home Assistant's Python)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class TestHome:
    """One Home Assistant on a fresh configuration; start() returns the ready line's fields."""

    def __init__(self, token_file=None, keep=False):
        self.root, self.version = installed_root()
        self.keep = keep
        os.makedirs(os.path.join(self.root, "tmp"), exist_ok=True)
        self.folder = tempfile.mkdtemp(prefix="headway-home-", dir=os.path.join(self.root, "tmp"))
        self.config = os.path.join(self.folder, "config")
        self.token_file = token_file or os.path.join(self.folder, "token")
        self.process = None
        self.port = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self):
        return os.path.join(self.config, "home-assistant.log")

    def log_tail(self, characters=3000):
        texts = []
        for path in (os.path.join(self.folder, "output"), self.log):
            try:
                with open(path, errors="replace") as handle:
                    texts.append(handle.read()[-characters:])
            except OSError:
                pass
        return "\n".join(texts)

    def _launch(self):
        """Home Assistant on a fresh copy of the configuration, on a new free port."""
        shutil.rmtree(self.config, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, "config"), self.config)
        self.port = free_port()
        with open(os.path.join(self.config, "secrets.yaml"), "w") as secrets:
            secrets.write(f"http_port: {self.port}\ninternal_url: {json.dumps(self.url)}\n")
        self._exec()

    def _exec(self):
        inside = "/" + os.path.relpath(self.config, self.root)
        output = open(os.path.join(self.folder, "output"), "a")
        self.process = subprocess.Popen(
            ["bash", "-c", f'{LIBRARIES} && homeassistant_exec "$1"', "serve", inside],
            cwd=REPOSITORY, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=prepare_child,
        )
        output.close()

    def _port_taken(self):
        try:
            with open(self.log, errors="replace") as handle:
                return "Failed to create HTTP server at port" in handle.read()
        except OSError:
            return False

    def _answers(self, deadline):
        """Whether the HTTP server answers before the deadline (False: it ended, or lost its port)."""
        while time.monotonic() < deadline and self.process.poll() is None and not self._port_taken():
            try:
                http_json(f"{self.url}/api/", timeout=1)
                return True
            except HTTPFailure:  # 401 without a token: it answers
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def start(self):
        started = time.monotonic()
        for _ in range(3):  # another program may take the free port before Home Assistant binds it
            self._launch()
            if self._answers(started + START_SECONDS):
                break
            if not self._port_taken():
                raise StartFailure(f"Home Assistant did not answer on {self.url} within {START_SECONDS} s "
                                   f"(exit status {self.process.poll()}):\n{self.log_tail()}")
            self._stop_process()
        else:
            raise StartFailure(f"no free port after three tries:\n{self.log_tail()}")
        onboard(self.url, self.token_file, timeout=START_SECONDS)
        self._wait_running(started + START_SECONDS)
        self._wait_token_stored(started + START_SECONDS)
        return self._ready_line(started)

    def _wait_token_stored(self, deadline):
        """Until .storage/auth holds the long-lived token: Home Assistant writes it a second after
        it is made, and a restart (or a crash) before then would lose it."""
        path = os.path.join(self.config, ".storage", "auth")
        while time.monotonic() < deadline:
            try:
                with open(path) as handle:
                    if TOKEN_CLIENT_NAME in handle.read():
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise StartFailure(f"the token never reached {path}")

    def restart(self, crash=False):
        """Home Assistant again on the same configuration, port and token: after it restarted
        itself (homeassistant.restart: it exits with status 100 for its supervisor to start it
        again, which this is), or, with crash, after SIGKILL."""
        started = time.monotonic()
        if crash and self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._exec()
        if not self._answers(started + START_SECONDS):
            raise StartFailure(f"Home Assistant did not come back on {self.url}:\n{self.log_tail()}")
        self._wait_running(started + START_SECONDS)
        return {**self._ready_line(started), "restarted": "crash" if crash else "restart"}

    def _ready_line(self, started):
        return {
            "ready": True, "url": self.url, "websocket_url": self.url.replace("http://", "ws://") + "/api/websocket",
            "token_file": self.token_file, "version": self.version, "pid": self.process.pid,
            "config": self.config, "log": self.log, "seconds": round(time.monotonic() - started, 2), "entities": ENTITIES,
        }

    def _wait_running(self, deadline):
        """Until get_config says RUNNING and every entity of ENTITIES has a state."""
        with open(self.token_file) as handle:
            token = handle.read().strip()
        connection = HomeAssistantSocket(self.url)
        try:
            connection.auth(token)
            while time.monotonic() < deadline:
                state = connection.command("get_config")["state"]
                present = {entity["entity_id"] for entity in connection.command("get_states")}
                if state == "RUNNING" and set(ENTITIES.values()) <= present:
                    return
                time.sleep(0.1)
            missing = set(ENTITIES.values()) - present
            raise StartFailure(f"Home Assistant is {state}, entities missing: {sorted(missing)}:\n{self.log_tail()}")
        finally:
            connection.close()

    def _stop_process(self):
        if self.process is None or self.process.poll() is not None:
            return self.process.poll() if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def leftovers(self):
        """Processes whose command line names this run's folder (none once it has stopped)."""
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    if self.folder.removeprefix(self.root).encode() in handle.read():
                        found.append(int(pid))
            except OSError:
                pass
        return found

    def stop(self):
        status = self._stop_process()
        left = self.leftovers()
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        return status, left


class Stop(Exception):
    pass


def raise_stop(number, frame):
    raise Stop(signal.Signals(number).name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--token-file", help="where the long-lived token goes (default: in the run's folder)")
    parser.add_argument("--keep", action="store_true", help="leave the run's folder (configuration, log, token) behind")
    parser.add_argument("--ignore-stdin", action="store_true", help="stop on signals only, not when standard input ends")
    arguments = parser.parse_args()
    # A test runner's children inherit its blocked signals: this process must hear them too.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, raise_stop)
    crashes = []
    signal.signal(signal.SIGUSR1, lambda number, frame: crashes.append(number))
    try:
        home = TestHome(arguments.token_file, arguments.keep)
    except NotInstalled as error:
        print(f"serve: {error}", file=sys.stderr)
        sys.exit(3)
    status = None
    try:
        print(json.dumps(home.start()), flush=True)
        watch = [] if arguments.ignore_stdin else [sys.stdin]
        while True:
            if crashes:
                crashes.clear()
                print(json.dumps(home.restart(crash=True)), flush=True)
            elif home.process.poll() == RESTART_EXIT_STATUS:
                print(json.dumps(home.restart()), flush=True)
            elif home.process.poll() is not None:
                raise StartFailure(f"Home Assistant stopped by itself (exit status {home.process.returncode}):\n{home.log_tail()}")
            readable, _, _ = select.select(watch, [], [], 0.2)
            if readable and not os.read(sys.stdin.fileno(), 4096):
                break
    except (StartFailure, HTTPFailure, OSError, RuntimeError) as error:
        print(f"serve: {error}", file=sys.stderr)
        status = 1
    except Stop:
        pass
    finally:
        stopping = time.monotonic()
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):
            signal.signal(number, signal.SIG_IGN)
        exit_status, left = home.stop()
        print(json.dumps({"stopped": True, "exit_status": exit_status, "leftover_processes": left,
                          "seconds": round(time.monotonic() - stopping, 2)}), flush=True)
    sys.exit(status or (1 if left else 0))


if __name__ == "__main__":
    main()
