"""Timelines for the Klippy stand-in: what happens to the printer when, in timeline seconds.

A timeline is a JSON object (Tests/Printers/README.md, "Timelines"):

    {
      "description": "what the timeline shows",
      "ambient": 22.0,                      # °C the heaters start at and cool to
      "heat_rate": {"extruder": 2.5, "heater_bed": 1.0},   # °C per timeline second while heating
      "cool_rate": 0.5,                     # °C per timeline second while cooling
      "print_seconds": 600,                 # how long a print started by SDCARD_PRINT_FILE takes
      "events": [
        {"at": 0, "print": "cura-m73.gcode", "seconds": 600},
        {"at": 120, "pause": "timeline"},
        {"at": 150, "resume": "timeline"},
        {"at": 400, "cancel": "timeline"},
        {"at": 300, "error": "Heater extruder not heating at expected rate", "shutdown": true},
        {"at": 200, "disconnect": {"wall_seconds": 2}},
        {"at": 10, "message": "M117 text"}
      ]
    }

`seconds` is the time the print takes after its heaters are up (the part of the file after its last
M109/M190 plays at an even byte rate over it). Events are applied in the order of `at`. Every
problem is reported with its place and what is expected, as a TimelineError.
"""

import json

EVENT_KINDS = ("print", "pause", "resume", "cancel", "error", "disconnect", "message")
# The most events a timeline may hold: the stand-in keeps them all in memory.
MAX_EVENTS = 1000


class TimelineError(ValueError):
    pass


def _number(value, where, meaning, minimum=0.0):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
        raise TimelineError("%s: %r is not a number of at least %g (%s)" % (where, value, minimum, meaning))
    return float(value)


def check(timeline):
    """Checks a parsed timeline and returns it with its defaults filled in and its events sorted."""
    if not isinstance(timeline, dict):
        raise TimelineError("the timeline must be a JSON object with an 'events' list")
    known = {"description", "ambient", "heat_rate", "cool_rate", "print_seconds", "events"}
    for key in timeline:
        if key not in known:
            raise TimelineError("timeline.%s: unknown key (known: %s)" % (key, ", ".join(sorted(known))))
    result = {
        "description": timeline.get("description", ""),
        "ambient": _number(timeline.get("ambient", 22.0), "timeline.ambient", "°C the heaters start at", -40),
        "cool_rate": _number(timeline.get("cool_rate", 0.5), "timeline.cool_rate", "°C per timeline second", 0.001),
        "print_seconds": _number(timeline.get("print_seconds", 600), "timeline.print_seconds",
                                 "timeline seconds a print started by SDCARD_PRINT_FILE takes", 0.001),
    }
    rates = timeline.get("heat_rate", {})
    if not isinstance(rates, dict):
        raise TimelineError("timeline.heat_rate: %r is not an object like {\"extruder\": 2.5, \"heater_bed\": 1.0}" % (rates,))
    result["heat_rate"] = {
        "extruder": _number(rates.get("extruder", 2.5), "timeline.heat_rate.extruder", "°C per timeline second", 0.001),
        "heater_bed": _number(rates.get("heater_bed", 1.0), "timeline.heat_rate.heater_bed", "°C per timeline second", 0.001),
    }
    events = timeline.get("events", [])
    if not isinstance(events, list):
        raise TimelineError("timeline.events: %r is not a list of events" % (events,))
    if len(events) > MAX_EVENTS:
        raise TimelineError("timeline.events: %d events, more than the %d allowed" % (len(events), MAX_EVENTS))
    checked = []
    for n, event in enumerate(events):
        checked.append(check_event(event, "timeline.events[%d]" % n, need_at=True))
    result["events"] = sorted(checked, key=lambda event: event["at"])
    return result


def check_event(event, where, need_at):
    if not isinstance(event, dict):
        raise TimelineError("%s: %r is not an object" % (where, event))
    kinds = [kind for kind in EVENT_KINDS if kind in event]
    if len(kinds) != 1:
        raise TimelineError("%s: needs exactly one of %s, has %s" % (where, ", ".join(EVENT_KINDS), ", ".join(kinds) or "none"))
    kind = kinds[0]
    checked = {"kind": kind}
    if need_at or "at" in event:
        if "at" not in event:
            raise TimelineError("%s: 'at' is missing (timeline seconds from the start)" % where)
        checked["at"] = _number(event["at"], where + ".at", "timeline seconds from the start")
    value = event[kind]
    if kind == "print":
        if not isinstance(value, str) or not value or value.startswith("/") or ".." in value.split("/"):
            raise TimelineError("%s.print: %r is not a file name in the gcodes folder" % (where, value))
        checked["file"] = value
        if "seconds" in event:
            checked["seconds"] = _number(event["seconds"], where + ".seconds", "timeline seconds the print takes after heating", 0.001)
    elif kind in ("pause", "resume", "cancel"):
        checked["via"] = value if isinstance(value, str) else "timeline"
    elif kind == "error":
        if not isinstance(value, str) or not value:
            raise TimelineError("%s.error: %r is not the error's message" % (where, value))
        checked["message"] = value
        shutdown = event.get("shutdown", False)
        if not isinstance(shutdown, bool):
            raise TimelineError("%s.shutdown: %r is not true or false (whether Klippy shuts down)" % (where, shutdown))
        checked["shutdown"] = shutdown
    elif kind == "disconnect":
        if not isinstance(value, dict) or "wall_seconds" not in value:
            raise TimelineError("%s.disconnect: %r is not an object like {\"wall_seconds\": 2}" % (where, value))
        checked["wall_seconds"] = _number(value["wall_seconds"], where + ".disconnect.wall_seconds", "real seconds the socket is away", 0.0)
    elif kind == "message":
        if not isinstance(value, str):
            raise TimelineError("%s.message: %r is not the display message (as M117 sets it)" % (where, value))
        checked["text"] = value
    return checked


def load(path):
    try:
        with open(path, encoding="utf-8") as source:
            parsed = json.load(source)
    except OSError as problem:
        raise TimelineError("%s: cannot be read (%s)" % (path, problem.strerror))
    except ValueError as problem:
        raise TimelineError("%s: not JSON (%s)" % (path, problem))
    try:
        return check(parsed)
    except TimelineError as problem:
        raise TimelineError("%s: %s" % (path, problem))
