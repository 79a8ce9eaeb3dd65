import HeadwayCI
import HeadwayCore

/// One WebSocket to a server: the connection libcurl makes (TLS for wss://), then RFC 6455's
/// opening handshake and frames (HeadwayCI's WebSocketHandshake and WebSocketFrameReader). A
/// ping is answered, a close is answered and ends it; whatever ends it is said once, in words.
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
    private var random = SystemRandomNumberGenerator()
    private(set) var isOpen = false
    private var ended = false

    /// The largest message taken (Moonraker's subscription answer, a Home Assistant state).
    static let maxMessage = 4 << 20
    /// The most bytes waiting to be sent (a few subscription and pong messages).
    static let maxOutgoing = 1 << 20

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

    /// The connection libcurl made: the upgrade request goes out.
    func connected(_ connection: CurlConnection) -> [Event] {
        guard let parts = Self.parts(of: url) else { return end(.refused("\(url) is not a ws:// or wss:// address")) }
        self.connection = connection
        outgoing += handshake.request(host: parts.host, path: parts.path, headers: headers)
        return flush()
    }

    /// Reads what arrived: the upgrade's answer, then messages; answers pings and a close.
    func readable() -> [Event] {
        var events: [Event] = []
        while !ended, let connection {
            switch connection.receive() {
            case .nothing: return events + flush()
            case .closed: return events + end(.lost("the server closed the connection"))
            case .failed(let why): return events + end(.lost("the connection failed (\(why))"))
            case .bytes(let bytes): events += take(bytes)
            }
        }
        return events
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

    private func take(_ bytes: [UInt8]) -> [Event] {
        if reader == nil {
            do throws(WebSocketHandshake.Refusal) {
                guard let rest = try handshake.feed(bytes) else { return [] }
                reader = WebSocketFrameReader(maxMessage: Self.maxMessage)
                isOpen = true
                return [.opened] + (rest.isEmpty ? [] : take(rest))
            } catch {
                return end(.refused(Self.words(error)))
            }
        }
        do throws(WebSocketFrameError) {
            var events: [Event] = []
            for message in try reader!.feed(bytes) {
                switch message {
                case .text(let text): events.append(.text(text))
                case .binary, .pong: break
                case .ping(let payload): outgoing += WebSocketFrameWriter.pong(payload, using: &random)
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
