import HeadwayCI
import HeadwayCore

/// One WebSocket to a server: the connection libcurl makes (TLS for wss://), then RFC 6455's
/// opening handshake and frames (HeadwayCI's WebSocketHandshake and WebSocketFrameReader). A
/// ping is answered, a close is answered and ends it; whatever ends it is said once, in words.
///
/// What a server sends cannot take the follower: each wake-up reads at most ``readBudget`` bytes
/// (the loop goes on to its looks and signals between), at most one pong is owed however many
/// pings come (§5.5.3 lets the last one be answered), a message is at most ``maxMessage`` bytes,
/// what waits to be sent at most ``maxOutgoing``, and a server that sends faster than
/// `WebSocketArrivals` allows is closed.
final class WebSocketChannel {
    enum Event: Equatable {
        /// The upgrade was accepted: messages may be sent.
        case opened
        case text(String)
        /// The connection was lost (closed, reset, a send that failed): the server or the network is
        /// gone, which the source's looks say too.
        case lost(String)
        /// The server refused the upgrade or broke the protocol: why, in one line.
        case refused(String)
    }

    /// The address as given (ws:// or wss://).
    let url: String
    private let headers: [String]
    private var connection: CurlConnection?
    private var handshake: WebSocketHandshake
    private var reader: WebSocketFrameReader?
    private var outgoing: [UInt8] = []
    /// The payload of the last ping not yet answered.
    private var pongOwed: [UInt8]?
    private var arrivals = WebSocketArrivals()
    private var random = SystemRandomNumberGenerator()
    private(set) var isOpen = false
    private var ended = false

    /// The largest message taken: what the sources subscribe to comes in a few kilobytes (a Home
    /// Assistant entity's state, Moonraker's answer naming three fields, OctoPrint's history).
    static let maxMessage = 1 << 20
    /// The most bytes waiting to be sent (a few subscription messages and a pong).
    static let maxOutgoing = 1 << 20
    /// The most bytes read in one wake-up.
    static let readBudget = 256 << 10

    /// A channel to `url` (ws:// or wss://), the upgrade request carrying `headers` (a token's).
    init(url: String, headers: [String]) {
        self.url = url
        self.headers = headers
        handshake = WebSocketHandshake(using: &random)
    }

    /// The http(s):// address libcurl connects to, with the host and path the upgrade names.
    static func parts(of url: String) -> (connect: String, host: String, path: String)? {
        let scheme: String
        if url.hasPrefix("ws://") { scheme = "http://" } else if url.hasPrefix("wss://") { scheme = "https://" } else { return nil }
        let host = hostOf(url)
        guard !host.isEmpty else { return nil }
        let rest = url.drop { $0 != "/" }.dropFirst(2)
        let path = rest.drop { $0 != "/" && $0 != "?" }
        return (scheme + host + "/", host, path.isEmpty ? "/" : String(path))
    }

    var socket: Int32? { connection?.socket }

    /// Whether bytes wait to be sent: the socket is then waited on for room as well.
    var isWaitingToSend: Bool { connection != nil && (!outgoing.isEmpty || pongOwed != nil) }

    /// The connection libcurl made: the upgrade request goes out.
    func connected(_ connection: CurlConnection) -> [Event] {
        guard let parts = Self.parts(of: url) else { return end(.refused("\(url) is not a ws:// or wss:// address")) }
        self.connection = connection
        outgoing += handshake.request(host: parts.host, path: parts.path, headers: headers)
        return flush()
    }

    /// Reads what arrived, at most ``readBudget`` bytes (the rest waits for the next wake-up): the
    /// upgrade's answer, then messages; answers pings and a close; sends what waits to be sent.
    func ready(at now: Double) -> [Event] {
        var events: [Event] = []
        var read = 0
        while !ended, read < Self.readBudget, let connection {
            switch connection.receive(limit: min(65536, Self.readBudget - read)) {
            case .nothing: return events + flush()
            case .closed: return events + end(.lost("the server closed the connection"))
            case .failed(let why): return events + end(.lost("the connection failed (\(why))"))
            case .bytes(let bytes):
                read += bytes.count
                events += take(bytes, at: now)
            }
        }
        return events + flush()
    }

    /// Sends `text` as one message (queued until the socket takes it).
    func send(_ text: String) -> [Event] {
        guard isOpen, !ended else { return [] }
        outgoing += WebSocketFrameWriter.text(text, using: &random)
        return flush()
    }

    /// Ends the channel, telling the server with a close frame when it is open.
    func close() {
        if isOpen, !ended {
            outgoing += WebSocketFrameWriter.close(1000, using: &random)
            _ = flush()
        }
        ended = true
        connection = nil
    }

    private func take(_ bytes: [UInt8], at now: Double) -> [Event] {
        if reader == nil {
            do throws(WebSocketHandshake.Refusal) {
                guard let rest = try handshake.feed(bytes) else { return [] }
                reader = WebSocketFrameReader(maxMessage: Self.maxMessage)
                isOpen = true
                return [.opened] + (rest.isEmpty ? [] : take(rest, at: now))
            } catch {
                return end(.refused(Self.words(error)))
            }
        }
        do throws(WebSocketFrameError) {
            var events: [Event] = []
            let messages = try reader!.feed(bytes)
            guard arrivals.count(bytes: bytes.count, messages: messages.count, at: now) else {
                outgoing += WebSocketFrameWriter.close(1008, using: &random)
                _ = flush()
                return end(.refused(WebSocketArrivals.exceeded))
            }
            for message in messages {
                switch message {
                case .text(let text): events.append(.text(text))
                case .binary, .pong: break
                case .ping(let payload): pongOwed = payload
                case .close(let code, let reason):
                    outgoing += WebSocketFrameWriter.close(code ?? 1000, using: &random)
                    _ = flush()
                    let said = reason.isEmpty ? "" : ": \(DisplayText.sanitised(String(reason.prefix(120))))"
                    return events + end(.lost("the server closed the WebSocket (\(code.map(String.init) ?? "no code")\(said))"))
                }
            }
            return events
        } catch {
            outgoing += WebSocketFrameWriter.close(error.closeCode, using: &random)
            _ = flush()
            return end(.refused("the server sent \(error.description); the WebSocket was closed"))
        }
    }

    private func flush() -> [Event] {
        // The pong owed goes out once what was queued before it has: a server that pings and
        // does not read gets one pong, not one per ping.
        if outgoing.isEmpty, let payload = pongOwed {
            outgoing = WebSocketFrameWriter.pong(payload, using: &random)
            pongOwed = nil
        }
        guard let connection, !outgoing.isEmpty else { return [] }
        switch connection.send(outgoing[...]) {
        case .success(let sent): outgoing.removeFirst(sent)
        case .failure(let failure): return end(.lost("sending failed (\(failure.description))"))
        }
        // A server that takes nothing more (the socket's buffer full) while messages pile up.
        if outgoing.count > Self.maxOutgoing { return end(.refused("the server did not read what was sent")) }
        return []
    }

    private func end(_ event: Event) -> [Event] {
        guard !ended else { return [] }
        ended = true
        isOpen = false
        connection = nil
        return [event]
    }

    private static func words(_ refusal: WebSocketHandshake.Refusal) -> String {
        switch refusal {
        case .status(let code) where code == 401 || code == 403: "the server refused the token for its WebSocket (\(code))"
        case .status(let code): "the server did not take the WebSocket upgrade (HTTP \(code)); is the address the API's?"
        case .notWebSocket(let why): "the server's answer to the upgrade was not a WebSocket's (\(why))"
        case .malformed(let why): "the server's answer to the upgrade was \(why)"
        }
    }
}
