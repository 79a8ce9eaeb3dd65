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
    /// Failed logins one address may make in ``loginWindow`` (attempts under way counted with
    /// them), and all addresses together.
    static let loginsPerAddress = 5
    static let loginsInAll = 30
    static let loginWindow: Seconds = 60
    /// How long an address's failures are remembered, and the longest it waits (its back-off).
    static let longestWait: Seconds = 15 * 60
    /// Addresses whose failures are remembered at most.
    static let addressesKept = 1024

    let settings: WebSettings
    private(set) var sessions: [String: Session] = [:]
    private var failures: [String: [Seconds]] = [:]
    private var allFailures: [Seconds] = []
    /// Logins whose secret is being checked, by address.
    private var attempts: [String: Int] = [:]

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

    /// Admits a login from `address` before its secret is hashed (the attempt is counted until
    /// ``loginEnded(from:succeeded:at:)``), or says how many seconds it must wait.
    ///
    /// An address may fail ``loginsPerAddress`` times a ``loginWindow``, attempts under way
    /// counted with its failures, so that guesses sent side by side cannot pass the limit
    /// together; past it, its wait doubles with each further failure it made in the last
    /// ``longestWait`` (back-off), up to that. The limit in all (a flood of guesses from many
    /// addresses) holds back only the addresses that have failed: a clean one (the owner's) and
    /// the appliance itself (loopback) are never refused for what others did.
    mutating func admitLogin(from address: String, at now: Seconds) -> Seconds? {
        forget(before: now)
        let recent = failures[address] ?? []
        let inWindow = recent.filter { $0 >= now - Self.loginWindow }
        if inWindow.count + attempts[address, default: 0] >= Self.loginsPerAddress {
            let over = max(0, recent.count - Self.loginsPerAddress)
            let base = inWindow.first.map { $0 + Self.loginWindow - now } ?? 1
            return min(Self.longestWait, max(1, base) * Double(1 << min(over, 10)))
        }
        if !recent.isEmpty, !WebSettings.isLoopback(address), allFailures.count >= Self.loginsInAll {
            return max(1, allFailures[0] + Self.loginWindow - now)
        }
        attempts[address, default: 0] += 1
        return nil
    }

    /// A login admitted from `address` was checked.
    mutating func loginEnded(from address: String, succeeded: Bool, at now: Seconds) {
        if let count = attempts[address] { attempts[address] = count > 1 ? count - 1 : nil }
        guard !succeeded else { return }
        allFailures.append(now)
        if failures[address] == nil, failures.count >= Self.addressesKept {
            // Forget the address whose last failure is oldest: the table stays bounded.
            if let oldest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key { failures[oldest] = nil }
        }
        failures[address, default: []].append(now)
        if failures[address]!.count > 64 { failures[address]!.removeFirst() }
    }

    private mutating func forget(before now: Seconds) {
        allFailures.removeAll { $0 < now - Self.loginWindow }
        failures = failures.compactMapValues { times in
            let kept = times.filter { $0 >= now - Self.longestWait }
            return kept.isEmpty ? nil : kept
        }
    }
}
