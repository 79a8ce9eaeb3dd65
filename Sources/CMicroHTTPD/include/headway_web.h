// A thin C entry to GNU libmicrohttpd (Debian's libmicrohttpd12, libmicrohttpd12t64 on Debian 13),
// loaded with dlopen when the service's web page is first configured: no other program loads it,
// and the build needs no libmicrohttpd-dev. libmicrohttpd parses HTTP, bounds each connection's
// memory (over-long request lines and headers are refused by it), times silent clients out, caps
// connections in all and per address, and speaks TLS through GnuTLS; the shim adds a deadline for
// each request to come in (libmicrohttpd has none) and makes room for new clients near the limit. Each connection
// has a thread of its own (MHD_USE_THREAD_PER_CONNECTION): a handler may wait for the service's
// loop, and an event stream's writer may wait for its next event, without holding up any other
// client. No policy lives here: who may do what, and what each page says, is HeadwayService's.
#ifndef HEADWAY_WEB_H
#define HEADWAY_WEB_H

#include <stddef.h>
#include <stdint.h>

typedef struct hw_web hw_web;
typedef struct hw_web_stream hw_web_stream;

/// One request as the handler sees it: what it asks, who asks, and its body (at most the server's
/// body limit; `body_too_large` when more was sent, the rest discarded).
typedef struct {
    const char *method;
    const char *url;
    const char *host;
    const char *origin;
    const char *cookie;
    const char *csrf;
    const char *authorization;
    const char *content_type;
    const char *fetch_site;
    /// The client's address as text ("192.0.2.7", "::1").
    char client[64];
    const uint8_t *body;
    size_t body_length;
    int body_too_large;
    /// The connection (libmicrohttpd's), for hw_web_respond and hw_web_respond_stream.
    void *connection;
    /// Whether an answer was queued.
    int answered;
} hw_web_request;

/// Answers one request; called on the connection's own thread.
typedef void (*hw_web_handler)(void *context, hw_web_request *request);

/// Loads libmicrohttpd.so.12 once. 0 on success; else -1 and hw_web_load_error() says why.
int hw_web_load(void);
const char *hw_web_load_error(void);
/// libmicrohttpd's version ("0.9.75").
const char *hw_web_version(void);

/// What one server allows.
typedef struct {
    /// Connections at once in all, and from one address (libmicrohttpd refuses past either).
    unsigned max_connections;
    unsigned max_per_address;
    /// Once all but this many places are taken, each new client closes the connection that has
    /// waited longest without a request, so slow clients cannot keep a quick one out; the places
    /// left take up those still closing.
    unsigned spare_connections;
    /// Near the limit, a client (an IPv4 address, an IPv6 /64) already holding this many
    /// connections without a request is refused rather than make room.
    unsigned waiting_per_address;
    /// Silence this long closes any connection.
    unsigned timeout_seconds;
    /// A request (line, headers and body) must have come in within this long of its connection
    /// opening or of the answer before it on that connection, else the connection is closed.
    /// Answers, event streams too, have no such deadline.
    unsigned request_seconds;
    /// Bodies beyond this many bytes are refused (the handler is told).
    size_t max_body;
    /// What one connection's request line and headers may take.
    size_t memory_limit;
} hw_web_limits;

/// Listens on `address` (an IPv4 or IPv6 literal) and `port` (0: any free one), serving with
/// `handler` within `limits` (copied). `cert_pem` and `key_pem` (both or neither, copied) turn TLS
/// on. A request whose body could be read two ways (Content-Length and Transfer-Encoding, two
/// Content-Lengths, a coding other than chunked) gets 400, and every 400 closes its connection.
/// NULL on failure, with `error` (256 bytes) saying why.
hw_web *hw_web_start(const char *address, int port, const char *cert_pem, const char *key_pem, const hw_web_limits *limits,
                     hw_web_handler handler, void *context, char *error);
/// The port it listens on (the one chosen when 0 was asked).
int hw_web_port(hw_web *web);
/// Stops listening and waits for every connection's thread; every stream must be closed first.
void hw_web_stop(hw_web *web);

/// Answers `request` with `status`, the header lines in `headers` ("Name: value\n" each) and `body`.
int hw_web_respond(hw_web_request *request, unsigned status, const char *headers, const void *body, size_t length);

/// Answers `request` with an endless body written from a stream (Server-Sent Events): what is
/// pushed is sent in order; after `heartbeat_seconds` with nothing to send, `heartbeat` is sent
/// (so a client that went away is found). At most `max_buffered` bytes wait for a slow client:
/// past that the stream is closed. `socket_buffer` (bytes, 0 for the system's own) is what the
/// connection's socket is asked to hold in the kernel (SO_SNDBUF, which Linux doubles). The
/// stream is returned with two references, the caller's and the connection's; each lets go with
/// hw_web_stream_release.
hw_web_stream *hw_web_respond_stream(hw_web_request *request, const char *headers, const char *heartbeat, unsigned heartbeat_seconds,
                                     size_t max_buffered, int socket_buffer);
/// Queues bytes on the stream. 0, or -1 when it is closed (the client went away, or was too slow).
int hw_web_stream_push(hw_web_stream *stream, const void *bytes, size_t length);
/// Bytes of what was pushed that the connection has taken so far (what is still queued is what was
/// pushed less this).
uint64_t hw_web_stream_taken(hw_web_stream *stream);
/// Whether the stream still has its client.
int hw_web_stream_open(hw_web_stream *stream);
/// Ends the stream (the client's connection closes once what was queued is sent).
void hw_web_stream_close(hw_web_stream *stream);
void hw_web_stream_release(hw_web_stream *stream);

#endif
