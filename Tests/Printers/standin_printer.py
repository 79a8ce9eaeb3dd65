"""The printer the Klippy stand-in reports: heaters, a print read from a G-code file, and the
printer objects Klippy's API server serves, written from Klipper's and Moonraker's references:

- Klipper3d/klipper docs/Status_Reference.md (KSR below): the objects and their fields;
- Arksine/moonraker docs/printer_objects.md (MPO below): the same objects with their types, the
  `print_stats` states and the 5-second M73 timeout of `display_status`;
- Klipper3d/klipper docs/G-Codes.md (KGC below): the commands a print file and `gcode/script` use.

Time is timeline time: the stand-in's clock runs `speed` timeline seconds per real second, and every
duration reported (`print_duration`, `total_duration`, `printing_time`) is in timeline seconds, as if
the print ran at its own pace. A file prints in two parts: its lines up to the last heater wait
(M109/M190) run at once, each wait holding until the heater is up; the rest plays at an even byte
rate over the print's `seconds`, each line taking effect when the file position passes it.
"""

import os
import re
import resource
import time

M73_TIMEOUT = 5.0  # MPO display_status: M73 progress falls back to virtual_sdcard.progress after 5 s
IDLE_TIMEOUT = 600.0  # Klipper docs/Config_Reference.md [idle_timeout]: `timeout` defaults to 600 s
MAX_FILE_BYTES = 64 * 1024 * 1024  # a print file the stand-in reads whole: larger ones are refused
HEATER_WAITS = ("M109", "M190")


class GcodeError(Exception):
    """A G-code command failed; the message is what Klippy would say."""


class Heater:
    """A heater that moves towards its target at a fixed rate (°C per timeline second)."""

    def __init__(self, ambient, heat_rate, cool_rate):
        self.ambient = ambient
        self.heat_rate = heat_rate
        self.cool_rate = cool_rate
        self.temperature = ambient
        self.target = 0.0
        self.power = 0.0

    def step(self, seconds):
        if self.target > self.temperature:
            self.temperature = min(self.target, self.temperature + self.heat_rate * seconds)
            self.power = 1.0 if self.target - self.temperature > 2 else 0.35
        else:
            floor = max(self.target, self.ambient)
            self.temperature = max(floor, self.temperature - self.cool_rate * seconds)
            self.power = 0.35 if self.target > 0 else 0.0

    def reached(self):
        return self.target <= 0 or self.temperature >= self.target - 0.5


class PrintFile:
    """A G-code file split into lines with their byte offsets, and where its heating ends."""

    def __init__(self, gcodes, filename):
        path = os.path.realpath(os.path.join(gcodes, filename))
        if not path.startswith(os.path.realpath(gcodes) + os.sep) or not os.path.isfile(path):
            raise GcodeError("Unable to open file")  # what Klipper's virtual_sdcard says (KGC SDCARD_PRINT_FILE)
        if os.path.getsize(path) > MAX_FILE_BYTES:
            raise GcodeError("File %s is larger than the stand-in's %d bytes" % (filename, MAX_FILE_BYTES))
        with open(path, "rb") as source:
            data = source.read()
        self.path = path
        self.filename = filename
        self.size = len(data)
        self.lines = []
        offset = 0
        for raw in data.split(b"\n"):
            end = offset + len(raw) + 1
            self.lines.append((offset, min(end, self.size), raw.decode("utf-8", "replace").strip()))
            offset = end
        self.body_start = 0
        for start, end, text in self.lines:
            if command_word(text) in HEATER_WAITS:
                self.body_start = end


def command_word(line):
    code = line.split(";", 1)[0].strip()
    return code.split(None, 1)[0].upper() if code else ""


def parameters(line):
    """Klipper's two styles: `G1 X10 E2` (letter and number) and `NAME KEY=value`."""
    code = line.split(";", 1)[0].strip()
    parts = code.split(None, 1)
    rest = parts[1] if len(parts) > 1 else ""
    if "=" in rest:
        return {key.upper(): value for key, value in re.findall(r"(\w+)=(\S+)", rest)}
    return {word[0].upper(): word[1:] for word in rest.split() if word}


def number(params, key, default=None):
    if key not in params:
        return default
    try:
        return float(params[key])
    except ValueError:
        raise GcodeError("Unable to parse '%s' as a number for %s" % (params[key], key))


class Job:
    """A print of one file: where it is in the file and how long it has run."""

    def __init__(self, file, seconds):
        self.file = file
        self.seconds = seconds
        self.position = 0.0  # bytes
        self.next_line = 0
        self.rate = max(file.size - file.body_start, 1) / seconds  # bytes per timeline second
        self.state = "printing"  # MPO print_stats states: printing, paused, complete, error, cancelled
        self.message = ""
        self.total_duration = 0.0
        self.print_duration = 0.0
        self.filament_used = 0.0


class Printer:
    def __init__(self, gcodes, timeline, config_file, clock):
        self.gcodes = gcodes
        self.config_file = config_file
        self.clock = clock  # timeline seconds now
        self.reset(timeline, ambient_heaters=None)

    def reset(self, timeline, ambient_heaters):
        """A fresh Klippy: nothing loaded; heaters keep their temperatures when given."""
        self.timeline = timeline
        rates = timeline["heat_rate"]
        self.heaters = {
            "extruder": Heater(timeline["ambient"], rates["extruder"], timeline["cool_rate"]),
            "heater_bed": Heater(timeline["ambient"], rates["heater_bed"], timeline["cool_rate"]),
        }
        if ambient_heaters:
            for name, temperature in ambient_heaters.items():
                self.heaters[name].temperature = temperature
        self.webhooks_state = "ready"
        self.webhooks_message = "Printer is ready"
        self.job = None
        self.m73_progress = None
        self.m73_at = None
        self.display_message = ""
        self.total_layer = None
        self.current_layer = None
        self.homed_axes = ""
        self.position = [0.0, 0.0, 0.0, 0.0]
        self.absolute = True
        self.absolute_extrude = True
        self.speed = 25.0
        self.idle_state = "Ready"
        self.idle_since = self.clock()
        self.printing_time = 0.0
        self.last_step = self.clock()
        self.output = []  # G-code terminal lines for gcode/subscribe_output
        self.restart_requested = False  # RESTART or FIRMWARE_RESTART: the server restarts Klippy

    # -- time ---------------------------------------------------------------------------------

    def advance(self, until=None):
        """Moves the printer to the clock's time (or `until`, a timeline time before it), in steps
        of at most a quarter timeline second."""
        now = self.clock() if until is None else until
        left = now - self.last_step
        if left <= 0:
            return
        self.last_step = now
        while left > 0:
            step = min(left, 0.25)
            left -= step
            for heater in self.heaters.values():
                heater.step(step)
            self._step_job(step)
            if self.job and self.job.state == "printing":
                self.printing_time += step
                self.idle_state = "Printing"
                self.idle_since = now
            elif self.idle_state == "Printing":
                self.idle_state = "Ready"
                self.printing_time = 0.0  # MPO idle_timeout: reset on Printing -> Ready
            elif self.idle_state == "Ready" and now - self.idle_since > IDLE_TIMEOUT:
                self.idle_state = "Idle"

    def _step_job(self, seconds):
        job = self.job
        if not job or job.state not in ("printing", "paused"):
            return
        job.total_duration += seconds
        if job.state == "paused":
            return
        job.print_duration += seconds  # MPO print_stats.print_duration: time paused excluded
        file = job.file
        while job.state == "printing" and job.next_line < len(file.lines):
            start, end, text = file.lines[job.next_line]
            if start >= file.body_start:
                break
            word = command_word(text)
            if word in HEATER_WAITS:
                heater = self.heaters["extruder" if word == "M109" else "heater_bed"]
                target = number(parameters(text), "S", heater.target)
                heater.target = target
                if not heater.reached():
                    return
            else:
                self._run_file_line(text)
            job.position = end
            job.next_line += 1
        if job.state != "printing":
            return
        job.position = min(file.size, max(job.position, file.body_start) + job.rate * seconds)
        while job.next_line < len(file.lines) and file.lines[job.next_line][0] < job.position:
            self._run_file_line(file.lines[job.next_line][2])
            job.next_line += 1
            if job.state != "printing":
                return
        if job.position >= file.size:
            job.state = "complete"

    def _run_file_line(self, text):
        try:
            self.run_gcode(text, from_file=True)
        except GcodeError as problem:
            self.respond("!! " + str(problem))

    # -- G-code -------------------------------------------------------------------------------

    def respond(self, line):
        self.output.append(line)
        del self.output[:-200]  # a bound: only the newest lines wait for subscribers

    def run_script(self, script):
        """`gcode/script`: each line in turn; the first error stops the script (API_Server.md)."""
        self.advance()
        for line in script.splitlines():
            self.run_gcode(line.strip(), from_file=False)

    def run_gcode(self, line, from_file):
        word = command_word(line)
        if not word:
            return
        if self.webhooks_state != "ready" and word not in ("FIRMWARE_RESTART", "RESTART", "M112"):
            raise GcodeError("Printer is not ready")
        params = parameters(line)
        handler = COMMANDS.get(word)
        if handler is None:
            if from_file:
                return  # a slicer's command for another firmware, as in M201 lines
            self.respond('// Unknown command:"%s"' % word)
            return
        handler(self, params, line)

    def start_print(self, filename, seconds=None):
        if self.job and self.job.state in ("printing", "paused"):
            raise GcodeError("SD busy")
        job = Job(PrintFile(self.gcodes, filename), seconds or self.timeline["print_seconds"])
        self.job = job
        self.m73_progress = None
        self.m73_at = None
        self.total_layer = None
        self.current_layer = None
        self.idle_state = "Printing"

    def pause(self):
        if self.job and self.job.state == "printing":
            self.job.state = "paused"
        else:
            self.respond("// Print already paused" if self.job and self.job.state == "paused" else "// No print to pause")

    def resume(self):
        if self.job and self.job.state == "paused":
            self.job.state = "printing"
        else:
            self.respond("// Print is not paused, resume aborted")

    def cancel(self):
        if self.job and self.job.state in ("printing", "paused"):
            self.job.state = "cancelled"

    def fail(self, message, shutdown):
        """An error: the print ends in `error`; a shutdown also stops Klippy (webhooks `shutdown`)."""
        self.advance()
        if self.job and self.job.state in ("printing", "paused"):
            self.job.state = "error"
            self.job.message = message
        if shutdown:
            self.webhooks_state = "shutdown"
            self.webhooks_message = message
            for heater in self.heaters.values():
                heater.target = 0.0
            self.respond("!! " + message)

    # -- objects ------------------------------------------------------------------------------

    OBJECTS = ("webhooks", "configfile", "mcu", "gcode_move", "print_stats", "virtual_sdcard", "pause_resume",
               "display_status", "idle_timeout", "system_stats", "toolhead", "extruder", "heater_bed", "heaters",
               "motion_report")

    def status(self, name):
        """The object's fields as Klippy reports them, or None for an object it does not have."""
        job = self.job
        if name == "webhooks":  # KSR webhooks
            return {"state": self.webhooks_state, "state_message": self.webhooks_message}
        if name == "print_stats":  # KSR print_stats; MPO print_stats (types, states, info)
            return {
                "filename": job.file.filename if job else "",
                "total_duration": job.total_duration if job else 0.0,
                "print_duration": job.print_duration if job else 0.0,
                "filament_used": job.filament_used if job else 0.0,
                "state": job.state if job else "standby",
                "message": job.message if job else "",
                "info": {"total_layer": self.total_layer, "current_layer": self.current_layer},
            }
        if name == "virtual_sdcard":  # KSR virtual_sdcard; MPO: fields persist after the print
            position = int(job.position) if job else 0
            size = job.file.size if job else 0
            return {
                "file_path": job.file.path if job else None,
                "progress": (position / size) if size else 0.0,
                "is_active": bool(job and job.state == "printing"),
                "file_position": position,
                "file_size": size,
            }
        if name == "display_status":  # KSR display_status; MPO: M73 expires after 5 s
            fresh = self.m73_at is not None and self.clock() - self.m73_at <= M73_TIMEOUT
            progress = self.m73_progress if fresh else self.status("virtual_sdcard")["progress"]
            return {"progress": progress, "message": self.display_message}
        if name == "pause_resume":  # KSR pause_resume
            return {"is_paused": bool(job and job.state == "paused")}
        if name == "idle_timeout":  # KSR idle_timeout; MPO idle_timeout
            return {"state": self.idle_state, "printing_time": self.printing_time, "idle_timeout": IDLE_TIMEOUT}
        if name in self.heaters:  # KSR heater; MPO extruder, heater_bed
            heater = self.heaters[name]
            fields = {"temperature": round(heater.temperature, 2), "target": heater.target, "power": heater.power}
            if name == "extruder":
                fields.update({"can_extrude": heater.temperature >= 170.0, "pressure_advance": 0.0,
                               "smooth_time": 0.04, "motion_queue": None})
            return fields
        if name == "heaters":  # KSR heaters
            return {"available_heaters": ["extruder", "heater_bed"], "available_sensors": ["extruder", "heater_bed"],
                    "available_monitors": []}
        if name == "toolhead":  # KSR toolhead; MPO toolhead
            now = self.clock()
            return {"homed_axes": self.homed_axes, "axis_minimum": [0.0, 0.0, 0.0, 0.0],
                    "axis_maximum": [220.0, 220.0, 250.0, 0.0], "print_time": now, "stalls": 0,
                    "estimated_print_time": now, "extruder": "extruder", "position": list(self.position),
                    "max_velocity": 300.0, "max_accel": 3000.0, "minimum_cruise_ratio": 0.5,
                    "square_corner_velocity": 5.0}
        if name == "gcode_move":  # KSR gcode_move
            return {"speed_factor": 1.0, "speed": self.speed, "extrude_factor": 1.0,
                    "absolute_coordinates": self.absolute, "absolute_extrude": self.absolute_extrude,
                    "homing_origin": [0.0, 0.0, 0.0, 0.0], "position": list(self.position),
                    "gcode_position": list(self.position)}
        if name == "motion_report":  # MPO motion_report
            return {"live_position": list(self.position), "live_velocity": 0.0, "live_extruder_velocity": 0.0,
                    "steppers": ["extruder", "stepper_x", "stepper_y", "stepper_z"], "trapq": ["extruder", "toolhead"]}
        if name == "system_stats":  # KSR system_stats
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return {"sysload": os.getloadavg()[0], "cputime": usage.ru_utime + usage.ru_stime,
                    "memavail": available_memory_kb()}
        if name == "mcu":  # KSR mcu
            return {"mcu_version": "headway-standin", "mcu_build_versions": "", "mcu_constants": {},
                    "last_stats": {}}
        if name == "configfile":  # KSR configfile: the raw config and the settings it gives
            return {"config": self.config_sections(raw=True), "settings": self.config_sections(raw=False),
                    "save_config_pending": False, "save_config_pending_items": {}, "warnings": []}
        return None

    def config_sections(self, raw):
        """The stand-in's printer.cfg (the one `config_text` writes), as strings when raw."""
        sections = {
            "printer": {"kinematics": "cartesian", "max_velocity": 300, "max_accel": 3000},
            "virtual_sdcard": {"path": self.gcodes},
            "pause_resume": {},
            "display_status": {},
            "idle_timeout": {"timeout": IDLE_TIMEOUT},
            "extruder": {"min_extrude_temp": 170, "max_temp": 260},
            "heater_bed": {"max_temp": 120},
        }
        if raw:
            return {name: {key: str(value) for key, value in options.items()} for name, options in sections.items()}
        return sections

    def config_text(self):
        lines = ["# The Klippy stand-in's configuration (Tests/Printers/klippy_standin.py); it reads none of it."]
        for name, options in self.config_sections(raw=True).items():
            lines.append("[%s]" % name)
            lines += ["%s: %s" % item for item in options.items()]
            lines.append("")
        return "\n".join(lines)


def available_memory_kb():
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# -- commands (KGC) --------------------------------------------------------------------------

def _set_temperature(heater_name, wait):
    def run(printer, params, line):
        heater = printer.heaters[heater_name]
        heater.target = max(0.0, number(params, "S", 0.0))
        if wait and not heater.reached() and not (printer.job and printer.job.state == "printing"):
            # From the console Klippy would block the G-code queue until the heater is up; the
            # stand-in answers at once and lets the heater rise.
            printer.respond("// Waiting for %s to reach %.0f" % (heater_name, heater.target))
    return run


def _move(printer, params, line):
    for index, axis in enumerate("XYZ"):
        value = number(params, axis)
        if value is not None:
            printer.position[index] = value if printer.absolute else printer.position[index] + value
    extrude = number(params, "E")
    if extrude is not None:
        before = printer.position[3]
        printer.position[3] = extrude if printer.absolute_extrude else before + extrude
        if printer.job and printer.position[3] > before:
            printer.job.filament_used += printer.position[3] - before
    feed = number(params, "F")
    if feed is not None:
        printer.speed = feed / 60.0


def _set_position(printer, params, line):
    for index, axis in enumerate("XYZE"):
        value = number(params, axis)
        if value is not None:
            printer.position[index] = value


def _m73(printer, params, line):  # KGC [display]: M73 P<percent>
    percent = number(params, "P")
    if percent is not None:
        printer.m73_progress = max(0.0, min(100.0, percent)) / 100.0
        printer.m73_at = printer.clock()


def _m117(printer, params, line):  # KGC [display]: M117 <message>
    code = line.split(";", 1)[0].strip()
    printer.display_message = code[4:].strip() if len(code) > 4 else ""


def _print_stats_info(printer, params, line):  # KGC SET_PRINT_STATS_INFO
    if "TOTAL_LAYER" in params:
        printer.total_layer = int(number(params, "TOTAL_LAYER"))
    if "CURRENT_LAYER" in params:
        printer.current_layer = int(number(params, "CURRENT_LAYER"))


def _sdcard_print_file(printer, params, line):  # KGC SDCARD_PRINT_FILE FILENAME=<filename>
    code = line.split(";", 1)[0]
    match = re.search(r"FILENAME=(\"[^\"]*\"|\S+)", code, re.IGNORECASE)
    if not match:
        raise GcodeError("Error on 'SDCARD_PRINT_FILE': missing FILENAME")
    printer.start_print(match.group(1).strip('"').lstrip("/"))


def _sdcard_reset_file(printer, params, line):  # KGC SDCARD_RESET_FILE; MPO print_stats note
    if printer.job and printer.job.state in ("printing", "paused"):
        raise GcodeError("SDCARD_RESET_FILE cannot be run from the sdcard")
    printer.job = None
    printer.total_layer = None
    printer.current_layer = None


def _m105(printer, params, line):
    e, b = printer.heaters["extruder"], printer.heaters["heater_bed"]
    printer.respond("ok B:%.1f /%.1f T0:%.1f /%.1f" % (b.temperature, b.target, e.temperature, e.target))


def _m112(printer, params, line):
    printer.fail("Shutdown due to M112 command", shutdown=True)


def _turn_off_heaters(printer, params, line):
    for heater in printer.heaters.values():
        heater.target = 0.0


def _restart(printer, params, line):
    printer.restart_requested = True


def _home(printer, params, line):
    printer.homed_axes = "xyz"


def _motors_off(printer, params, line):
    printer.homed_axes = ""


def _absolute(value, extrude_too):
    def run(printer, params, line):
        printer.absolute = value
        if extrude_too:
            printer.absolute_extrude = value
    return run


def _extrude_mode(value):
    def run(printer, params, line):
        printer.absolute_extrude = value
    return run


def _nothing(printer, params, line):
    pass


COMMANDS = {
    "G0": _move, "G1": _move, "G4": _nothing, "G21": _nothing, "G28": _home, "G90": _absolute(True, True),
    "G91": _absolute(False, False), "G92": _set_position, "M82": _extrude_mode(True), "M83": _extrude_mode(False),
    "M104": _set_temperature("extruder", False), "M109": _set_temperature("extruder", True),
    "M140": _set_temperature("heater_bed", False), "M190": _set_temperature("heater_bed", True),
    "M105": _m105, "M106": _nothing, "M107": _nothing, "M84": _motors_off, "M18": _motors_off,
    "M73": _m73, "M117": _m117, "SET_PRINT_STATS_INFO": _print_stats_info,
    "SDCARD_PRINT_FILE": _sdcard_print_file, "SDCARD_RESET_FILE": _sdcard_reset_file,
    "PAUSE": lambda printer, params, line: printer.pause(),
    "RESUME": lambda printer, params, line: printer.resume(),
    "CANCEL_PRINT": lambda printer, params, line: printer.cancel(),
    "M112": _m112, "TURN_OFF_HEATERS": _turn_off_heaters,
    "RESTART": _restart, "FIRMWARE_RESTART": _restart,  # KGC: reload the config, reset the host
}


def monotonic_clock(speed):
    """A timeline clock: `speed` timeline seconds per real second from now; `speed` may change."""
    state = {"origin": time.monotonic(), "base": 0.0, "speed": speed}

    def now():
        return state["base"] + (time.monotonic() - state["origin"]) * state["speed"]

    def set_speed(value):
        state["base"] = now()
        state["origin"] = time.monotonic()
        state["speed"] = value

    def restart(value):
        state["base"] = 0.0
        state["origin"] = time.monotonic()
        state["speed"] = value

    now.set_speed = set_speed
    now.restart = restart
    now.speed = lambda: state["speed"]
    return now
