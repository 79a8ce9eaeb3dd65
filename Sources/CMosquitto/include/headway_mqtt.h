// A thin C entry to libmosquitto (Debian's libmosquitto1), loaded with dlopen the first time it
// is wanted: `headway` stays quick and needs no MQTT library unless --broker is given, and the
// build needs no libmosquitto-dev. Each call returns libmosquitto's own code (0 = success,
// hw_mqtt_strerror says the rest); the shim keeps only what the callbacks report: the CONNACK,
// acknowledged publishes and received messages. No policy lives here.
#ifndef HEADWAY_MQTT_H
#define HEADWAY_MQTT_H

#include <stdint.h>

typedef struct hw_mqtt hw_mqtt;

/// Loads libmosquitto.so.1 once. 0 on success; else -1 and hw_mqtt_load_error() says why.
int hw_mqtt_load(void);
const char *hw_mqtt_load_error(void);

/// A client (MQTT 3.1.1) with `client_id`; `clean_session` 0 keeps its subscriptions across
/// reconnections. NULL when out of memory or the library is not loaded.
hw_mqtt *hw_mqtt_new(const char *client_id, int clean_session);
void hw_mqtt_destroy(hw_mqtt *client);

int hw_mqtt_credentials(hw_mqtt *client, const char *user, const char *password);
/// The message the broker publishes for this client when it goes away without disconnecting.
int hw_mqtt_will(hw_mqtt *client, const char *topic, const void *payload, int length, int qos, int retain);
/// TLS with the CA certificate file `cafile`, or the system's certificates when it is NULL.
int hw_mqtt_tls(hw_mqtt *client, const char *cafile);

/// Connects (a blocking TCP connect, then CONNECT); the CONNACK arrives through hw_mqtt_loop.
int hw_mqtt_connect(hw_mqtt *client, const char *host, int port, int keepalive);
/// Connects without blocking: the TCP connection completes in hw_mqtt_loop (a host name is still
/// resolved here).
int hw_mqtt_connect_async(hw_mqtt *client, const char *host, int port, int keepalive);
int hw_mqtt_reconnect(hw_mqtt *client);
/// -1 while no CONNACK came, else its return code (0 accepted, 4 bad user name or password,
/// 5 not authorised …). hw_mqtt_connack_string says it in words.
int hw_mqtt_connack(hw_mqtt *client);
const char *hw_mqtt_connack_string(int code);
/// 1 after a disconnection the broker or the network caused (cleared by hw_mqtt_connect).
int hw_mqtt_lost(hw_mqtt *client);

int hw_mqtt_publish(hw_mqtt *client, const char *topic, const void *payload, int length, int qos, int retain);
/// Publishes of QoS 1 or 2 the broker has not acknowledged yet.
int hw_mqtt_unacknowledged(hw_mqtt *client);
int hw_mqtt_subscribe(hw_mqtt *client, const char *pattern, int qos);

/// One round of network work, waiting at most `timeout_ms` for the socket. Received messages
/// are queued for hw_mqtt_next_message.
int hw_mqtt_loop(hw_mqtt *client, int timeout_ms);
/// The connection's socket (-1 when not connected), for a caller that waits on several
/// descriptors with poll(2) and then calls hw_mqtt_loop with a timeout of 0.
int hw_mqtt_socket(hw_mqtt *client);
/// 1 when libmosquitto has bytes queued to send: wait for the socket to be writable too.
int hw_mqtt_want_write(hw_mqtt *client);
/// The oldest received message, copied out: 1 and the fields set, or 0 when none is queued.
/// `topic` and `payload` are the caller's to free().
int hw_mqtt_next_message(hw_mqtt *client, char **topic, uint8_t **payload, int *length, int *retained);

int hw_mqtt_disconnect(hw_mqtt *client);
const char *hw_mqtt_strerror(int code);

#endif
