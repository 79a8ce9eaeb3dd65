#!/usr/bin/env python3
"""Starts the real printer servers for a test suite, once, on free loopback ports, and stops them.

- OctoPrint (.build-octoprint/venv, Scripts/lib/octoprint.sh) with its bundled Virtual Printer,
  in a headless basedir: first-run wizard answered, a user with a fresh API key, the Virtual
  Printer connected at start, online checks, update checks, announcements, tracking and discovery
  off, bound to 127.0.0.1. The G-code files of Tests/Printers/gcode are in its uploads folder.
- Moonraker (.build-moonraker/venv, Scripts/lib/moonraker.sh) on 127.0.0.1 in front of the Klippy
  stand-in (klippy_standin.py) on a Unix socket; the same G-code files are in its gcodes folder.

When both are ready it prints one JSON line on standard output (Tests/Printers/README.md,
"Launcher") with the URLs, ports, API key, socket path, control port and every daemon's pid, then
waits. SIGTERM or SIGINT (or, with --stop-on-eof, the end of standard input) stops every daemon
(SIGTERM, then SIGKILL after 10 s) and removes the folder unless --keep. The daemons also get
SIGKILL if this process dies (PR_SET_PDEATHSIG), so none outlives it. A daemon that exits early or
a server that is not ready in time stops everything with exit status 1 and the end of its log.

Usage: serve.py [--dir DIR] [--only octoprint|moonraker] [--timeline FILE] [--speed F]
                [--stop-on-eof] [--keep] [--ready-file PATH] [--timeout S]
"""

import argparse
import ctypes
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GCODE = os.path.join(HERE, "gcode")
OCTOPRINT_VENV = os.path.join(ROOT, ".build-octoprint", "venv")
MOONRAKER_VENV = os.path.join(ROOT, ".build-moonraker", "venv")
USER = "headway"
PR_SET_PDEATHSIG = 1  # linux/prctl.h
STOP = threading.Event()  # set by SIGTERM, SIGINT or the end of standard input

# Bundled OctoPrint plugins that reach the internet or the local network on their own
# (announcements, update and plugin repository checks, the Python end-of-life check, usage
# tracking, error reports, UPnP/zeroconf discovery) or are not needed headless. OctoPrint's
# config.yaml reference: `plugins._disabled` lists the identifiers of disabled plugins.
OCTOPRINT_DISABLED = ["announcements", "softwareupdate", "pluginmanager", "health_check", "tracking", "errortracking",
                      "discovery", "achievements", "backup", "firmware_check", "file_check", "gcodeviewer", "classicwebcam"]


class ServeError(Exception):
    pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])  # a test runner's blocked signals are not inherited


def tail(path, characters=3000):
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            return log.read()[-characters:]
    except OSError:
        return "(no log at %s)" % path


def get_json(url, headers=None, timeout=2.0):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


class Daemons:
    """The processes this launcher started, stopped together."""

    def __init__(self):
        self.processes = {}
        self.lock = threading.Lock()

    def start(self, name, argv, log, cwd=None, env=None):
        with open(log, "ab") as output:
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                       cwd=cwd, env=env, preexec_fn=die_with_parent)
        with self.lock:
            self.processes[name] = (process, log)
        return process

    def exited(self):
        with self.lock:
            return [(name, process.returncode, log) for name, (process, log) in self.processes.items()
                    if process.poll() is not None]

    def stop(self):
        with self.lock:
            running = [process for process, _ in self.processes.values() if process.poll() is None]
        for process in running:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for process in running:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for(what, check, daemons, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if STOP.is_set():
            raise ServeError("stopped while waiting for %s" % what)
        for name, code, log in daemons.exited():
            raise ServeError("%s exited with status %s while waiting for %s:\n%s" % (name, code, what, tail(log)))
        try:
            value = check()
            if value:
                return value
        except (OSError, ValueError, KeyError, urllib.error.URLError, http.client.HTTPException):
            pass  # not serving yet, or not that answer yet
        time.sleep(0.1)
    raise ServeError("%s: not within %g s" % (what, timeout))


def octoprint_config(port):
    """OctoPrint's config.yaml (docs.octoprint.org configuration/config_yaml), in JSON: YAML 1.2
    reads JSON, and the standard library writes it."""
    return {
        "server": {"host": "127.0.0.1", "port": port, "firstRun": False, "onlineCheck": {"enabled": False},
                   "pluginBlacklist": {"enabled": False}, "seenWizards": {"corewizard": 3}},
        "plugins": {"_disabled": OCTOPRINT_DISABLED, "virtual_printer": {"enabled": True},
                    "tracking": {"enabled": False}},
        "serial": {"autoconnect": True, "port": "VIRTUAL", "baudrate": 0},
    }


class OctoPrint:
    """OctoPrint in a headless basedir: `begin` adds the user (a second or so), `start` writes its
    API key and starts the server, `ready` tells whether the Virtual Printer is connected."""

    def __init__(self, folder, daemons, timeout):
        self.program = os.path.join(OCTOPRINT_VENV, "bin", "octoprint")
        if not os.path.exists(self.program):
            raise ServeError("%s is missing: run Scripts/test, or source Scripts/lib/octoprint.sh and run ensure_octoprint" % self.program)
        self.folder = folder
        self.daemons = daemons
        self.timeout = timeout
        self.basedir = os.path.join(folder, "octoprint")
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.password = secrets.token_urlsafe(12)
        self.api_key = secrets.token_hex(16).upper()
        self.log = os.path.join(folder, "octoprint.log")

    def begin(self):
        os.makedirs(os.path.join(self.basedir, "uploads"), exist_ok=True)
        with open(os.path.join(self.basedir, "config.yaml"), "w") as config:
            json.dump(octoprint_config(self.port), config, indent=1)
        for name in sorted(os.listdir(GCODE)):
            if name.endswith(".gcode"):
                shutil.copy(os.path.join(GCODE, name), os.path.join(self.basedir, "uploads", name))
        self.adding = subprocess.Popen([self.program, "--basedir", self.basedir, "user", "add", USER, "--password",
                                        self.password, "--admin"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True, preexec_fn=die_with_parent)

    def start(self):
        try:
            output, _ = self.adding.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.adding.kill()
            raise ServeError("octoprint user add: not done within %g s" % self.timeout)
        if self.adding.returncode != 0:
            raise ServeError("octoprint user add failed (%d):\n%s" % (self.adding.returncode, output))
        # `user add` leaves the user without an API key; one written into users.yaml before the
        # server starts is accepted as X-Api-Key (measured; Tests/Printers/README.md).
        users_path = os.path.join(self.basedir, "users.yaml")
        with open(users_path) as users:
            users_text = users.read()
        if users_text.count("  apikey: null\n") != 1:
            raise ServeError("%s has no single 'apikey: null' line to set; OctoPrint's format changed:\n%s" % (users_path, users_text))
        with open(users_path, "w") as users:
            users.write(users_text.replace("  apikey: null\n", "  apikey: %s\n" % self.api_key))
        # --iknowwhatimdoing: OctoPrint refuses to run as root without it, and CI runs as root.
        self.process = self.daemons.start("octoprint", [self.program, "--basedir", self.basedir, "serve", "--host",
                                                        "127.0.0.1", "--port", str(self.port), "--iknowwhatimdoing"], self.log)

    def ready(self):
        connection = get_json(self.url + "/api/connection", {"X-Api-Key": self.api_key})
        return connection["current"]["state"] == "Operational"

    def description(self):
        return {"url": self.url, "port": self.port, "api_key": self.api_key, "user": USER, "password": self.password,
                "pid": self.process.pid, "basedir": self.basedir, "log": self.log,
                "files": sorted(name for name in os.listdir(os.path.join(self.basedir, "uploads")) if name.endswith(".gcode"))}


def moonraker_config(port, socket_path):
    """moonraker.conf (Arksine/moonraker docs/configuration.md): loopback only, the stand-in's
    socket, no service manager, no update manager (not configured, so not loaded), announcements
    without the internet feed, and every loopback client trusted, so no key is needed there."""
    return "\n".join([
        "[server]", "host: 127.0.0.1", "port: %d" % port, "klippy_uds_address: %s" % socket_path, "",
        "[machine]", "provider: none", "validate_service: False", "validate_config: False", "",
        "[file_manager]", "enable_object_processing: False", "",
        "[announcements]", "enable_moonlight: False", "",
        "[authorization]", "trusted_clients:", "    127.0.0.0/8", "    ::1/128", "",
        "[history]", "",
    ]) + "\n"


class Moonraker:
    """Moonraker and the Klippy stand-in: `begin` starts the stand-in, `start` starts Moonraker once
    the stand-in's socket is there, `ready` tells whether Moonraker reports Klippy ready."""

    def __init__(self, folder, daemons, timeline, speed, timeout):
        self.program = os.path.join(MOONRAKER_VENV, "bin", "moonraker")
        if not os.path.exists(self.program):
            raise ServeError("%s is missing: run Scripts/test, or source Scripts/lib/moonraker.sh and run ensure_moonraker" % self.program)
        self.folder = folder
        self.daemons = daemons
        self.timeline = os.path.abspath(timeline) if timeline else None
        self.speed = speed
        self.timeout = timeout
        self.data = os.path.join(folder, "moonraker")
        self.socket_path = os.path.join(self.data, "comms", "klippy.sock")
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.config = os.path.join(self.data, "config", "moonraker.conf")
        self.printer_cfg = os.path.join(self.data, "config", "printer.cfg")
        self.log = os.path.join(self.data, "logs", "moonraker.log")
        self.klippy_log = os.path.join(folder, "klippy.log")
        self.ready_file = os.path.join(folder, "klippy.ready")

    def begin(self):
        for sub in ("config", "gcodes", "logs", "comms"):
            os.makedirs(os.path.join(self.data, sub), exist_ok=True)
        for name in sorted(os.listdir(GCODE)):
            if name.endswith(".gcode"):
                shutil.copy(os.path.join(GCODE, name), os.path.join(self.data, "gcodes", name))
        argv = [sys.executable, os.path.join(HERE, "klippy_standin.py"), "--socket", self.socket_path,
                "--gcodes", os.path.join(self.data, "gcodes"), "--config-file", self.printer_cfg,
                "--klipper-path", os.path.join(self.folder, "klipper"),
                "--ready-file", self.ready_file, "--speed", str(self.speed)]
        if self.timeline:
            argv += ["--timeline", self.timeline]
        self.standin = self.daemons.start("klippy_standin", argv, self.klippy_log)

    def start(self):
        def standin_ready():
            if os.path.exists(self.ready_file):
                with open(self.ready_file) as ready:
                    return json.load(ready)
        self.klippy = wait_for("the Klippy stand-in's socket", standin_ready, self.daemons, self.timeout)
        with open(self.config, "w") as out:
            out.write(moonraker_config(self.port, self.socket_path))
        self.process = self.daemons.start("moonraker", [self.program, "-d", self.data, "-c", self.config, "-l", self.log],
                                          os.path.join(self.folder, "moonraker.out"))

    def ready(self):
        """Klippy ready, and the metadata of every G-code file parsed: Moonraker scans them in
        the background after it starts, and answers "Metadata not available" until then."""
        if get_json(self.url + "/server/info")["result"]["klippy_state"] != "ready":
            return False
        for name in sorted(os.listdir(os.path.join(self.data, "gcodes"))):
            if name.endswith(".gcode"):
                get_json(self.url + "/server/files/metadata?filename=" + urllib.parse.quote(name))
        return True

    def description(self):
        return ({"url": self.url, "websocket": "ws://127.0.0.1:%d/websocket" % self.port, "port": self.port,
                 "pid": self.process.pid, "data_path": self.data, "gcodes": os.path.join(self.data, "gcodes"),
                 "config": self.config, "log": self.log},
                {"socket": self.socket_path, "pid": self.standin.pid, "control": "http://127.0.0.1:%d" % self.klippy["control_port"],
                 "control_port": self.klippy["control_port"], "config_file": self.printer_cfg, "log": self.klippy_log})


def main():
    parser = argparse.ArgumentParser(description="Starts OctoPrint and Moonraker (with the Klippy stand-in) for tests.")
    parser.add_argument("--dir", help="the folder for their files (default: a new temporary folder)")
    parser.add_argument("--only", choices=("octoprint", "moonraker"), help="start only this server")
    parser.add_argument("--timeline", help="a timeline for the Klippy stand-in to play from the start")
    parser.add_argument("--speed", type=float, default=1.0, help="the stand-in's timeline seconds per real second")
    parser.add_argument("--stop-on-eof", action="store_true", help="stop when standard input ends")
    parser.add_argument("--keep", action="store_true", help="keep the folder after stopping")
    parser.add_argument("--ready-file", help="also write the ready line there")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds each server may take to be ready")
    args = parser.parse_args()
    folder = os.path.abspath(args.dir) if args.dir else tempfile.mkdtemp(prefix="headway-printers-")
    if os.path.isdir(folder) and os.listdir(folder) and args.dir:
        parser.error("--dir %s is not empty: give a new or empty folder (each run makes its servers anew)" % folder)
    os.makedirs(folder, exist_ok=True)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: STOP.set())
    daemons = Daemons()
    try:
        return serve(args, folder, daemons)
    finally:
        daemons.stop()
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


def serve(args, folder, daemons):
    """Starts the servers, prints the ready line and waits for the end; the exit status."""
    started = time.monotonic()
    servers = {}
    try:
        # Every daemon is started from this thread: PR_SET_PDEATHSIG follows the thread that
        # started a process, not the whole process.
        if args.only in (None, "moonraker"):
            servers["moonraker"] = Moonraker(folder, daemons, args.timeline, args.speed, args.timeout)
            servers["moonraker"].begin()
        if args.only in (None, "octoprint"):
            servers["octoprint"] = OctoPrint(folder, daemons, args.timeout)
            servers["octoprint"].begin()
        for server in servers.values():
            server.start()
        for name, server in servers.items():
            wait_for({"octoprint": "OctoPrint's Virtual Printer to be Operational (/api/connection)",
                      "moonraker": "Moonraker to report Klippy ready and its files' metadata (/server/info, "
                                   "/server/files/metadata)"}[name], server.ready, daemons, args.timeout)
    except ServeError as problem:
        print("serve.py: %s" % problem, file=sys.stderr)
        return 1
    ready = {"ready": True, "dir": folder, "pid": os.getpid(), "seconds": round(time.monotonic() - started, 2)}
    if "octoprint" in servers:
        ready["octoprint"] = servers["octoprint"].description()
    if "moonraker" in servers:
        ready["moonraker"], ready["klippy"] = servers["moonraker"].description()
    line = json.dumps(ready)
    if args.ready_file:
        with open(args.ready_file + ".tmp", "w") as out:
            out.write(line + "\n")
        os.replace(args.ready_file + ".tmp", args.ready_file)
    print(line, flush=True)
    if args.stop_on_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), STOP.set()), daemon=True).start()
    while not STOP.wait(0.5):
        for name, code, log in daemons.exited():
            print("serve.py: %s exited with status %s:\n%s" % (name, code, tail(log)), file=sys.stderr)
            return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
