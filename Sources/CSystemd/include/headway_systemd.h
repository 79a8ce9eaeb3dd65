// A thin C entry to libsystemd's sd-bus (Debian's libsystemd0), loaded with dlopen the first time
// units are watched: the service starts and works without it, and the build needs no
// libsystemd-dev. It asks systemd (org.freedesktop.systemd1 on the system bus) about the watched
// units and follows their changes, walking the D-Bus messages itself and handing out plain values:
// a unit's state, a job's end. No policy lives here: what a state means for a job is the Swift
// side's (HeadwayService's UnitWatch).
//
// Every call returns 0 or more on success, a negative errno on failure (hw_sd_error says more
// after a failed call: a D-Bus error's name and message). Not thread-safe: one owner, one loop.
#ifndef HEADWAY_SYSTEMD_H
#define HEADWAY_SYSTEMD_H

#include <stdint.h>

typedef struct hw_sd hw_sd;

/// Loads libsystemd.so.0 once. 0 on success; else -1 and hw_sd_load_error() says why.
int hw_sd_load(void);
const char *hw_sd_load_error(void);

/// What a message from systemd said.
enum hw_sd_kind {
    /// A watched unit's properties (from GetAll, or a PropertiesChanged signal: only those present).
    HW_SD_PROPERTIES = 1,
    /// Manager.JobNew: a job was queued for `unit`.
    HW_SD_JOB_NEW = 2,
    /// Manager.JobRemoved: a job of `unit` ended with `job_result` (done, canceled, timeout, failed,
    /// dependency, skipped).
    HW_SD_JOB_REMOVED = 3,
    /// Manager.UnitNew / UnitRemoved: `unit` was loaded into or dropped from systemd's memory.
    HW_SD_UNIT_NEW = 4,
    HW_SD_UNIT_REMOVED = 5,
    /// Manager.Reloading(false): a daemon-reload is over (unit files may have come or gone).
    HW_SD_RELOADED = 6,
    /// hw_sd_watch's answer: `unit`'s `path` and properties, or (HW_SD_FAILED) `error`.
    HW_SD_LOADED = 7,
    HW_SD_FAILED = 8,
};

/// Which numeric fields of an hw_sd_event are present.
enum hw_sd_field {
    HW_SD_INACTIVE_EXIT = 1 << 0,
    HW_SD_NEXT_REALTIME = 1 << 3,
    HW_SD_NEXT_MONOTONIC = 1 << 4,
    HW_SD_LAST_TRIGGER = 1 << 5,
    HW_SD_EXEC_MAIN = 1 << 6,
};

/// One message, as plain values. Strings are NULL when the message did not carry them; every
/// string belongs to the event until hw_sd_event_clear.
typedef struct {
    int kind;
    /// The unit's name (Manager signals), or NULL (properties: see path).
    char *unit;
    /// The unit's object path (properties, UnitNew, UnitRemoved).
    char *path;
    char *job_result;
    /// Why a watch failed (HW_SD_FAILED).
    char *error;
    /// org.freedesktop.systemd1.Unit
    char *load_state, *active_state, *sub_state, *description;
    /// TriggeredBy, the names joined by newlines.
    char *triggered_by;
    /// org.freedesktop.systemd1.Service: Type, Result; org.freedesktop.systemd1.Timer: Unit, Result.
    char *type, *result, *timer_unit;
    unsigned fields;
    /// When the unit last left inactive: CLOCK_MONOTONIC microseconds (0: not on this boot).
    uint64_t inactive_exit_monotonic;
    /// A timer's next elapse: CLOCK_REALTIME and CLOCK_MONOTONIC microseconds (0: none on that clock).
    uint64_t next_elapse_realtime, next_elapse_monotonic;
    /// A timer's last trigger, CLOCK_REALTIME microseconds (0: never).
    uint64_t last_trigger_realtime;
    /// The main process's end: a waitid(2) code (1 exited, 2 killed, 3 dumped) and status.
    int32_t exec_main_code, exec_main_status;
} hw_sd_event;

/// Connects to the system bus and asks systemd to send its signals (Manager.Subscribe).
int hw_sd_open(hw_sd **bus);
void hw_sd_close(hw_sd *bus);
/// The error of the last failed call, in words.
const char *hw_sd_error(hw_sd *bus);

/// Asks for `unit` (Manager.LoadUnit), follows its PropertiesChanged signals and reads its
/// properties, without waiting: the answer is queued as HW_SD_LOADED (or HW_SD_FAILED) once the
/// calls are answered. A unit without a file loads as LoadState "not-found".
int hw_sd_watch(hw_sd *bus, const char *unit);
/// Stops following the unit at `path`.
void hw_sd_unwatch(hw_sd *bus, const char *path);

/// For poll(2): the bus's descriptor, the events to wait for (POLLIN, POLLOUT), and when to call
/// hw_sd_process at the latest (CLOCK_MONOTONIC microseconds; UINT64_MAX: no deadline).
int hw_sd_fd(hw_sd *bus);
int hw_sd_events(hw_sd *bus);
uint64_t hw_sd_deadline(hw_sd *bus);
/// Reads and dispatches everything that arrived; the messages are queued for hw_sd_next.
/// A negative result: the connection is gone (the bus restarted).
int hw_sd_process(hw_sd *bus);
/// The oldest queued message: 1 and `event` filled (clear it after use), or 0 when none.
int hw_sd_next(hw_sd *bus, hw_sd_event *event);
void hw_sd_event_clear(hw_sd_event *event);

#endif
