#include "headway_web.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

// libmicrohttpd's ABI (microhttpd.h, stable since 0.9.x): only what is used here, with the
// numbers microhttpd.h gives them.
struct MHD_Daemon;
struct MHD_Connection;
struct MHD_Response;
typedef int (*access_handler)(void *, struct MHD_Connection *, const char *, const char *, const char *, const char *, size_t *, void **);
typedef void (*completed_handler)(void *, struct MHD_Connection *, void **, int);
typedef long (*reader_callback)(void *, uint64_t, char *, size_t);
typedef void (*reader_free)(void *);
typedef int (*accept_policy)(void *, const struct sockaddr *, socklen_t);
typedef int (*value_iterator)(void *, int, const char *, const char *);

enum {
    MHD_NO = 0, MHD_YES = 1,
    USE_ERROR_LOG = 1, USE_TLS = 2, USE_THREAD_PER_CONNECTION = 4, USE_INTERNAL_POLLING_THREAD = 8, USE_IPV6 = 16, USE_POLL = 64,
    OPTION_END = 0, OPTION_CONNECTION_MEMORY_LIMIT = 1, OPTION_CONNECTION_LIMIT = 2, OPTION_CONNECTION_TIMEOUT = 3,
    OPTION_NOTIFY_COMPLETED = 4, OPTION_PER_IP_CONNECTION_LIMIT = 5, OPTION_SOCK_ADDR = 6, OPTION_HTTPS_MEM_KEY = 8,
    OPTION_HTTPS_MEM_CERT = 9, OPTION_EXTERNAL_LOGGER = 13, OPTION_ARRAY = 15, OPTION_THREAD_STACK_SIZE = 19,
    OPTION_NOTIFY_CONNECTION = 27,
    HEADER_KIND = 1, CONNECTION_INFO_CLIENT_ADDRESS = 2, CONNECTION_INFO_CONNECTION_FD = 6, CONNECTION_INFO_SOCKET_CONTEXT = 7,
    DAEMON_INFO_BIND_PORT = 6, RESPMEM_MUST_COPY = 2, CONNECTION_NOTIFY_STARTED = 0, CONNECTION_NOTIFY_CLOSED = 1,
};
/// One entry of an OPTION_ARRAY list: a number in `value`, a pointer in `ptr_value`, or, for an
/// option taking a function and its context, the function in `value` and the context in `ptr_value`.
struct MHD_OptionItem {
    int option;
    intptr_t value;
    void *ptr_value;
};
#define SIZE_UNKNOWN ((uint64_t)-1LL)
#define READER_END_OF_STREAM ((long)-1)
#define READER_END_WITH_ERROR ((long)-2)

static struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, accept_policy, void *, access_handler, void *, ...);
    void (*stop_daemon)(struct MHD_Daemon *);
    const void *(*get_daemon_info)(struct MHD_Daemon *, int, ...);
    const void *(*get_connection_info)(struct MHD_Connection *, int, ...);
    const char *(*lookup_connection_value)(struct MHD_Connection *, int, const char *);
    int (*get_connection_values)(struct MHD_Connection *, int, value_iterator, void *);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, int);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, reader_callback, void *, reader_free);
    int (*add_response_header)(struct MHD_Response *, const char *, const char *);
    int (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    void (*destroy_response)(struct MHD_Response *);
    const char *(*get_version)(void);
} lib;

static int loaded;
static char load_error[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "%s (install libmicrohttpd12)", dlerror());
        return;
    }
#define LOAD(field, name)                                                                        \
    *(void **)&lib.field = dlsym(handle, name);                                                  \
    if (!lib.field) {                                                                            \
        snprintf(load_error, sizeof load_error, "libmicrohttpd.so.12 has no %s", name);          \
        return;                                                                                  \
    }
    LOAD(start_daemon, "MHD_start_daemon")
    LOAD(stop_daemon, "MHD_stop_daemon")
    LOAD(get_daemon_info, "MHD_get_daemon_info")
    LOAD(get_connection_info, "MHD_get_connection_info")
    LOAD(lookup_connection_value, "MHD_lookup_connection_value")
    LOAD(get_connection_values, "MHD_get_connection_values")
    LOAD(create_response_from_buffer, "MHD_create_response_from_buffer")
    LOAD(create_response_from_callback, "MHD_create_response_from_callback")
    LOAD(add_response_header, "MHD_add_response_header")
    LOAD(queue_response, "MHD_queue_response")
    LOAD(destroy_response, "MHD_destroy_response")
    LOAD(get_version, "MHD_get_version")
#undef LOAD
    loaded = 1;
}

int hw_web_load(void) {
    pthread_once(&once, load);
    return loaded ? 0 : -1;
}

const char *hw_web_load_error(void) { return load_error; }

const char *hw_web_version(void) { return loaded ? lib.get_version() : ""; }

/// A connection as the shim watches it (libmicrohttpd's socket context for it). Until its request
/// is in, a connection has a deadline: libmicrohttpd's own timeout counts only silence, so a client
/// sending a byte every few seconds would otherwise hold its place for ever.
typedef struct watched {
    struct watched *previous, *next;
    int fd;
    /// Who it is from, as counted against `waiting_per_address` (see client_key).
    uint8_t client[16];
    /// A request is in and being answered: its answer (an event stream's too) takes what it takes.
    int answering;
    /// Shut down here; libmicrohttpd sees the end and closes it.
    int cut;
    /// When it opened, or its last answer was sent: its request must be in by then + request_seconds.
    double waiting_since;
} watched;

struct hw_web {
    struct MHD_Daemon *daemon;
    hw_web_handler handler;
    void *context;
    char *cert;
    char *key;
    char last_log[256];

    hw_web_limits limits;
    /// Guards the list below, and every shutdown of a watched socket: libmicrohttpd notifies a
    /// connection's close (under this lock) before it closes the socket, so a socket is never
    /// shut down after its number may have been reused.
    pthread_mutex_t guard;
    pthread_cond_t changed;
    pthread_t watchdog;
    int stopping;
    /// Every connection, in the order they began waiting for a request (so the first one waiting
    /// is the one that has waited longest, and the next to reach its deadline).
    watched *first, *last;
    /// Connections not cut.
    unsigned live;
};

/// A request's body as it arrives, kept until the last call of the access handler.
typedef struct {
    uint8_t *body;
    size_t length;
    int too_large;
} upload;

struct hw_web_stream {
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    char *buffer;
    size_t start, length, capacity, limit;
    /// Bytes the connection has taken from the buffer since the stream began (heartbeats aside).
    uint64_t taken;
    char *heartbeat;
    unsigned heartbeat_seconds;
    int closed;
    int references;
};

static void logger(void *context, const char *format, va_list arguments) {
    hw_web *web = context;
    vsnprintf(web->last_log, sizeof web->last_log, format, arguments);
}

// MARK: - Deadlines

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void unlink_watched(hw_web *web, watched *connection) {
    if (connection->previous) connection->previous->next = connection->next;
    else web->first = connection->next;
    if (connection->next) connection->next->previous = connection->previous;
    else web->last = connection->previous;
    connection->previous = connection->next = NULL;
}

static void append_watched(hw_web *web, watched *connection) {
    connection->previous = web->last;
    connection->next = NULL;
    if (web->last) web->last->next = connection;
    else web->first = connection;
    web->last = connection;
}

/// Who a client is, for counting its connections: an IPv4 address, or an IPv6 address's /64 (a
/// host is given a whole /64, so one client may have as many addresses as it likes within it).
static void client_key(const struct sockaddr *address, uint8_t key[16]) {
    memset(key, 0, 16);
    if (!address) return;
    if (address->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)address)->sin_addr, 4);
    } else if (address->sa_family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        memcpy(key, v6, IN6_IS_ADDR_V4MAPPED(v6) ? 16 : 8);
    }
}

/// The connection that has waited longest for its request; under `guard`.
static watched *longest_waiting(hw_web *web) {
    for (watched *connection = web->first; connection; connection = connection->next)
        if (!connection->answering && !connection->cut) return connection;
    return NULL;
}

/// Ends a connection from outside its thread: its poll wakes to the end of the stream and
/// libmicrohttpd closes it as if the client had left. Under `guard`.
static void cut(hw_web *web, watched *connection) {
    shutdown(connection->fd, SHUT_RDWR);
    connection->cut = 1;
    web->live--;
}

static void notify_connection(void *context, struct MHD_Connection *connection, void **socket_context, int code) {
    hw_web *web = context;
    if (code == CONNECTION_NOTIFY_STARTED) {
        const int *fd = lib.get_connection_info(connection, CONNECTION_INFO_CONNECTION_FD);
        const struct sockaddr *const *address = lib.get_connection_info(connection, CONNECTION_INFO_CLIENT_ADDRESS);
        watched *entry = fd ? calloc(1, sizeof *entry) : NULL;
        if (!entry) return;  // unwatched: libmicrohttpd's silence timeout still bounds it
        entry->fd = *fd;
        client_key(address ? *address : NULL, entry->client);
        pthread_mutex_lock(&web->guard);
        entry->waiting_since = now_seconds();
        append_watched(web, entry);
        web->live++;
        pthread_cond_signal(&web->changed);
        pthread_mutex_unlock(&web->guard);
        *socket_context = entry;
    } else if (code == CONNECTION_NOTIFY_CLOSED) {
        watched *entry = *socket_context;
        if (!entry) return;
        pthread_mutex_lock(&web->guard);
        unlink_watched(web, entry);
        if (!entry->cut) web->live--;
        pthread_mutex_unlock(&web->guard);
        free(entry);
        *socket_context = NULL;
    }
}

/// Called for each client about to be let in, once libmicrohttpd has checked its limits (in all
/// and per address: at either it closes the new connection itself, before this). Near the limit
/// in all, the connection that has waited longest without a request is closed to make room, so
/// slow clients, however many, cannot keep a quick request out; but a client that already holds
/// `waiting_per_address` connections without a request is refused instead, as the slow clients
/// are: refusing costs nothing, while each connection closed to make room takes a while to go
/// (its thread sees the end and libmicrohttpd reaps it), and room made faster than that would
/// fill the spare places, where libmicrohttpd turns everyone away.
static int accept_connection(void *context, const struct sockaddr *address, socklen_t length) {
    (void)length;
    hw_web *web = context;
    int admitted = 1;
    pthread_mutex_lock(&web->guard);
    if (web->live + 1 + web->limits.spare_connections > web->limits.max_connections) {
        uint8_t key[16];
        client_key(address, key);
        unsigned waiting = 0;
        for (watched *connection = web->first; connection; connection = connection->next)
            if (!connection->answering && !connection->cut && memcmp(connection->client, key, sizeof key) == 0) waiting++;
        if (waiting >= web->limits.waiting_per_address) admitted = 0;
    }
    while (admitted && web->live + 1 + web->limits.spare_connections > web->limits.max_connections) {
        watched *oldest = longest_waiting(web);
        if (!oldest) break;  // every connection is being answered: libmicrohttpd's limit holds
        cut(web, oldest);
    }
    pthread_mutex_unlock(&web->guard);
    return admitted ? MHD_YES : MHD_NO;
}

static watched *watched_of(struct MHD_Connection *connection) {
    void *const *context = lib.get_connection_info(connection, CONNECTION_INFO_SOCKET_CONTEXT);
    return context ? *context : NULL;
}

/// The connection's request is in: no deadline while it is answered.
static void answering(hw_web *web, struct MHD_Connection *connection) {
    watched *entry = watched_of(connection);
    if (!entry) return;
    pthread_mutex_lock(&web->guard);
    entry->answering = 1;
    pthread_mutex_unlock(&web->guard);
}

/// Its answer was sent: the connection waits for its next request, deadline and all.
static void answered(hw_web *web, struct MHD_Connection *connection) {
    watched *entry = watched_of(connection);
    if (!entry) return;
    pthread_mutex_lock(&web->guard);
    entry->answering = 0;
    entry->waiting_since = now_seconds();
    unlink_watched(web, entry);
    append_watched(web, entry);
    pthread_cond_signal(&web->changed);
    pthread_mutex_unlock(&web->guard);
}

/// Closes each connection whose request has not come in by its deadline, sleeping until the
/// next deadline or a change.
static void *watch(void *context) {
    hw_web *web = context;
    pthread_mutex_lock(&web->guard);
    while (!web->stopping) {
        watched *oldest = longest_waiting(web);
        if (!oldest) {
            pthread_cond_wait(&web->changed, &web->guard);
            continue;
        }
        double due = oldest->waiting_since + web->limits.request_seconds;
        if (now_seconds() >= due) {
            cut(web, oldest);
            continue;
        }
        struct timespec until;
        until.tv_sec = (time_t)due;
        until.tv_nsec = (long)((due - (double)until.tv_sec) * 1e9);
        pthread_cond_timedwait(&web->changed, &web->guard, &until);
    }
    pthread_mutex_unlock(&web->guard);
    return NULL;
}

// MARK: - Requests

/// How a request's body is framed, counted over all its header lines (libmicrohttpd looks at the
/// first Content-Length only, and lets Transfer-Encoding override it).
typedef struct {
    unsigned lengths, encodings, chunked;
} framing;

static int count_framing(void *context, int kind, const char *name, const char *value) {
    (void)kind;
    framing *seen = context;
    if (strcasecmp(name, "Content-Length") == 0) {
        seen->lengths++;
    } else if (strcasecmp(name, "Transfer-Encoding") == 0) {
        seen->encodings++;
        // Exactly as libmicrohttpd tells chunked apart: any other value ("chunked " with a space
        // after it too) it would read as a body that ends only with the connection.
        if (value && strcasecmp(value, "chunked") == 0) seen->chunked++;
    }
    return MHD_YES;
}

/// Whether the request's body can be read one way only: one Content-Length, or Transfer-Encoding:
/// chunked alone (in HTTP/1.1). A request a proxy in front could read otherwise (both, two lengths,
/// another coding) could smuggle a second request past it in its body.
static int framing_is_clear(struct MHD_Connection *connection, const char *version) {
    framing seen = {0};
    lib.get_connection_values(connection, HEADER_KIND, count_framing, &seen);
    if (seen.encodings == 0) return seen.lengths <= 1;
    return seen.encodings == 1 && seen.chunked == 1 && seen.lengths == 0 && version && strcmp(version, "HTTP/1.0") != 0;
}

static int handle(void *context, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
                  const char *data, size_t *size, void **state) {
    hw_web *web = context;
    upload *body = *state;
    if (!body) {
        body = calloc(1, sizeof *body);
        if (!body) return MHD_NO;
        *state = body;
        if (!framing_is_clear(connection, version)) {
            // Answered before the body: libmicrohttpd then reads no more of this connection, and
            // a 400 closes it (hw_web_respond), so nothing sent after it is taken as a request.
            answering(web, connection);
            hw_web_request refused = {0};
            refused.connection = connection;
            static const char message[] = "a body is framed by one Content-Length, or by Transfer-Encoding: chunked alone\n";
            return hw_web_respond(&refused, 400, "Content-Type: text/plain\n", message, sizeof message - 1) == 0 ? MHD_YES : MHD_NO;
        }
        return MHD_YES;  // the headers are in; the body, if any, comes next
    }
    if (*size > 0) {
        if (!body->too_large && body->length + *size <= web->limits.max_body) {
            uint8_t *grown = realloc(body->body, body->length + *size);
            if (!grown) return MHD_NO;
            memcpy(grown + body->length, data, *size);
            body->body = grown;
            body->length += *size;
        } else {
            body->too_large = 1;  // read and dropped: the answer says it was too large
        }
        *size = 0;
        return MHD_YES;
    }
    hw_web_request request = {0};
    request.method = method;
    request.url = url;
    request.host = lib.lookup_connection_value(connection, HEADER_KIND, "Host");
    request.origin = lib.lookup_connection_value(connection, HEADER_KIND, "Origin");
    request.cookie = lib.lookup_connection_value(connection, HEADER_KIND, "Cookie");
    request.csrf = lib.lookup_connection_value(connection, HEADER_KIND, "X-Headway-CSRF");
    request.authorization = lib.lookup_connection_value(connection, HEADER_KIND, "Authorization");
    request.content_type = lib.lookup_connection_value(connection, HEADER_KIND, "Content-Type");
    request.fetch_site = lib.lookup_connection_value(connection, HEADER_KIND, "Sec-Fetch-Site");
    const struct sockaddr *const *address = lib.get_connection_info(connection, CONNECTION_INFO_CLIENT_ADDRESS);
    if (address && *address) {
        if ((*address)->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)*address)->sin_addr, request.client, sizeof request.client);
        else if ((*address)->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)*address)->sin6_addr, request.client, sizeof request.client);
    }
    request.body = body->body;
    request.body_length = body->length;
    request.body_too_large = body->too_large;
    request.connection = connection;
    answering(web, connection);
    web->handler(web->context, &request);
    if (request.answered) return MHD_YES;
    static const char failed[] = "no answer\n";
    return hw_web_respond(&request, 500, "Content-Type: text/plain\n", failed, sizeof failed - 1) == 0 ? MHD_YES : MHD_NO;
}

static void completed(void *context, struct MHD_Connection *connection, void **state, int reason) {
    (void)reason;
    answered(context, connection);
    upload *body = *state;
    if (!body) return;
    free(body->body);
    free(body);
    *state = NULL;
}

/// Adds each "Name: value\n" line of `headers` to `response`.
static int add_headers(struct MHD_Response *response, const char *headers) {
    if (!headers) return 0;
    char line[1024];
    while (*headers) {
        const char *end = strchr(headers, '\n');
        size_t length = end ? (size_t)(end - headers) : strlen(headers);
        if (length >= sizeof line) return -1;
        memcpy(line, headers, length);
        line[length] = 0;
        char *colon = strchr(line, ':');
        if (colon) {
            *colon = 0;
            const char *value = colon + 1;
            while (*value == ' ') value++;
            if (lib.add_response_header(response, line, value) != MHD_YES) return -1;
        }
        headers += length + (end ? 1 : 0);
    }
    return 0;
}

static int queue(hw_web_request *request, unsigned status, struct MHD_Response *response, const char *headers) {
    if (!response) return -1;
    int result = -1;
    // After a 400 the request may have been read otherwise than its sender meant (where its body
    // ends, above all): what follows on the connection is not taken as a request.
    int closing = status == 400 ? lib.add_response_header(response, "Connection", "close") == MHD_YES : 1;
    if (closing && add_headers(response, headers) == 0 && lib.queue_response(request->connection, status, response) == MHD_YES) {
        request->answered = 1;
        result = 0;
    }
    lib.destroy_response(response);
    return result;
}

int hw_web_respond(hw_web_request *request, unsigned status, const char *headers, const void *body, size_t length) {
    if (request->answered) return -1;
    return queue(request, status, lib.create_response_from_buffer(length, (void *)body, RESPMEM_MUST_COPY), headers);
}

// MARK: - Streams

static void stream_release(hw_web_stream *stream) {
    pthread_mutex_lock(&stream->mutex);
    int left = --stream->references;
    pthread_mutex_unlock(&stream->mutex);
    if (left > 0) return;
    pthread_mutex_destroy(&stream->mutex);
    pthread_cond_destroy(&stream->changed);
    free(stream->buffer);
    free(stream->heartbeat);
    free(stream);
}

void hw_web_stream_release(hw_web_stream *stream) { stream_release(stream); }

/// The connection's thread waits here for what to send: the queued bytes, a heartbeat after a
/// quiet while, or the end.
static long stream_read(void *context, uint64_t position, char *out, size_t max) {
    (void)position;
    hw_web_stream *stream = context;
    pthread_mutex_lock(&stream->mutex);
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += stream->heartbeat_seconds;
    while (stream->length == 0 && !stream->closed) {
        if (pthread_cond_timedwait(&stream->changed, &stream->mutex, &deadline) == ETIMEDOUT) break;
    }
    long result;
    if (stream->length > 0) {
        size_t count = stream->length < max ? stream->length : max;
        memcpy(out, stream->buffer + stream->start, count);
        stream->start += count;
        stream->length -= count;
        stream->taken += count;
        if (stream->length == 0) stream->start = 0;
        result = (long)count;
    } else if (stream->closed) {
        result = READER_END_OF_STREAM;
    } else {
        size_t count = strlen(stream->heartbeat);
        if (count > max) count = max;
        memcpy(out, stream->heartbeat, count);
        result = (long)count;
    }
    pthread_mutex_unlock(&stream->mutex);
    return result;
}

/// The connection is over (the client went away, or the stream ended): nothing more is sent.
static void stream_done(void *context) {
    hw_web_stream *stream = context;
    pthread_mutex_lock(&stream->mutex);
    stream->closed = 1;
    pthread_mutex_unlock(&stream->mutex);
    stream_release(stream);
}

hw_web_stream *hw_web_respond_stream(hw_web_request *request, const char *headers, const char *heartbeat, unsigned heartbeat_seconds,
                                     size_t max_buffered, int socket_buffer) {
    if (request->answered) return NULL;
    const int *fd = lib.get_connection_info(request->connection, CONNECTION_INFO_CONNECTION_FD);
    if (fd && socket_buffer > 0) setsockopt(*fd, SOL_SOCKET, SO_SNDBUF, &socket_buffer, sizeof socket_buffer);
    hw_web_stream *stream = calloc(1, sizeof *stream);
    if (!stream) return NULL;
    pthread_mutex_init(&stream->mutex, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&stream->changed, &attributes);
    pthread_condattr_destroy(&attributes);
    stream->heartbeat = strdup(heartbeat ? heartbeat : "");
    stream->heartbeat_seconds = heartbeat_seconds ? heartbeat_seconds : 15;
    stream->limit = max_buffered;
    stream->references = 2;
    struct MHD_Response *response = lib.create_response_from_callback(SIZE_UNKNOWN, 4096, stream_read, stream, stream_done);
    if (!response) {
        stream->references = 1;
        stream_release(stream);
        return NULL;
    }
    if (queue(request, 200, response, headers) != 0) {
        // The response (destroyed) took the connection's reference with it through stream_done.
        stream_release(stream);
        return NULL;
    }
    return stream;
}

int hw_web_stream_push(hw_web_stream *stream, const void *bytes, size_t length) {
    pthread_mutex_lock(&stream->mutex);
    int result = -1;
    if (!stream->closed) {
        if (stream->length + length > stream->limit) {
            stream->closed = 1;  // a client this far behind is let go; it may come back for a fresh start
            stream->length = 0;
        } else {
            if (stream->start + stream->length + length > stream->capacity) {
                memmove(stream->buffer, stream->buffer + stream->start, stream->length);
                stream->start = 0;
                if (stream->length + length > stream->capacity) {
                    size_t capacity = (stream->length + length) * 2;
                    if (capacity > stream->limit) capacity = stream->limit;
                    char *grown = realloc(stream->buffer, capacity);
                    if (!grown) {
                        pthread_mutex_unlock(&stream->mutex);
                        return -1;
                    }
                    stream->buffer = grown;
                    stream->capacity = capacity;
                }
            }
            memcpy(stream->buffer + stream->start + stream->length, bytes, length);
            stream->length += length;
            result = 0;
        }
    }
    pthread_cond_signal(&stream->changed);
    pthread_mutex_unlock(&stream->mutex);
    return result;
}

uint64_t hw_web_stream_taken(hw_web_stream *stream) {
    pthread_mutex_lock(&stream->mutex);
    uint64_t taken = stream->taken;
    pthread_mutex_unlock(&stream->mutex);
    return taken;
}

int hw_web_stream_open(hw_web_stream *stream) {
    pthread_mutex_lock(&stream->mutex);
    int open = !stream->closed;
    pthread_mutex_unlock(&stream->mutex);
    return open;
}

void hw_web_stream_close(hw_web_stream *stream) {
    pthread_mutex_lock(&stream->mutex);
    stream->closed = 1;
    pthread_cond_signal(&stream->changed);
    pthread_mutex_unlock(&stream->mutex);
}

// MARK: - The daemon

/// Ends the watchdog; libmicrohttpd has closed every connection (or never started).
static void stop_watching(hw_web *web) {
    pthread_mutex_lock(&web->guard);
    web->stopping = 1;
    pthread_cond_signal(&web->changed);
    pthread_mutex_unlock(&web->guard);
    pthread_join(web->watchdog, NULL);
    pthread_cond_destroy(&web->changed);
    pthread_mutex_destroy(&web->guard);
}

hw_web *hw_web_start(const char *address, int port, const char *cert_pem, const char *key_pem, const hw_web_limits *limits,
                     hw_web_handler handler, void *context, char *error) {
    if (hw_web_load() != 0) {
        snprintf(error, 256, "%s", load_error);
        return NULL;
    }
    struct sockaddr_storage socket_address;
    memset(&socket_address, 0, sizeof socket_address);
    unsigned flags = USE_INTERNAL_POLLING_THREAD | USE_THREAD_PER_CONNECTION | USE_POLL | USE_ERROR_LOG;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&socket_address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&socket_address;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        flags |= USE_IPV6;
    } else {
        snprintf(error, 256, "%s is not an IPv4 or IPv6 address", address);
        return NULL;
    }
    hw_web *web = calloc(1, sizeof *web);
    if (!web) {
        snprintf(error, 256, "out of memory");
        return NULL;
    }
    web->handler = handler;
    web->context = context;
    web->limits = *limits;
    if (web->limits.spare_connections >= web->limits.max_connections) web->limits.spare_connections = 0;
    pthread_mutex_init(&web->guard, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&web->changed, &attributes);
    pthread_condattr_destroy(&attributes);
    if (pthread_create(&web->watchdog, NULL, watch, web) != 0) {
        snprintf(error, 256, "cannot start a thread");
        pthread_cond_destroy(&web->changed);
        pthread_mutex_destroy(&web->guard);
        free(web);
        return NULL;
    }
    // The last three entries end the list, unless TLS is on: then the first two are its certificate
    // and key (libmicrohttpd refuses those without USE_TLS, and USE_TLS without them).
    struct MHD_OptionItem options[] = {
        {OPTION_SOCK_ADDR, 0, &socket_address},
        {OPTION_CONNECTION_LIMIT, limits->max_connections, NULL},
        {OPTION_PER_IP_CONNECTION_LIMIT, limits->max_per_address, NULL},
        {OPTION_CONNECTION_TIMEOUT, limits->timeout_seconds, NULL},
        {OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits->memory_limit, NULL},
        {OPTION_NOTIFY_COMPLETED, (intptr_t)completed, web},
        {OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection, web},
        {OPTION_EXTERNAL_LOGGER, (intptr_t)logger, web},
        {OPTION_THREAD_STACK_SIZE, 256 * 1024, NULL},
        {OPTION_END, 0, NULL},
        {OPTION_END, 0, NULL},
        {OPTION_END, 0, NULL},
    };
    if (cert_pem && key_pem) {
        web->cert = strdup(cert_pem);
        web->key = strdup(key_pem);
        flags |= USE_TLS;
        struct MHD_OptionItem *tls = &options[sizeof options / sizeof *options - 3];
        tls[0] = (struct MHD_OptionItem){OPTION_HTTPS_MEM_CERT, 0, web->cert};
        tls[1] = (struct MHD_OptionItem){OPTION_HTTPS_MEM_KEY, 0, web->key};
    }
    errno = 0;
    web->daemon = lib.start_daemon(flags, (uint16_t)port, accept_connection, web, (access_handler)handle, web, OPTION_ARRAY, options,
                                   OPTION_END);
    if (!web->daemon) {
        int code = errno;
        if (web->last_log[0]) {
            size_t length = strlen(web->last_log);
            while (length > 0 && (web->last_log[length - 1] == '\n' || web->last_log[length - 1] == '.')) web->last_log[--length] = 0;
            snprintf(error, 256, "%s", web->last_log);
        } else {
            snprintf(error, 256, "%s", code ? strerror(code) : "libmicrohttpd refused to start");
        }
        stop_watching(web);
        free(web->cert);
        free(web->key);
        free(web);
        return NULL;
    }
    return web;
}

int hw_web_port(hw_web *web) {
    const uint16_t *port = lib.get_daemon_info(web->daemon, DAEMON_INFO_BIND_PORT);
    return port ? *port : -1;
}

void hw_web_stop(hw_web *web) {
    lib.stop_daemon(web->daemon);
    stop_watching(web);
    free(web->cert);
    free(web->key);
    free(web);
}
