import HeadwayCore

/// A request that a source wants made — a GET of a look, or a POST that carries a command from
/// Headway's button to the server — and what came back: the seam between the sources' logic and
/// the HTTP client (libcurl in headway-ci, canned answers in the tests).
public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: String
    /// Header lines besides the conditional ones, which the follower adds ("Accept: …").
    public var headers: [String]
    /// A POST's body (JSON, with its `Content-Type` among the headers).
    public var body: [UInt8]

    public init(url: String, headers: [String] = [], method: Method = .get, body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A POST of `json` (its text) to `url`.
    public static func post(_ url: String, json: String? = nil) -> HTTPRequest {
        HTTPRequest(url: url, headers: json == nil ? [] : ["Content-Type: application/json"], method: .post, body: Array((json ?? "").utf8))
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Response headers, looked up without regard to case (HTTP/2 sends them in lower case, HTTP/1.1
/// servers as they like). The last of a repeated header wins.
public struct HTTPHeaders: Sendable, Equatable {
    private var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0.lowercased(), value: $0.1) }
    }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Header lines as a client received them ("Name: value\r\n" each; the status line and
    /// anything else that is no header are skipped).
    public init(lines text: String) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces
            let value = line[line.index(after: colon)...].trimmingSpaces
            guard !name.isEmpty, !name.contains(" ") else { continue }
            fields.append((name: name.lowercased(), value: value))
        }
    }

    public subscript(name: String) -> String? {
        let key = name.lowercased()
        return fields.last { $0.name == key }?.value
    }
}

/// Why no response came: each says what happened and to which host, for one clear line.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TLS handshake or the certificate's check failed.
    case tls(host: String, detail: String)
    /// The host name does not resolve (or the proxy's).
    case resolve(host: String, detail: String)
    case connect(host: String, detail: String)
    case timeout(host: String, seconds: Double)
    /// The body (or its headers) passed the limit: the transfer was stopped there.
    case tooLarge(host: String, limit: Int)
    case redirects(host: String, limit: Int)
    case other(host: String, detail: String)

    /// What failed and where, without the transport's details (timings, its own wording).
    public enum Kind: Sendable, Equatable {
        case tls(host: String), resolve(host: String), connect(host: String), timeout(host: String)
        case tooLarge(host: String), redirects(host: String), other(host: String)
    }

    public var kind: Kind {
        switch self {
        case .tls(let host, _): .tls(host: host)
        case .resolve(let host, _): .resolve(host: host)
        case .connect(let host, _): .connect(host: host)
        case .timeout(let host, _): .timeout(host: host)
        case .tooLarge(let host, _): .tooLarge(host: host)
        case .redirects(let host, _): .redirects(host: host)
        case .other(let host, _): .other(host: host)
        }
    }

    public var description: String {
        switch self {
        case .tls(let host, let detail): "TLS with \(host) failed (\(detail)); if it uses a private CA, give it with --ca-file"
        case .resolve(let host, let detail): "cannot resolve \(host) (\(detail)); check the address, the network and any proxy (https_proxy)"
        case .connect(let host, let detail): "cannot connect to \(host) (\(detail)); is the server running, and the address and port right?"
        case .timeout(let host, let seconds): "\(host) did not answer within \(NumberText.compact(seconds)) s; a slow server may be given longer with --timeout"
        case .tooLarge(let host, let limit): "\(host) sent more than \(limit / 1_048_576) MiB; the answer was refused (is the address the API's?)"
        case .redirects(let host, let limit): "\(host) redirected more than \(limit) times; check the address"
        case .other(let host, let detail): "the request to \(host) failed: \(detail)"
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The host (and port) of a URL, for messages.
public func hostOf(_ url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
    let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = host.lastIndex(of: "@") { return String(host[host.index(after: at)...]) }
    return String(host)
}
