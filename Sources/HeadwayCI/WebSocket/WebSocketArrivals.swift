/// What a server sent over one WebSocket, counted in windows of ``window`` seconds: a server that
/// sends more messages or bytes in one window than any source of Headway's does in normal use
/// (a subscription names only what starts, pauses or ends a job) is broken or hostile, and its
/// socket is closed rather than read at its pace.
package struct WebSocketArrivals: Sendable, Equatable {
    package static let window = 10.0
    /// Messages, pings and pongs included, in one window: a hundred a second on average, where
    /// Moonraker's busiest (its process statistics and G-code replies) is a few a second.
    package static let maxMessages = 1000
    /// Bytes in one window: each message handed on is read as JSON, so bytes cost the loop time.
    package static let maxBytes = 4 << 20

    private var windowStart: Double?
    private var messages = 0
    private var bytes = 0

    package init() {}

    /// Counts `bytes` that completed `messages` at `now` (seconds, monotonic); false once this
    /// window has had more than the limits allow.
    package mutating func count(bytes: Int, messages: Int, at now: Double) -> Bool {
        if windowStart.map({ now - $0 >= Self.window }) ?? true {
            windowStart = now
            self.messages = 0
            self.bytes = 0
        }
        self.messages += messages
        self.bytes += bytes
        return self.messages <= Self.maxMessages && self.bytes <= Self.maxBytes
    }

    /// Why a socket that was over the limits was closed, for the log.
    package static var exceeded: String {
        "the server sent more than \(maxMessages) messages or \(maxBytes >> 20) MiB in \(Int(window)) s; the WebSocket was closed"
    }
}
