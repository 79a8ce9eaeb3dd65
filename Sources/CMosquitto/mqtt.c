#include "headway_mqtt.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libmosquitto's ABI (mosquitto.h, stable since 1.x): only what is used here.
struct mosquitto;
struct mosquitto_message {
    int mid;
    char *topic;
    void *payload;
    int payloadlen;
    int qos;
    bool retain;
};
enum { OPT_PROTOCOL_VERSION = 1, OPT_TCP_NODELAY = 11, OPT_TLS_USE_OS_CERTS = 13, PROTOCOL_V311 = 4 };

static struct {
    int (*lib_init)(void);
    struct mosquitto *(*new_)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *, int (*)(char *, int, int, void *));
    int (*int_option)(struct mosquitto *, int, int);
    int (*connect)(struct mosquitto *, const char *, int, int);
    int (*connect_async)(struct mosquitto *, const char *, int, int);
    int (*reconnect)(struct mosquitto *);
    int (*disconnect)(struct mosquitto *);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*subscribe)(struct mosquitto *, int *, const char *, int);
    int (*loop)(struct mosquitto *, int, int);
    int (*socket)(struct mosquitto *);
    bool (*want_write)(struct mosquitto *);
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*publish_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*message_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, const struct mosquitto_message *));
    const char *(*strerror)(int);
    const char *(*connack_string)(int);
} lib;

static char load_error[256];
static int loaded = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND(field, name)                                                               \
    if (!(*(void **)&lib.field = dlsym(handle, name))) {                                 \
        snprintf(load_error, sizeof load_error, "libmosquitto.so.1 has no %s", name);   \
        return;                                                                          \
    }
    FIND(lib_init, "mosquitto_lib_init")
    FIND(new_, "mosquitto_new")
    FIND(destroy, "mosquitto_destroy")
    FIND(username_pw_set, "mosquitto_username_pw_set")
    FIND(will_set, "mosquitto_will_set")
    FIND(tls_set, "mosquitto_tls_set")
    FIND(int_option, "mosquitto_int_option")
    FIND(connect, "mosquitto_connect")
    FIND(connect_async, "mosquitto_connect_async")
    FIND(reconnect, "mosquitto_reconnect")
    FIND(disconnect, "mosquitto_disconnect")
    FIND(publish, "mosquitto_publish")
    FIND(subscribe, "mosquitto_subscribe")
    FIND(loop, "mosquitto_loop")
    FIND(socket, "mosquitto_socket")
    FIND(want_write, "mosquitto_want_write")
    FIND(connect_callback_set, "mosquitto_connect_callback_set")
    FIND(disconnect_callback_set, "mosquitto_disconnect_callback_set")
    FIND(publish_callback_set, "mosquitto_publish_callback_set")
    FIND(message_callback_set, "mosquitto_message_callback_set")
    FIND(strerror, "mosquitto_strerror")
    FIND(connack_string, "mosquitto_connack_string")
#undef FIND
    lib.lib_init();
    loaded = 1;
}

int hw_mqtt_load(void) {
    pthread_once(&once, load);
    return loaded ? 0 : -1;
}

const char *hw_mqtt_load_error(void) { return load_error; }

struct queued {
    char *topic;
    uint8_t *payload;
    int length;
    int retained;
    struct queued *next;
};

struct hw_mqtt {
    struct mosquitto *mosq;
    int connack;
    int lost;
    int unacknowledged;
    struct queued *head, *tail;
};

static void on_connect(struct mosquitto *mosq, void *context, int code) {
    (void)mosq;
    ((hw_mqtt *)context)->connack = code;
}

static void on_disconnect(struct mosquitto *mosq, void *context, int code) {
    (void)mosq;
    if (code != 0) ((hw_mqtt *)context)->lost = 1;
}

static void on_publish(struct mosquitto *mosq, void *context, int mid) {
    (void)mosq;
    (void)mid;
    hw_mqtt *client = context;
    if (client->unacknowledged > 0) client->unacknowledged--;
}

static void on_message(struct mosquitto *mosq, void *context, const struct mosquitto_message *message) {
    (void)mosq;
    hw_mqtt *client = context;
    struct queued *item = calloc(1, sizeof *item);
    if (!item) return;
    item->topic = strdup(message->topic);
    item->length = message->payloadlen;
    item->payload = malloc(message->payloadlen > 0 ? (size_t)message->payloadlen : 1);
    if (!item->topic || !item->payload) {
        free(item->topic);
        free(item->payload);
        free(item);
        return;
    }
    if (message->payloadlen > 0) memcpy(item->payload, message->payload, (size_t)message->payloadlen);
    item->retained = message->retain;
    if (client->tail) client->tail->next = item; else client->head = item;
    client->tail = item;
}

hw_mqtt *hw_mqtt_new(const char *client_id, int clean_session) {
    if (!loaded) return NULL;
    hw_mqtt *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->connack = -1;
    client->mosq = lib.new_(client_id, clean_session != 0, client);
    if (!client->mosq) {
        free(client);
        return NULL;
    }
    lib.int_option(client->mosq, OPT_PROTOCOL_VERSION, PROTOCOL_V311);
    // Small messages go out at once: with Nagle's algorithm a TLS handshake's last flight waited
    // for the broker's delayed ACK (40 ms of a 52 ms `headway set`).
    lib.int_option(client->mosq, OPT_TCP_NODELAY, 1);
    lib.connect_callback_set(client->mosq, on_connect);
    lib.disconnect_callback_set(client->mosq, on_disconnect);
    lib.publish_callback_set(client->mosq, on_publish);
    lib.message_callback_set(client->mosq, on_message);
    return client;
}

void hw_mqtt_destroy(hw_mqtt *client) {
    if (!client) return;
    lib.destroy(client->mosq);
    char *topic;
    uint8_t *payload;
    int length, retained;
    while (hw_mqtt_next_message(client, &topic, &payload, &length, &retained)) {
        free(topic);
        free(payload);
    }
    free(client);
}

int hw_mqtt_credentials(hw_mqtt *client, const char *user, const char *password) { return lib.username_pw_set(client->mosq, user, password); }

int hw_mqtt_will(hw_mqtt *client, const char *topic, const void *payload, int length, int qos, int retain) {
    return lib.will_set(client->mosq, topic, length, payload, qos, retain != 0);
}

int hw_mqtt_tls(hw_mqtt *client, const char *cafile) {
    if (cafile) return lib.tls_set(client->mosq, cafile, NULL, NULL, NULL, NULL);
    return lib.int_option(client->mosq, OPT_TLS_USE_OS_CERTS, 1);
}

// libmosquitto's socket is inheritable; a command `headway run` starts must not keep the
// connection (and so the will) alive after headway itself is gone.
static int close_on_exec(hw_mqtt *client, int result) {
    int fd = lib.socket(client->mosq);
    if (fd >= 0) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    return result;
}

int hw_mqtt_connect(hw_mqtt *client, const char *host, int port, int keepalive) {
    client->connack = -1;
    client->lost = 0;
    client->unacknowledged = 0;
    return close_on_exec(client, lib.connect(client->mosq, host, port, keepalive));
}

int hw_mqtt_connect_async(hw_mqtt *client, const char *host, int port, int keepalive) {
    client->connack = -1;
    client->lost = 0;
    client->unacknowledged = 0;
    return close_on_exec(client, lib.connect_async(client->mosq, host, port, keepalive));
}

int hw_mqtt_reconnect(hw_mqtt *client) {
    client->connack = -1;
    client->lost = 0;
    client->unacknowledged = 0;
    return close_on_exec(client, lib.reconnect(client->mosq));
}

int hw_mqtt_connack(hw_mqtt *client) { return client->connack; }
const char *hw_mqtt_connack_string(int code) { return lib.connack_string(code); }
int hw_mqtt_lost(hw_mqtt *client) { return client->lost; }

int hw_mqtt_publish(hw_mqtt *client, const char *topic, const void *payload, int length, int qos, int retain) {
    int result = lib.publish(client->mosq, NULL, topic, length, payload, qos, retain != 0);
    if (result == 0 && qos > 0) client->unacknowledged++;
    return result;
}

int hw_mqtt_unacknowledged(hw_mqtt *client) { return client->unacknowledged; }

int hw_mqtt_subscribe(hw_mqtt *client, const char *pattern, int qos) { return lib.subscribe(client->mosq, NULL, pattern, qos); }

int hw_mqtt_loop(hw_mqtt *client, int timeout_ms) { return lib.loop(client->mosq, timeout_ms, 1); }

int hw_mqtt_socket(hw_mqtt *client) { return lib.socket(client->mosq); }
int hw_mqtt_want_write(hw_mqtt *client) { return lib.want_write(client->mosq) ? 1 : 0; }

int hw_mqtt_next_message(hw_mqtt *client, char **topic, uint8_t **payload, int *length, int *retained) {
    struct queued *item = client->head;
    if (!item) return 0;
    client->head = item->next;
    if (!client->head) client->tail = NULL;
    *topic = item->topic;
    *payload = item->payload;
    *length = item->length;
    *retained = item->retained;
    free(item);
    return 1;
}

int hw_mqtt_disconnect(hw_mqtt *client) { return lib.disconnect(client->mosq); }

const char *hw_mqtt_strerror(int code) { return loaded ? lib.strerror(code) : load_error; }
