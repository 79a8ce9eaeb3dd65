import HeadwayCore
import HeadwaySystem

/// Who may use the page: the checks every request passes, sessions, and the bound on guessing.
///
/// - `Host` must name the page (its address, localhost on loopback, a configured name): a page on
///   another site that points its own name at this address (DNS rebinding) is refused.
/// - A control (POST) must come from the page itself: its `Origin`, when sent, names the page's
///   host, `Sec-Fetch-Site` is not cross-site, and it carries the session's CSRF token.
/// - With a password or token set, everything but the page's shell and the login needs a session
///   (a random id in an HttpOnly, SameSite=Strict cookie) or the token as a bearer.
/// - Logins are limited per client address and in all.
/// Not thread-safe on its own: the web server calls it under its lock.
struct WebAccess {
    struct Session {
        let id: String
        let csrf: String
        var lastUsed: Seconds
    }

    /// Sessions kept at most; the least recently used goes first.
    static let sessionLimit = 64
    /// A session unused this long is over.
    static let sessionIdle: Seconds = 12 * 3600
    /// Failed logins one address may make in ``loginWindow``, and all addresses together.
    static let loginsPerAddress = 5
    static let loginsInAll = 30
    static let loginWindow: Seconds = 60
    /// Addresses whose failures are remembered at most.
    static let addressesKept = 1024

    let settings: WebSettings
    private(set) var sessions: [String: Session] = [:]
    private var failures: [String: [Seconds]] = [:]
    private var allFailures: [Seconds] = []

    init(settings: WebSettings) {
        self.settings = settings
    }

    /// The cookie's name.
    static let cookie = "headway_session"

    // MARK: - Host and origin

    /// Whether `host` (the `Host` header, with its port) names this page.
    func acceptsHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased(), !host.isEmpty, host.utf8.count < 256 else { return false }
        let name = Self.hostName(host)
        if name == settings.address.lowercased() { return true }
        if settings.hosts.contains(name) { return true }
        // On loopback the page may be opened as localhost; a page listening on every address is
        // reached by any of the machine's own addresses, which only a configured name may stand for.
        if name == "localhost" || name == "127.0.0.1" || name == "::1" { return settings.isLoopback || settings.address == "0.0.0.0" || settings.address == "::" }
        return false
    }

    /// `name:port` or `[v6]:port` → the name.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[host.index(after: host.startIndex)..<close]) }
        if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon { return String(host[..<colon]) }
        return host
    }

    /// Whether a control may come from `origin` (the `Origin` header) and `fetchSite`
    /// (`Sec-Fetch-Site`) to a page reached as `host`.
    func acceptsOrigin(_ origin: String?, fetchSite: String?, host: String?) -> Bool {
        if let site = fetchSite?.lowercased(), site == "cross-site" || site == "same-site" { return false }
        guard let origin = origin?.lowercased() else { return true }  // no browser left it out on a POST; a script may
        guard let host = host?.lowercased() else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    // MARK: - Sessions

    /// The session a request's cookie names, if it is current (and touched).
    mutating func session(cookie: String?, at now: Seconds) -> Session? {
        guard let id = Self.cookieValue(cookie), var session = sessions[id] else { return nil }
        guard now - session.lastUsed < Self.sessionIdle else {
            sessions[id] = nil
            return nil
        }
        session.lastUsed = now
        sessions[id] = session
        return session
    }

    /// A new session; the least recently used goes when there are too many.
    mutating func newSession(at now: Seconds) -> Session {
        if sessions.count >= Self.sessionLimit, let oldest = sessions.values.min(by: { $0.lastUsed < $1.lastUsed }) { sessions[oldest.id] = nil }
        let session = Session(id: Secrets.randomToken(), csrf: Secrets.randomToken(), lastUsed: now)
        sessions[session.id] = session
        return session
    }

    mutating func endSession(_ id: String) { sessions[id] = nil }

    /// Our cookie's value in a `Cookie` header.
    static func cookieValue(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }
            if pair.hasPrefix(cookie + "=") {
                let value = pair.dropFirst(cookie.count + 1)
                guard value.utf8.count == 64, value.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
                return String(value)
            }
        }
        return nil
    }

    /// The `Set-Cookie` line for `session` (Secure over TLS).
    func setCookie(_ session: Session) -> String {
        "Set-Cookie: \(Self.cookie)=\(session.id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(Self.sessionIdle))\(settings.certificate != nil ? "; Secure" : "")\n"
    }

    var clearCookie: String { "Set-Cookie: \(Self.cookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\n" }

    // MARK: - Secrets

    /// Whether `authorization` (`Bearer TOKEN`) carries the token.
    func bearerMatches(_ authorization: String?) -> Bool {
        guard let token = settings.token, let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return Self.same(String(authorization.dropFirst(7)), token)
    }

    /// Whether `secret` is the password or the token.
    func secretMatches(_ secret: String) -> Bool {
        if let token = settings.token, Self.same(secret, token) { return true }
        if let hash = settings.passwordHash, Secrets.matches(secret, hash: hash) == true { return true }
        return false
    }

    /// Compares in time that depends on the lengths only.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    // MARK: - Guessing

    /// Seconds `address` must wait before it may try to log in again (nil: it may now).
    mutating func loginWait(for address: String, at now: Seconds) -> Seconds? {
        let since = now - Self.loginWindow
        allFailures.removeAll { $0 < since }
        if var times = failures[address] {
            times.removeAll { $0 < since }
            failures[address] = times.isEmpty ? nil : times
        }
        if let times = failures[address], times.count >= Self.loginsPerAddress { return max(1, times[0] + Self.loginWindow - now) }
        if allFailures.count >= Self.loginsInAll { return max(1, allFailures[0] + Self.loginWindow - now) }
        return nil
    }

    /// A login from `address` failed.
    mutating func loginFailed(from address: String, at now: Seconds) {
        allFailures.append(now)
        if failures[address] == nil, failures.count >= Self.addressesKept {
            // Forget the address whose last failure is oldest: the table stays bounded.
            if let oldest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key { failures[oldest] = nil }
        }
        failures[address, default: []].append(now)
    }
}
