import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// Where the broker is and how to log in: `mqtt://host[:port]` (1883) or `mqtts://host[:port]`
/// (8883, TLS). The user and password never come from the command line, where `ps` shows them:
/// `HEADWAY_BROKER_USER`, and `HEADWAY_BROKER_PASSWORD` or a file named by
/// `HEADWAY_BROKER_PASSWORD_FILE` (its first line). `HEADWAY_BROKER_CA` names the CA certificate
/// that signed an mqtts broker's (default: the system's).
public struct BrokerSettings: Sendable, Equatable {
    /// The broker's host name or address.
    public var host: String
    /// Its port (1883 for mqtt://, 8883 for mqtts://).
    public var port: Int
    /// Whether the connection uses TLS (mqtts://).
    public var tls: Bool
    /// The user to log in as, if any.
    public var user: String?
    /// The user's password, if any.
    public var password: String?
    /// The CA certificate that signed an mqtts broker's (nil: the system's).
    public var caFile: String?

    /// What is wrong with a broker's address or credentials, and how to put it right.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Settings of each member given.
    public init(host: String, port: Int, tls: Bool, user: String? = nil, password: String? = nil, caFile: String? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.user = user
        self.password = password
        self.caFile = caFile
    }

    /// `url` with the credentials and CA from `environment`.
    public init(url: String, environment: (String) -> String? = SystemIO.environment) throws(Problem) {
        let scheme: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            scheme = false
            rest = url.dropFirst("mqtt://".count)
        } else if url.hasPrefix("mqtts://") {
            scheme = true
            rest = url.dropFirst("mqtts://".count)
        } else {
            throw Problem(description: "broker \"\(DisplayText.sanitised(String(url.prefix(80))))\" must start with mqtt:// or mqtts://, like mqtt://broker.local or mqtts://broker.local:8883")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("@") {
            throw Problem(description: "put no user or password in the broker's address (ps shows it): set HEADWAY_BROKER_USER and HEADWAY_BROKER_PASSWORD_FILE")
        }
        var host = rest
        var port = scheme ? 8883 : 1883
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw Problem(description: "broker port \"\(DisplayText.sanitised(String(rest[rest.index(after: colon)...].prefix(20))))\" must be 1…65535")
            }
            port = number
            host = rest[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-_:".contains($0) }) else {
            throw Problem(description: "broker host \"\(DisplayText.sanitised(String(host.prefix(80))))\" is not a host name or address")
        }
        self.init(host: String(host), port: port, tls: scheme)
        user = environment("HEADWAY_BROKER_USER")
        if let file = environment("HEADWAY_BROKER_PASSWORD_FILE") {
            guard let line = Files.firstLine(of: file) else {
                throw Problem(description: "cannot read the password file \(DisplayText.sanitised(file)) (HEADWAY_BROKER_PASSWORD_FILE)")
            }
            password = line
        } else {
            password = environment("HEADWAY_BROKER_PASSWORD")
        }
        if password != nil, user == nil { throw Problem(description: "a broker password without a user: set HEADWAY_BROKER_USER too") }
        caFile = environment("HEADWAY_BROKER_CA")
        if let caFile, !Files.mayOpen(caFile, for: .read) {
            throw Problem(description: "cannot read the CA certificate \(DisplayText.sanitised(caFile)) (HEADWAY_BROKER_CA)")
        }
        if caFile != nil, !tls { throw Problem(description: "HEADWAY_BROKER_CA is for mqtts:// brokers; this one is mqtt://") }
    }

    /// For messages: the address without credentials.
    public var address: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }
}
