#include "headway_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl's ABI (curl/curl.h and curl/multi.h, stable since 7.x): only what is used here. Option
// numbers are CURLOPTTYPE_* + n as curl.h defines them.
typedef void CURL;
typedef void CURLM;
struct curl_slist;
struct curl_blob {
    void *data;
    size_t len;
    unsigned int flags;
};
struct curl_waitfd {
    int fd;
    short events;
    short revents;
};
typedef struct {
    int msg;
    CURL *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} CURLMsg;
// curl_version_info_data up to `capath` (CURLVERSION_NINTH, libcurl 7.70 and later).
typedef struct {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
    const char *ssl_version;
    long ssl_version_num;
    const char *libz_version;
    const char *const *protocols;
    const char *ares;
    int ares_num;
    const char *libidn;
    int iconv_ver_num;
    const char *libssh_version;
    unsigned int brotli_ver_num;
    const char *brotli_version;
    unsigned int nghttp2_ver_num;
    const char *nghttp2_version;
    const char *quic_version;
    const char *cainfo;
    const char *capath;
} version_info;

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011, OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68, OPT_HEADERFUNCTION = 20079,
    OPT_NOSIGNAL = 99, OPT_CONNECT_ONLY = 141, OPT_ACCEPT_ENCODING = 10102, OPT_PRIVATE = 10103, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
    OPT_MAXFILESIZE_LARGE = 30117, OPT_POSTFIELDSIZE_LARGE = 30120, OPT_COPYPOSTFIELDS = 10165, OPT_CAINFO_BLOB = 40309, OPT_PROTOCOLS_STR = 10318, OPT_REDIR_PROTOCOLS_STR = 10319,
    INFO_RESPONSE_CODE = 0x200000 + 2, INFO_PRIVATE = 0x100000 + 21, INFO_TOTAL_TIME = 0x300000 + 3, INFO_ACTIVESOCKET = 0x500000 + 44,
    MOPT_MAX_HOST_CONNECTIONS = 7, MSG_DONE = 1, VERSION_NINTH = 8, BLOB_COPY = 1, ERROR_SIZE = 256,
};

static struct {
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_getinfo)(CURL *, int, ...);
    const char *(*easy_strerror)(int);
    int (*easy_send)(CURL *, const void *, size_t, size_t *);
    int (*easy_recv)(CURL *, void *, size_t, size_t *);
    CURLM *(*multi_init)(void);
    int (*multi_cleanup)(CURLM *);
    int (*multi_setopt)(CURLM *, int, ...);
    int (*multi_add_handle)(CURLM *, CURL *);
    int (*multi_remove_handle)(CURLM *, CURL *);
    int (*multi_perform)(CURLM *, int *);
    int (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int (*global_init)(long);
    version_info *(*version_info)(int);
} lib;

static char load_error[256];
static int loaded = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char user_agent[64];

static void load(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND(field, name)                                                           \
    if (!(*(void **)&lib.field = dlsym(handle, name))) {                             \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name);    \
        return;                                                                      \
    }
    FIND(easy_init, "curl_easy_init")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(easy_send, "curl_easy_send")
    FIND(easy_recv, "curl_easy_recv")
    FIND(multi_init, "curl_multi_init")
    FIND(multi_cleanup, "curl_multi_cleanup")
    FIND(multi_setopt, "curl_multi_setopt")
    FIND(multi_add_handle, "curl_multi_add_handle")
    FIND(multi_remove_handle, "curl_multi_remove_handle")
    FIND(multi_perform, "curl_multi_perform")
    FIND(multi_poll, "curl_multi_poll")
    FIND(multi_info_read, "curl_multi_info_read")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
    FIND(global_init, "curl_global_init")
    FIND(version_info, "curl_version_info")
#undef FIND
    version_info *info = lib.version_info(VERSION_NINTH);
    // CURLOPT_PROTOCOLS_STR (7.85) and curl_multi_poll (7.66) are the newest calls made here.
    if (!info || info->version_num < 0x075500) {
        snprintf(load_error, sizeof load_error, "libcurl %s is older than 7.85, the oldest headway-ci uses", info ? info->version : "?");
        return;
    }
    lib.global_init(3);  // CURL_GLOBAL_ALL
    snprintf(user_agent, sizeof user_agent, "headway-ci libcurl/%s", info->version);
    loaded = 1;
}

int hw_http_load(void) {
    pthread_once(&once, load);
    return loaded ? 0 : -1;
}

const char *hw_http_load_error(void) { return load_error; }

const char *hw_http_version(void) { return loaded ? lib.version_info(VERSION_NINTH)->version : ""; }

const char *hw_http_default_ca_file(void) {
    if (!loaded) return NULL;
    version_info *info = lib.version_info(VERSION_NINTH);
    return info->age >= VERSION_NINTH ? info->cainfo : NULL;
}

typedef struct transfer {
    hw_http_result *result;
    long long max_bytes;
    size_t body_capacity;
    size_t headers_capacity;
    struct curl_slist *headers;
    struct transfer *next;
    int connect_only;
} transfer;

// A connection made for the caller's own protocol. Its easy handle stays in the multi handle:
// libcurl keeps a CONNECT_ONLY connection only while its handle is there.
struct hw_http_connection {
    hw_http *client;
    CURL *easy;
};

typedef struct done {
    hw_http_result *result;
    struct done *next;
} done;

struct hw_http {
    CURLM *multi;
    void *ca;
    size_t ca_length;
    int running;
    done *head, *tail;
};

enum { MAX_HEADER_BYTES = 64 * 1024 };

static int grow(uint8_t **buffer, size_t *capacity, size_t needed) {
    if (needed <= *capacity) return 1;
    size_t capacity_now = *capacity ? *capacity : 16384;
    while (capacity_now < needed) capacity_now *= 2;
    uint8_t *bigger = realloc(*buffer, capacity_now);
    if (!bigger) return 0;
    *buffer = bigger;
    *capacity = capacity_now;
    return 1;
}

// Returning less than was offered stops the transfer (CURLE_WRITE_ERROR): a body past its limit
// is never held whole.
static size_t on_body(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    hw_http_result *r = t->result;
    if ((long long)(r->body_length + length) > t->max_bytes) {
        r->too_large = 1;
        return 0;
    }
    if (!grow(&r->body, &t->body_capacity, r->body_length + length)) return 0;
    memcpy(r->body + r->body_length, data, length);
    r->body_length += length;
    return length;
}

// Every response's headers come here, a redirect's and a 100 Continue's too: a status line
// starts the record again, so the headers kept are the last response's.
static size_t on_header(char *data, size_t size, size_t count, void *context) {
    transfer *t = context;
    size_t length = size * count;
    hw_http_result *r = t->result;
    if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) r->headers_length = 0;
    if (r->headers_length + length + 1 > MAX_HEADER_BYTES) {
        r->too_large = 1;
        return 0;
    }
    if (!grow((uint8_t **)&r->headers, &t->headers_capacity, r->headers_length + length + 1)) return 0;
    memcpy(r->headers + r->headers_length, data, length);
    r->headers_length += length;
    r->headers[r->headers_length] = 0;
    return length;
}

hw_http *hw_http_new(void) {
    if (!loaded) return NULL;
    hw_http *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->multi = lib.multi_init();
    if (!client->multi) {
        free(client);
        return NULL;
    }
    // Polite to each server: at most two connections to one host, reused between looks.
    lib.multi_setopt(client->multi, MOPT_MAX_HOST_CONNECTIONS, 2L);
    return client;
}

int hw_http_set_ca(hw_http *client, const void *pem, size_t length) {
    void *copy = malloc(length ? length : 1);
    if (!copy) return -1;
    memcpy(copy, pem, length);
    free(client->ca);
    client->ca = copy;
    client->ca_length = length;
    return 0;
}

static void free_transfer(transfer *t, CURL *easy) {
    if (t->headers) lib.slist_free_all(t->headers);
    if (t->result) hw_http_result_free(t->result);
    free(t);
    if (easy) lib.easy_cleanup(easy);
}

static int start(hw_http *client, uint64_t tag, const char *url, const char *const *headers, int header_count, long long max_bytes,
                 long connect_timeout_ms, long timeout_ms, long max_redirects, const void *body, long long body_length, int connect_only) {
    CURL *easy = lib.easy_init();
    transfer *t = calloc(1, sizeof *t);
    hw_http_result *r = calloc(1, sizeof *r);
    if (!easy || !t || !r) {
        if (easy) lib.easy_cleanup(easy);
        free(t);
        free(r);
        return -1;
    }
    t->result = r;
    t->max_bytes = max_bytes;
    t->connect_only = connect_only;
    r->tag = tag;
    for (int i = 0; i < header_count; i++) {
        struct curl_slist *list = lib.slist_append(t->headers, headers[i]);
        if (!list) {
            free_transfer(t, easy);
            return -1;
        }
        t->headers = list;
    }
    int code = 0;
#define SET(option, value) \
    if (code == 0) code = lib.easy_setopt(easy, option, value);
    SET(OPT_URL, url)
    SET(OPT_PRIVATE, (void *)t)
    SET(OPT_ERRORBUFFER, r->error)
    SET(OPT_WRITEFUNCTION, on_body)
    SET(OPT_WRITEDATA, (void *)t)
    SET(OPT_HEADERFUNCTION, on_header)
    SET(OPT_HEADERDATA, (void *)t)
    SET(OPT_HTTPHEADER, t->headers)
    SET(OPT_USERAGENT, user_agent)
    SET(OPT_NOSIGNAL, 1L)
    // gzip and deflate, as libcurl was built for: the limit applies to the decoded body.
    SET(OPT_ACCEPT_ENCODING, "")
    SET(OPT_FOLLOWLOCATION, max_redirects > 0 ? 1L : 0L)
    SET(OPT_MAXREDIRS, max_redirects)
    SET(OPT_PROTOCOLS_STR, "http,https")
    SET(OPT_REDIR_PROTOCOLS_STR, "http,https")
    // A body whose Content-Length says it is too large is refused before it is read.
    SET(OPT_MAXFILESIZE_LARGE, (long long)max_bytes)
    SET(OPT_CONNECTTIMEOUT_MS, connect_timeout_ms)
    if (connect_only) {
        SET(OPT_CONNECT_ONLY, 1L)
    } else {
        SET(OPT_TIMEOUT_MS, timeout_ms)
    }
    if (client->ca) {
        struct curl_blob blob = {client->ca, client->ca_length, BLOB_COPY};
        SET(OPT_CAINFO_BLOB, &blob)
    }
    if (body) {
        // The size first: COPYPOSTFIELDS copies that many bytes, and makes the request a POST.
        SET(OPT_POSTFIELDSIZE_LARGE, body_length)
        SET(OPT_COPYPOSTFIELDS, body)
    }
#undef SET
    if (code == 0) code = lib.multi_add_handle(client->multi, easy) == 0 ? 0 : -1;
    if (code != 0) {
        free_transfer(t, easy);
        return code;
    }
    client->running++;
    return 0;
}

int hw_http_get(hw_http *client, uint64_t tag, const char *url, const char *const *headers, int header_count, long long max_bytes,
                long connect_timeout_ms, long timeout_ms, long max_redirects) {
    return start(client, tag, url, headers, header_count, max_bytes, connect_timeout_ms, timeout_ms, max_redirects, NULL, 0, 0);
}

int hw_http_post(hw_http *client, uint64_t tag, const char *url, const char *const *headers, int header_count, const void *body,
                 long long body_length, long long max_bytes, long connect_timeout_ms, long timeout_ms) {
    return start(client, tag, url, headers, header_count, max_bytes, connect_timeout_ms, timeout_ms, 0, body ? body : "", body_length, 0);
}

int hw_http_connect(hw_http *client, uint64_t tag, const char *url, long connect_timeout_ms) {
    return start(client, tag, url, NULL, 0, 0, connect_timeout_ms, 0, 0, NULL, 0, 1);
}

int hw_http_connection_socket(hw_http_connection *connection) {
    int socket = -1;  // curl_socket_t: an int on Linux
    lib.easy_getinfo(connection->easy, INFO_ACTIVESOCKET, &socket);
    return socket;
}

int hw_http_connection_send(hw_http_connection *connection, const void *bytes, size_t length, size_t *sent) {
    *sent = 0;
    return lib.easy_send(connection->easy, bytes, length, sent);
}

int hw_http_connection_receive(hw_http_connection *connection, void *buffer, size_t length, size_t *received) {
    *received = 0;
    return lib.easy_recv(connection->easy, buffer, length, received);
}

void hw_http_connection_close(hw_http_connection *connection) {
    if (!connection) return;
    lib.multi_remove_handle(connection->client->multi, connection->easy);
    lib.easy_cleanup(connection->easy);
    free(connection);
}

static void collect(hw_http *client) {
    CURLMsg *message;
    int left;
    while ((message = lib.multi_info_read(client->multi, &left))) {
        if (message->msg != MSG_DONE) continue;
        CURL *easy = message->easy_handle;
        transfer *t = NULL;
        lib.easy_getinfo(easy, INFO_PRIVATE, (char **)&t);
        if (!t) continue;  // a connection handed over: its transfer is done
        hw_http_result *r = t->result;
        r->code = message->data.result;
        lib.easy_getinfo(easy, INFO_RESPONSE_CODE, &r->status);
        lib.easy_getinfo(easy, INFO_TOTAL_TIME, &r->seconds);
        if (r->code != 0 && r->error[0] == 0) snprintf(r->error, sizeof r->error, "%s", lib.easy_strerror(r->code));
        int keep = 0;
        if (t->connect_only && r->code == 0) {
            hw_http_connection *connection = calloc(1, sizeof *connection);
            if (connection) {
                connection->client = client;
                connection->easy = easy;
                r->connection = connection;
                keep = 1;
                // The handle outlives its transfer and its result (freed below, and by the caller):
                // nothing of theirs may stay where libcurl writes — an error it meets while the
                // connection is used would be written into freed memory.
                lib.easy_setopt(easy, OPT_ERRORBUFFER, (char *)NULL);
                lib.easy_setopt(easy, OPT_PRIVATE, (void *)NULL);
                lib.easy_setopt(easy, OPT_WRITEDATA, (void *)NULL);
                lib.easy_setopt(easy, OPT_HEADERDATA, (void *)NULL);
            } else {
                r->code = 27;  // CURLE_OUT_OF_MEMORY
            }
        }
        if (!keep) lib.multi_remove_handle(client->multi, easy);
        done *item = calloc(1, sizeof *item);
        if (item) {
            item->result = r;
            t->result = NULL;
            if (client->tail) client->tail->next = item; else client->head = item;
            client->tail = item;
        }
        free_transfer(t, keep ? NULL : easy);
        client->running--;
    }
}

int hw_http_poll(hw_http *client, int timeout_ms, const int *fds, const int *sending, int *ready, int count) {
    // The signal pipe, the service's socket and one WebSocket per source: a few dozen at most.
    enum { MAX_EXTRA = 256 };
    struct curl_waitfd extra[MAX_EXTRA];
    if (count > MAX_EXTRA) count = MAX_EXTRA;
    for (int i = 0; i < count; i++) {
        extra[i].fd = fds[i];
        extra[i].events = sending[i] ? 0x001 | 0x004 : 0x001;  // POLLIN, and POLLOUT for a send that waits
        extra[i].revents = 0;
    }
    int numfds = 0;
    int code = lib.multi_poll(client->multi, extra, (unsigned int)count, timeout_ms, &numfds);
    if (code != 0) return code;
    for (int i = 0; i < count; i++) ready[i] = extra[i].revents != 0;
    int still = 0;
    code = lib.multi_perform(client->multi, &still);
    collect(client);
    return code;
}

int hw_http_running(hw_http *client) { return client->running; }

hw_http_result *hw_http_next(hw_http *client) {
    done *item = client->head;
    if (!item) return NULL;
    client->head = item->next;
    if (!client->head) client->tail = NULL;
    hw_http_result *r = item->result;
    free(item);
    return r;
}

void hw_http_result_free(hw_http_result *result) {
    if (!result) return;
    free(result->body);
    free(result->headers);
    free(result);
}

void hw_http_destroy(hw_http *client) {
    if (!client) return;
    // Transfers still running are abandoned with the multi handle.
    lib.multi_cleanup(client->multi);
    hw_http_result *r;
    while ((r = hw_http_next(client))) hw_http_result_free(r);
    free(client->ca);
    free(client);
}

const char *hw_http_strerror(int code) { return loaded ? lib.easy_strerror(code) : load_error; }
