#include "headway_systemd.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// sd-bus's ABI (sd-bus.h, stable since libsystemd 221; sd_bus_match_signal since 237,
// sd_bus_set_method_call_timeout since 240): only what is used here.
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

static struct {
    int (*open_system)(sd_bus **);
    sd_bus *(*flush_close_unref)(sd_bus *);
    int (*set_method_call_timeout)(sd_bus *, uint64_t);
    int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *, sd_bus_message **, const char *, ...);
    int (*call_method_async)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *, sd_bus_message_handler_t, void *, const char *, ...);
    const sd_bus_error *(*message_get_error)(sd_bus_message *);
    int (*match_signal)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *, sd_bus_message_handler_t, void *);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *);
    int (*get_fd)(sd_bus *);
    int (*get_events)(sd_bus *);
    int (*get_timeout)(sd_bus *, uint64_t *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*message_read)(sd_bus_message *, const char *, ...);
    int (*message_read_basic)(sd_bus_message *, char, void *);
    int (*message_enter_container)(sd_bus_message *, char, const char *);
    int (*message_exit_container)(sd_bus_message *);
    int (*message_peek_type)(sd_bus_message *, char *, const char **);
    int (*message_skip)(sd_bus_message *, const char *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    const char *(*message_get_path)(sd_bus_message *);
    const char *(*message_get_member)(sd_bus_message *);
    void (*error_free)(sd_bus_error *);
} lib;

static char load_error[256];
static int loaded = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND(field, name)                                                             \
    if (!(*(void **)&lib.field = dlsym(handle, name))) {                               \
        snprintf(load_error, sizeof load_error, "libsystemd.so.0 has no %s", name);   \
        return;                                                                        \
    }
    FIND(open_system, "sd_bus_open_system")
    FIND(flush_close_unref, "sd_bus_flush_close_unref")
    FIND(call_method, "sd_bus_call_method")
    FIND(call_method_async, "sd_bus_call_method_async")
    FIND(message_get_error, "sd_bus_message_get_error")
    FIND(match_signal, "sd_bus_match_signal")
    FIND(slot_unref, "sd_bus_slot_unref")
    FIND(get_fd, "sd_bus_get_fd")
    FIND(get_events, "sd_bus_get_events")
    FIND(get_timeout, "sd_bus_get_timeout")
    FIND(process, "sd_bus_process")
    FIND(message_read, "sd_bus_message_read")
    FIND(message_read_basic, "sd_bus_message_read_basic")
    FIND(message_enter_container, "sd_bus_message_enter_container")
    FIND(message_exit_container, "sd_bus_message_exit_container")
    FIND(message_peek_type, "sd_bus_message_peek_type")
    FIND(message_skip, "sd_bus_message_skip")
    FIND(message_unref, "sd_bus_message_unref")
    FIND(message_get_path, "sd_bus_message_get_path")
    FIND(message_get_member, "sd_bus_message_get_member")
    FIND(error_free, "sd_bus_error_free")
#undef FIND
    // Optional (libsystemd 240): without it a call waits sd-bus's default of 25 s at most.
    *(void **)&lib.set_method_call_timeout = dlsym(handle, "sd_bus_set_method_call_timeout");
    loaded = 1;
}

int hw_sd_load(void) {
    pthread_once(&once, load);
    return loaded ? 0 : -1;
}

const char *hw_sd_load_error(void) { return load_error; }

// org.freedesktop.systemd1(5): the manager's name, object and interfaces.
static const char *const SYSTEMD = "org.freedesktop.systemd1";
static const char *const MANAGER_PATH = "/org/freedesktop/systemd1";
static const char *const MANAGER = "org.freedesktop.systemd1.Manager";
static const char *const UNIT = "org.freedesktop.systemd1.Unit";
static const char *const PROPERTIES = "org.freedesktop.DBus.Properties";

struct queued {
    hw_sd_event event;
    struct queued *next;
};

struct watched {
    char *path;
    sd_bus_slot *slot;
};

// A watch under way: LoadUnit, then GetAll of the Unit interface, then of the type's own.
struct pending {
    hw_sd *sd;
    hw_sd_event event;
    int stage;
    struct pending *next;
};

struct hw_sd {
    sd_bus *bus;
    sd_bus_slot *manager_slot;
    struct watched *watched;
    size_t watched_count;
    struct queued *head, *tail;
    struct pending *pending;
    char error[512];
};

static char *copy(const char *text) { return text ? strdup(text) : NULL; }

static int fail(hw_sd *sd, int code, sd_bus_error *error, const char *doing) {
    if (error && error->name) {
        snprintf(sd->error, sizeof sd->error, "%s: %s (%s)", doing, error->message ? error->message : "", error->name);
    } else {
        snprintf(sd->error, sizeof sd->error, "%s: %s", doing, strerror(code < 0 ? -code : code));
    }
    if (error) lib.error_free(error);
    return code < 0 ? code : -code;
}

const char *hw_sd_error(hw_sd *sd) { return sd->error; }

void hw_sd_event_clear(hw_sd_event *event) {
    char **strings[] = {&event->unit, &event->path, &event->job_result, &event->error, &event->load_state, &event->active_state, &event->sub_state,
                        &event->description, &event->triggered_by, &event->type, &event->result, &event->timer_unit};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) free(*strings[i]);
    memset(event, 0, sizeof *event);
}

static void enqueue(hw_sd *sd, const hw_sd_event *event) {
    struct queued *item = calloc(1, sizeof *item);
    if (!item) return;
    item->event = *event;
    if (sd->tail) sd->tail->next = item; else sd->head = item;
    sd->tail = item;
}

int hw_sd_next(hw_sd *sd, hw_sd_event *event) {
    struct queued *item = sd->head;
    if (!item) return 0;
    sd->head = item->next;
    if (!sd->head) sd->tail = NULL;
    *event = item->event;
    free(item);
    return 1;
}

// Reads a variant holding a string array as one text, the names joined by newlines.
static int read_names(sd_bus_message *m, char **out) {
    int r = lib.message_enter_container(m, 'a', "s");
    if (r < 0) return r;
    size_t length = 0;
    char *joined = calloc(1, 1);
    const char *name;
    while (joined && (r = lib.message_read_basic(m, 's', &name)) > 0) {
        size_t add = strlen(name);
        char *grown = realloc(joined, length + add + 2);
        if (!grown) break;
        joined = grown;
        if (length > 0) joined[length++] = '\n';
        memcpy(joined + length, name, add + 1);
        length += add;
    }
    free(*out);
    *out = joined;
    if (r < 0) return r;
    return lib.message_exit_container(m);
}

// The value of one property ("sv" inside a dictionary entry), kept when it is one this side
// knows (org.freedesktop.systemd1(5), "Unit Objects", "Service Unit Objects", "Timer Unit
// Objects"), skipped otherwise.
static int read_property(sd_bus_message *m, hw_sd_event *event) {
    const char *name;
    int r = lib.message_read_basic(m, 's', &name);
    if (r < 0) return r;
    char type;
    const char *contents;
    r = lib.message_peek_type(m, &type, &contents);
    if (r < 0) return r;
    struct { const char *name; char **field; } texts[] = {
        {"LoadState", &event->load_state}, {"ActiveState", &event->active_state}, {"SubState", &event->sub_state},
        {"Description", &event->description}, {"Type", &event->type}, {"Result", &event->result}, {"Unit", &event->timer_unit},
    };
    struct { const char *name; uint64_t *field; unsigned bit; } times[] = {
        {"InactiveExitTimestampMonotonic", &event->inactive_exit_monotonic, HW_SD_INACTIVE_EXIT},
        {"NextElapseUSecRealtime", &event->next_elapse_realtime, HW_SD_NEXT_REALTIME},
        {"NextElapseUSecMonotonic", &event->next_elapse_monotonic, HW_SD_NEXT_MONOTONIC},
        {"LastTriggerUSec", &event->last_trigger_realtime, HW_SD_LAST_TRIGGER},
    };
    if (strcmp(contents, "s") == 0) {
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
            if (strcmp(name, texts[i].name) != 0) continue;
            const char *value;
            if ((r = lib.message_enter_container(m, 'v', "s")) < 0) return r;
            if ((r = lib.message_read_basic(m, 's', &value)) < 0) return r;
            free(*texts[i].field);
            *texts[i].field = copy(value);
            return lib.message_exit_container(m);
        }
    } else if (strcmp(contents, "t") == 0) {
        for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
            if (strcmp(name, times[i].name) != 0) continue;
            if ((r = lib.message_enter_container(m, 'v', "t")) < 0) return r;
            if ((r = lib.message_read_basic(m, 't', times[i].field)) < 0) return r;
            event->fields |= times[i].bit;
            return lib.message_exit_container(m);
        }
    } else if (strcmp(contents, "i") == 0 && (strcmp(name, "ExecMainCode") == 0 || strcmp(name, "ExecMainStatus") == 0)) {
        int32_t *field = name[8] == 'C' ? &event->exec_main_code : &event->exec_main_status;
        if ((r = lib.message_enter_container(m, 'v', "i")) < 0) return r;
        if ((r = lib.message_read_basic(m, 'i', field)) < 0) return r;
        event->fields |= HW_SD_EXEC_MAIN;
        return lib.message_exit_container(m);
    } else if (strcmp(contents, "as") == 0 && strcmp(name, "TriggeredBy") == 0) {
        if ((r = lib.message_enter_container(m, 'v', "as")) < 0) return r;
        if ((r = read_names(m, &event->triggered_by)) < 0) return r;
        return lib.message_exit_container(m);
    }
    return lib.message_skip(m, "v");
}

// A dictionary of properties (a{sv}): GetAll's reply, PropertiesChanged's second argument.
static int read_properties(sd_bus_message *m, hw_sd_event *event) {
    int r = lib.message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = lib.message_enter_container(m, 'e', "sv")) > 0) {
        if ((r = read_property(m, event)) < 0) return r;
        if ((r = lib.message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    return lib.message_exit_container(m);
}

// org.freedesktop.DBus.Properties.PropertiesChanged(s interface, a{sv} changed, as invalidated)
// on a watched unit's path. systemd sends the unit type's interface first, then the Unit one
// (src/core/dbus-unit.c, send_changed_signal), so a Result arrives before the ActiveState it
// explains.
static int on_properties_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hw_sd *sd = userdata;
    const char *path = lib.message_get_path(m);
    const char *interface;
    // A change between a watch's first answer and its last belongs to that watch's answer, in
    // the order it came: queued on its own it would reach a reader that does not know the path
    // yet (and a timer started meanwhile would never show its next elapse).
    for (struct pending *p = sd->pending; p && path; p = p->next) {
        if (!p->event.path || strcmp(p->event.path, path) != 0) continue;
        if (lib.message_read_basic(m, 's', &interface) >= 0) read_properties(m, &p->event);
        return 0;
    }
    hw_sd_event event = {.kind = HW_SD_PROPERTIES};
    if (lib.message_read_basic(m, 's', &interface) < 0 || read_properties(m, &event) < 0) {
        hw_sd_event_clear(&event);
        return 0;
    }
    event.path = copy(path);
    enqueue(sd, &event);
    return 0;
}

// The manager's signals: JobNew(u id, o job, s unit), JobRemoved(u id, o job, s unit, s result),
// UnitNew(s id, o unit), UnitRemoved(s id, o unit), Reloading(b active).
static int on_manager_signal(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hw_sd *sd = userdata;
    const char *member = lib.message_get_member(m);
    if (!member) return 0;
    hw_sd_event event = {0};
    uint32_t id;
    const char *job, *unit, *result, *path;
    int active;
    if (strcmp(member, "JobNew") == 0 && lib.message_read(m, "uos", &id, &job, &unit) >= 0) {
        event.kind = HW_SD_JOB_NEW;
        event.unit = copy(unit);
    } else if (strcmp(member, "JobRemoved") == 0 && lib.message_read(m, "uoss", &id, &job, &unit, &result) >= 0) {
        event.kind = HW_SD_JOB_REMOVED;
        event.unit = copy(unit);
        event.job_result = copy(result);
    } else if ((strcmp(member, "UnitNew") == 0 || strcmp(member, "UnitRemoved") == 0) && lib.message_read(m, "so", &unit, &path) >= 0) {
        event.kind = member[4] == 'N' ? HW_SD_UNIT_NEW : HW_SD_UNIT_REMOVED;
        event.unit = copy(unit);
        event.path = copy(path);
    } else if (strcmp(member, "Reloading") == 0 && lib.message_read(m, "b", &active) >= 0 && !active) {
        event.kind = HW_SD_RELOADED;
    } else {
        return 0;
    }
    enqueue(sd, &event);
    return 0;
}

int hw_sd_open(hw_sd **out) {
    *out = NULL;
    if (!loaded) return -ENOSYS;
    hw_sd *sd = calloc(1, sizeof *sd);
    if (!sd) return -ENOMEM;
    *out = sd;
    int r = lib.open_system(&sd->bus);
    if (r < 0) return fail(sd, r, NULL, "connecting to the system bus");
    // The one call made waiting (Subscribe, at connection) waits 10 s at most; the others are
    // asynchronous and may take their time (a busy PID 1 answers a GetAll slowly).
    if (lib.set_method_call_timeout) lib.set_method_call_timeout(sd->bus, 10 * 1000 * 1000);
    r = lib.match_signal(sd->bus, &sd->manager_slot, SYSTEMD, MANAGER_PATH, MANAGER, NULL, on_manager_signal, sd);
    if (r < 0) return fail(sd, r, NULL, "asking for systemd's signals");
    sd_bus_error error = {0};
    sd_bus_message *reply = NULL;
    // "Subscribe() enables most bus signals to be sent out" (org.freedesktop.systemd1(5)).
    r = lib.call_method(sd->bus, SYSTEMD, MANAGER_PATH, MANAGER, "Subscribe", &error, &reply, "");
    if (reply) lib.message_unref(reply);
    if (r < 0) return fail(sd, r, &error, "Manager.Subscribe");
    return 0;
}

void hw_sd_close(hw_sd *sd) {
    if (!sd) return;
    for (size_t i = 0; i < sd->watched_count; i++) {
        lib.slot_unref(sd->watched[i].slot);
        free(sd->watched[i].path);
    }
    free(sd->watched);
    if (sd->manager_slot) lib.slot_unref(sd->manager_slot);
    // Closing the bus drops the calls still under way without calling back: their state goes here.
    if (sd->bus) lib.flush_close_unref(sd->bus);
    while (sd->pending) {
        struct pending *next = sd->pending->next;
        hw_sd_event_clear(&sd->pending->event);
        free(sd->pending);
        sd->pending = next;
    }
    hw_sd_event event;
    while (hw_sd_next(sd, &event)) hw_sd_event_clear(&event);
    free(sd);
}

static void forget(hw_sd *sd, struct pending *done) {
    for (struct pending **link = &sd->pending; *link; link = &(*link)->next) {
        if (*link != done) continue;
        *link = done->next;
        free(done);
        return;
    }
}

// The watch is over: its answer queued, as loaded or failed.
static void finish(struct pending *p, const char *error) {
    hw_sd *sd = p->sd;
    if (error) {
        hw_sd_event failed = {.kind = HW_SD_FAILED, .unit = p->event.unit, .error = copy(error)};
        p->event.unit = NULL;
        hw_sd_event_clear(&p->event);
        enqueue(sd, &failed);
    } else {
        p->event.kind = HW_SD_LOADED;
        enqueue(sd, &p->event);
    }
    forget(sd, p);
}

static int follow_path(hw_sd *sd, const char *path) {
    for (size_t i = 0; i < sd->watched_count; i++) {
        if (strcmp(sd->watched[i].path, path) == 0) return 0;
    }
    struct watched *grown = realloc(sd->watched, (sd->watched_count + 1) * sizeof *grown);
    if (!grown) return -ENOMEM;
    sd->watched = grown;
    struct watched *entry = &sd->watched[sd->watched_count];
    entry->path = copy(path);
    int r = lib.match_signal(sd->bus, &entry->slot, SYSTEMD, path, PROPERTIES, "PropertiesChanged", on_properties_changed, sd);
    if (r < 0) {
        free(entry->path);
        return r;
    }
    sd->watched_count++;
    return 0;
}

static int on_watch_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

// The type's own interface, by the name's suffix (systemd.unit(5)).
static const char *type_interface(const char *unit) {
    const char *dot = strrchr(unit, '.');
    if (dot && strcmp(dot, ".service") == 0) return "org.freedesktop.systemd1.Service";
    if (dot && strcmp(dot, ".timer") == 0) return "org.freedesktop.systemd1.Timer";
    return NULL;
}

static int on_watch_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    struct pending *p = userdata;
    hw_sd *sd = p->sd;
    const sd_bus_error *error = lib.message_get_error(m);
    char text[512];
    if (error) {
        snprintf(text, sizeof text, "%s: %s (%s)", p->stage == 0 ? "Manager.LoadUnit" : "reading its properties", error->message ? error->message : "",
                 error->name ? error->name : "");
        finish(p, text);
        return 0;
    }
    int r;
    const char *next_interface = NULL;
    if (p->stage == 0) {
        const char *path;
        if (lib.message_read(m, "o", &path) < 0 || !(p->event.path = copy(path)) || follow_path(sd, path) < 0) {
            finish(p, "Manager.LoadUnit: an answer that could not be read");
            return 0;
        }
        next_interface = UNIT;
    } else {
        if (read_properties(m, &p->event) < 0) {
            finish(p, "its properties could not be read");
            return 0;
        }
        // A unit without a file has nothing more to say.
        int loaded = p->event.load_state && strcmp(p->event.load_state, "loaded") == 0;
        if (p->stage == 1 && loaded) next_interface = type_interface(p->event.unit);
    }
    if (!next_interface) {
        finish(p, NULL);
        return 0;
    }
    p->stage++;
    r = lib.call_method_async(sd->bus, NULL, SYSTEMD, p->event.path, PROPERTIES, "GetAll", on_watch_reply, p, "s", next_interface);
    if (r < 0) {
        snprintf(text, sizeof text, "reading its properties: %s", strerror(-r));
        finish(p, text);
    }
    return 0;
}

int hw_sd_watch(hw_sd *sd, const char *unit) {
    struct pending *p = calloc(1, sizeof *p);
    if (!p || !(p->event.unit = copy(unit))) {
        free(p);
        return fail(sd, -ENOMEM, NULL, "Manager.LoadUnit");
    }
    p->sd = sd;
    p->event.kind = HW_SD_PROPERTIES;
    int r = lib.call_method_async(sd->bus, NULL, SYSTEMD, MANAGER_PATH, MANAGER, "LoadUnit", on_watch_reply, p, "s", unit);
    if (r < 0) {
        hw_sd_event_clear(&p->event);
        free(p);
        return fail(sd, r, NULL, "Manager.LoadUnit");
    }
    p->next = sd->pending;
    sd->pending = p;
    return 0;
}

void hw_sd_unwatch(hw_sd *sd, const char *path) {
    for (size_t i = 0; i < sd->watched_count; i++) {
        if (strcmp(sd->watched[i].path, path) != 0) continue;
        lib.slot_unref(sd->watched[i].slot);
        free(sd->watched[i].path);
        sd->watched[i] = sd->watched[--sd->watched_count];
        return;
    }
}

int hw_sd_fd(hw_sd *sd) { return lib.get_fd(sd->bus); }
int hw_sd_events(hw_sd *sd) { return lib.get_events(sd->bus); }

uint64_t hw_sd_deadline(hw_sd *sd) {
    uint64_t usec = UINT64_MAX;
    if (lib.get_timeout(sd->bus, &usec) < 0) return UINT64_MAX;
    return usec;
}

int hw_sd_process(hw_sd *sd) {
    int r;
    // sd_bus_process handles one message per call: on until nothing is left.
    while ((r = lib.process(sd->bus, NULL)) > 0) {}
    return r < 0 ? fail(sd, r, NULL, "the system bus") : 0;
}
