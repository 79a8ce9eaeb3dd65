import HeadwayProtocol
import HeadwaySystem

/// The service's web page and metrics (`web:` in the configuration, `--web` on `headway-sim
/// serve`): where it listens, who may use it, and how much it serves.
public struct WebSettings: Sendable, Equatable {
    /// Who may use the page and what it asks of them.
    public enum MetricsAccess: String, Sendable, Equatable, CaseIterable {
        /// `/metrics` behind the page's own access rule (a session, or the token as a bearer).
        case protected
        /// `/metrics` to anyone who reaches the port.
        case open
        /// No `/metrics`.
        case off
    }

    /// The address listened on: an IPv4 or IPv6 literal.
    public var address: String
    /// The port (0: any free one, for tests).
    public var port: Int
    /// The yescrypt hash of the password people log in with (`headwayd hash-password`).
    public var passwordHash: String?
    /// The token (read from the token file) scripts present as a bearer, or people as a password.
    public var token: String?
    /// Names the page is reached by besides its address and localhost (`pi.local`): any other
    /// `Host` is refused, so a page on another site cannot reach it by DNS rebinding.
    public var hosts: [String] = []
    /// The PEM certificate and key for HTTPS (both or neither).
    public var certificate: String?
    /// The key that goes with ``certificate``.
    public var key: String?
    /// Who may read `/metrics`.
    public var metrics: MetricsAccess = .protected
    /// Pages open at once (live event streams); one more is told to try later. Each holds a
    /// thread and, in the service, at most 64 KB of changes, one more and one whole state (the
    /// hub's bound): 32 take twenty phones and browsers with room to spare.
    public var viewers: Int = 32
    /// Where it was configured (`file:line`), for messages.
    public var source: String = "--web"

    /// The page on `address`:`port`, open to whoever reaches it on loopback and to nobody else.
    public init(address: String = "127.0.0.1", port: Int = 8080) {
        self.address = address
        self.port = port
    }

    /// Whether anyone must log in: a password or token is set.
    public var requiresLogin: Bool { passwordHash != nil || token != nil }

    /// Whether it listens on loopback only (127.0.0.0/8 or ::1).
    public var isLoopback: Bool { Self.isLoopback(address) }

    /// Whether `address` is a loopback address: localhost, 127.0.0.0/8 or ::1, the rule a token over plain HTTP follows too.
    public static func isLoopback(_ address: String) -> Bool { LoopbackAddress.contains(address) }

    /// `HOST:PORT`, `[V6]:PORT`, `:PORT` or `PORT` → address and port; nil when it is none of those.
    public static func parseListen(_ text: String) -> (address: String, port: Int)? {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            if colon != text.startIndex { host = String(text[..<colon]) }
            portText = text[text.index(after: colon)...]
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else { return nil }
        guard isIPv4(host) || host.contains(":") else { return nil }
        return (host, port)
    }

    private static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && Int(part).map { (0...255).contains($0) } == true }
    }
}

extension WebSettings {
    /// A yescrypt hash of `password` for `password-hash:`; nil when the system cannot make one.
    public static func hash(password: String) -> String? { try? Secrets.hash(password) }
}
