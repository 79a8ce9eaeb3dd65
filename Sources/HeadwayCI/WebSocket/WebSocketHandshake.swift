import HeadwayCore

/// The opening handshake of a WebSocket client (RFC 6455 §4.1): the HTTP/1.1 upgrade request, and
/// the check of the server's answer — 101, `Upgrade: websocket`, `Connection: Upgrade` and the
/// `Sec-WebSocket-Accept` computed from this request's key. The answer's head is held to
/// ``maxHead`` bytes; what follows it is the first frames' bytes.
package struct WebSocketHandshake: Sendable {
    /// The key sent, 16 random bytes in Base64 (§4.1, item 7).
    package let key: String
    private var head: [UInt8] = []

    /// Larger answer heads are refused (a server's 101 is a few hundred bytes).
    package static let maxHead = 16 * 1024

    /// The GUID every server appends to the key (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    package init(using generator: inout some RandomNumberGenerator) {
        key = Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    package init(key: String) {
        self.key = key
    }

    /// The request for `path` on `host` (with its port when not the scheme's), `headers` being
    /// further lines such as a token's (`Name: value`).
    package func request(host: String, path: String, headers: [String] = []) -> [UInt8] {
        var lines = ["GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"]
        lines += headers
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` a server must answer to `key`.
    package static func accept(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + guid).utf8)))
    }

    /// Why an upgrade was refused.
    package enum Refusal: Error, Equatable, Sendable {
        /// The server answered with another status: a token refused (401, 403), no WebSocket
        /// there (404, 400, 426…).
        case status(Int)
        /// It answered 101 without the upgrade's headers or with the wrong accept.
        case notWebSocket(String)
        /// The answer's head was not HTTP, or longer than ``maxHead``.
        case malformed(String)
    }

    /// The bytes that came after the answer's head once it is complete (nil while it is not).
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(Refusal) -> [UInt8]? {
        head.append(contentsOf: bytes)
        guard let end = Self.endOfHead(head) else {
            if head.count > Self.maxHead { throw .malformed("an answer head longer than \(Self.maxHead) bytes") }
            return nil
        }
        guard end <= Self.maxHead else { throw .malformed("an answer head longer than \(Self.maxHead) bytes") }
        let text = String(decoding: head[..<end], as: UTF8.self)
        let status = text.prefix { $0 != "\r" && $0 != "\n" }.split(separator: " ", maxSplits: 2)
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]) else {
            throw .malformed("an answer that is not HTTP/1.1")
        }
        guard code == 101 else { throw .status(code) }
        let fields = HTTPHeaders(lines: text)
        guard fields["upgrade"]?.lowercased() == "websocket" else { throw .notWebSocket("no Upgrade: websocket") }
        guard fields["connection"]?.lowercased().split(separator: ",").contains(where: { $0.trimmingSpaces == "upgrade" }) == true else {
            throw .notWebSocket("no Connection: Upgrade")
        }
        guard fields["sec-websocket-accept"] == Self.accept(for: key) else { throw .notWebSocket("a Sec-WebSocket-Accept that does not match the key") }
        guard fields["sec-websocket-extensions"] == nil else { throw .notWebSocket("an extension that was not asked for") }
        return Array(head[(end + 4)...])
    }

    /// Where the blank line that ends the head begins.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
