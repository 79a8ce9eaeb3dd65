// A thin C entry to libcurl (Debian's libcurl4, or libcurl4t64 on Debian 13), loaded with dlopen
// the first time headway-ci needs it (or the service, to send a notification): nothing else loads it, and the build needs
// no libcurl-dev. One multi handle drives every transfer from one loop (curl_multi_poll), its
// connection cache reused across looks; each transfer's body and headers are kept here, the body
// refused as soon as it passes its limit. No policy lives here: what to ask, how often, and what
// the answers mean is HeadwayCI's.
#ifndef HEADWAY_CURL_H
#define HEADWAY_CURL_H

#include <stddef.h>
#include <stdint.h>

typedef struct hw_http hw_http;

/// Loads libcurl.so.4 once. 0 on success; else -1 and hw_http_load_error() says why.
int hw_http_load(void);
const char *hw_http_load_error(void);
/// libcurl's version ("7.88.1") and the CA bundle it was built to use (NULL when none).
const char *hw_http_version(void);
const char *hw_http_default_ca_file(void);

hw_http *hw_http_new(void);
void hw_http_destroy(hw_http *client);

/// Trusts the PEM certificates in `pem` (copied) for every transfer started from now on, in
/// place of libcurl's own CA file: the caller passes the system's bundle and an added CA together.
int hw_http_set_ca(hw_http *client, const void *pem, size_t length);

/// Starts a GET of `url` with `header_count` request header lines ("Name: value"). The body is
/// refused past `max_bytes`; the connection must be made within `connect_timeout_ms` and the
/// whole transfer within `timeout_ms`; at most `max_redirects` redirects, to http or https only.
/// `tag` comes back with the result. 0, or libcurl's error code when an option was refused.
int hw_http_get(hw_http *client, uint64_t tag, const char *url, const char *const *headers, int header_count, long long max_bytes,
                long connect_timeout_ms, long timeout_ms, long max_redirects);

/// Starts a POST of `body` (`body_length` bytes, copied) to `url`, with the header lines given (its
/// Content-Type among them); no redirects are followed. As hw_http_get otherwise.
int hw_http_post(hw_http *client, uint64_t tag, const char *url, const char *const *headers, int header_count, const void *body,
                 long long body_length, long long max_bytes, long connect_timeout_ms, long timeout_ms);

/// Waits at most `timeout_ms` for the transfers' sockets and the `count` descriptors given (each
/// readable, or writable where `sending[i]` is 1: `ready[i]` set to 1 when it is), then moves
/// every transfer on. 0, or libcurl's multi error code.
int hw_http_poll(hw_http *client, int timeout_ms, const int *fds, const int *sending, int *ready, int count);
/// Transfers started and not yet finished.
int hw_http_running(hw_http *client);

typedef struct hw_http_connection hw_http_connection;

typedef struct {
    uint64_t tag;
    /// libcurl's result (0: a response came, whatever its status).
    int code;
    /// The body or the headers passed their limit (the transfer was stopped there).
    int too_large;
    long status;
    char error[256];
    uint8_t *body;
    size_t body_length;
    /// The last response's header lines, each ending in "\n".
    char *headers;
    size_t headers_length;
    /// Seconds the transfer took.
    double seconds;
    /// A connection hw_http_connect made, the caller's to close (NULL for a transfer, or when it
    /// failed: `code` says why).
    hw_http_connection *connection;
} hw_http_result;

/// Starts a connection to the host and port of `url` (http: plain TCP, https: TLS checked as for
/// transfers, a proxy as the environment names) for a protocol the caller speaks over it — a
/// WebSocket's upgrade and frames. Its result comes like a transfer's, `connection` set when it
/// was made. 0, or libcurl's error code when an option was refused.
int hw_http_connect(hw_http *client, uint64_t tag, const char *url, long connect_timeout_ms);
/// The connection's socket, to wait on (hw_http_poll's descriptors).
int hw_http_connection_socket(hw_http_connection *connection);
/// Sends what the socket takes now of `length` bytes; `*sent` says how many. 0, 81 (CURLE_AGAIN:
/// nothing could be sent now), or libcurl's error code.
int hw_http_connection_send(hw_http_connection *connection, const void *bytes, size_t length, size_t *sent);
/// Reads what has arrived, at most `length` bytes. 0 with `*received` 0: the server closed the
/// connection; 81 (CURLE_AGAIN): nothing now; else libcurl's error code.
int hw_http_connection_receive(hw_http_connection *connection, void *buffer, size_t length, size_t *received);
/// Closes the connection and frees it.
void hw_http_connection_close(hw_http_connection *connection);

/// The oldest finished transfer, or NULL; free it with hw_http_result_free.
hw_http_result *hw_http_next(hw_http *client);
void hw_http_result_free(hw_http_result *result);
/// libcurl's words for `code`.
const char *hw_http_strerror(int code);

#endif
