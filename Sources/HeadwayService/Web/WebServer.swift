import CMicroHTTPD
import Headway
import HeadwayProtocol
import HeadwaySystem

/// The page's HTTP server: GNU libmicrohttpd, loaded with dlopen (Sources/CMicroHTTPD).
///
/// Why libmicrohttpd rather than a Swift server: the arm64 package must stay under 12 MB and
/// build with Debian 13's Swift 6.0.3. Hummingbird and SwiftNIO (swift-tools-version 6.1 and 6.2
/// in the versions at hand) do not build with 6.0.3 at all, and would add megabytes to every
/// program of the suite and minutes to each CI build; FlyingFox builds with 6.0 but brings
/// Foundation (tens of megabytes statically linked). libmicrohttpd is a 225 KB Debian package (on
/// GnuTLS, which Debian systems have), adds nothing to the build, parses HTTP itself, bounds
/// each connection's memory, times out slow clients, caps connections per address, and speaks TLS.
///
/// Each connection runs on a thread of libmicrohttpd's; everything they share is behind
/// ``state``'s lock, and all that touches the core goes through the ``WebHub`` to the loop.
final class WebServer: @unchecked Sendable {
    /// A request's body may be at most this long (a login, a control: a few dozen bytes).
    static let maxBody = 4096
    /// A request line and headers may take at most this much (libmicrohttpd answers 431 past it).
    static let headerMemory = 16 * 1024
    /// Connections at once, and from one address.
    static let maxConnections: UInt32 = 96
    static let maxPerAddress: UInt32 = 24
    /// Places kept free: past `maxConnections - spareConnections`, each new client closes the
    /// connection that has waited longest without a request (the free places absorb those still
    /// closing), so however many slow clients there are, a quick request gets in; but one from an
    /// address already holding `waitingPerAddress` connections without a request is refused (a
    /// browser holds six at most, and reuses an idle one before it opens another).
    static let spareConnections: UInt32 = 8
    static let waitingPerAddress: UInt32 = 4
    /// A connection silent this long is closed (a slow client); event streams send a heartbeat first.
    static let timeout: UInt32 = 20
    /// A request must have come in whole this long after its connection opened or its previous
    /// answer was sent, however steadily it trickles (silence alone is `timeout`).
    static let requestDeadline: UInt32 = 10
    static let heartbeat: UInt32 = 10
    /// What one event stream may hold for a client that does not read, before it is let go (the
    /// hub stops sending to a page far less behind: ``WebHub/behindLimit``).
    static let streamBuffer = 512 * 1024
    /// What an event stream's socket holds in the kernel (Linux doubles it), where a page is sent
    /// a few KB a second: a page that stops reading is found behind (``WebHub/behindLimit``)
    /// within seconds, not after the megabytes the kernel would otherwise take on for each page.
    static let streamSocketBuffer: Int32 = 64 * 1024

    /// Passwords checked at once: each yescrypt hash takes tens of milliseconds of a core on
    /// purpose; more logins wait their turn (slowed, never refused).
    static let hashesAtOnce = 2

    private struct State {
        var access: WebAccess
        var hashing = 0
    }

    let settings: WebSettings
    let hub: WebHub
    private let state: Locked<State>
    private let clock = MonotonicClock()
    private var web: OpaquePointer?
    private let logger: ServiceLogger

    /// The security headers of every answer: nothing loads from elsewhere, nothing frames the page.
    static let common = """
        X-Content-Type-Options: nosniff
        X-Frame-Options: DENY
        Referrer-Policy: no-referrer
        Cache-Control: no-store
        Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'

        """

    init(settings: WebSettings, hub: WebHub, logger: ServiceLogger) {
        self.settings = settings
        self.hub = hub
        self.logger = logger
        state = Locked(State(access: WebAccess(settings: settings)))
    }

    /// The port it listens on.
    private(set) var port = 0

    /// Starts listening; the error says why it could not.
    func start() throws(StartupFailure) {
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var limits = hw_web_limits(
            max_connections: Self.maxConnections, max_per_address: Self.maxPerAddress, spare_connections: Self.spareConnections,
            waiting_per_address: Self.waitingPerAddress, timeout_seconds: Self.timeout, request_seconds: Self.requestDeadline,
            max_body: Self.maxBody, memory_limit: Self.headerMemory)
        let started = hw_web_start(
            settings.address, Int32(settings.port), settings.certificate, settings.key, &limits,
            { context, request in
                guard let context, let request else { return }
                Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().handle(request)
            }, context, &error)
        guard let started else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // libmicrohttpd says only that TLS failed; what fails there is the pair it was given.
            let hint = settings.certificate != nil && reason.contains("TLS")
                ? "; check that tls.key is the private key of tls.certificate, both PEM files" : ""
            throw StartupFailure("web (\(settings.source)): cannot listen on \(settings.address):\(settings.port): \(DisplayText.sanitised(reason))\(hint)")
        }
        web = started
        port = Int(hw_web_port(started))
    }

    /// Closes every stream and stops listening.
    func stop() {
        hub.closeStreams()
        if let web { hw_web_stop(web) }
        web = nil
    }

    /// Where people open it.
    var url: String {
        let host = settings.address.contains(":") ? "[\(settings.address)]" : settings.address
        return "\(settings.certificate != nil ? "https" : "http")://\(host):\(port)/"
    }

    // MARK: - Requests

    private struct Incoming {
        let method: String
        let path: String
        let host: String?
        let origin: String?
        let cookie: String?
        let csrf: String?
        let authorization: String?
        let fetchSite: String?
        let client: String
        let body: [UInt8]
        let bodyTooLarge: Bool
    }

    private func handle(_ raw: UnsafeMutablePointer<hw_web_request>) {
        let r = raw.pointee
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        let client = withUnsafeBytes(of: r.client) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        let url = text(r.url) ?? "/"
        let incoming = Incoming(
            method: text(r.method) ?? "GET", path: String(url.prefix { $0 != "?" }), host: text(r.host), origin: text(r.origin),
            cookie: text(r.cookie), csrf: text(r.csrf), authorization: text(r.authorization), fetchSite: text(r.fetch_site), client: client,
            body: r.body.map { Array(UnsafeBufferPointer(start: $0, count: r.body_length)) } ?? [], bodyTooLarge: r.body_too_large != 0)
        route(incoming, raw)
    }

    private func respond(_ raw: UnsafeMutablePointer<hw_web_request>, _ status: UInt32, _ type: String, _ body: String, headers: String = "") {
        let all = Self.common + "Content-Type: \(type)\n" + headers
        var bytes = Array(body.utf8)
        _ = hw_web_respond(raw, status, all, &bytes, bytes.count)
    }

    private func json(_ raw: UnsafeMutablePointer<hw_web_request>, _ status: UInt32, _ value: JSONValue, headers: String = "") {
        respond(raw, status, "application/json", value.text, headers: headers)
    }

    private func refuse(_ raw: UnsafeMutablePointer<hw_web_request>, _ status: UInt32, _ code: String, _ message: String, headers: String = "") {
        json(raw, status, .object([("ok", .bool(false)), ("error", .object([("code", .string(code)), ("message", .string(message))]))]), headers: headers)
    }

    private func route(_ request: Incoming, _ raw: UnsafeMutablePointer<hw_web_request>) {
        guard state.withLock({ $0.access.acceptsHost(request.host) }) else {
            return refuse(raw, 421, "unknown-host", "this page answers to its own address only; add the name you use to web.hosts")
        }
        if request.bodyTooLarge { return refuse(raw, 413, "too-large", "the body is longer than \(Self.maxBody) bytes") }
        let now = clock.now
        switch (request.method, request.path) {
        case ("GET", let path) where WebAssets.files[path == "/" ? "/index.html" : path] != nil:
            let asset = WebAssets.files[path == "/" ? "/index.html" : path]!
            var bytes = asset.bytes
            _ = hw_web_respond(raw, 200, Self.common + "Content-Type: \(asset.type)\n", &bytes, bytes.count)
        case ("GET", "/api/session"):
            session(request, raw, now)
        case ("POST", "/api/login"):
            login(request, raw, now)
        case ("POST", "/api/logout"):
            guard let session = authorised(request, now, control: true) else { return refuse(raw, 403, "forbidden", "not logged in, or not from this page") }
            if let session { state.withLock { $0.access.endSession(session.id) } }
            json(raw, 200, .object([("ok", .bool(true))]), headers: state.withLock { $0.access.clearCookie })
        case ("GET", "/api/events"):
            guard authorised(request, now, control: false) != nil else { return refuse(raw, 401, "login", "log in first") }
            let headers = Self.common + "Content-Type: text/event-stream\nX-Accel-Buffering: no\n"
            guard let answered = hw_web_respond_stream(raw, headers, ": still here\n\n", Self.heartbeat, Self.streamBuffer, Self.streamSocketBuffer) else { return }
            let stream = HTTPEventStream(answered)
            if !hub.addViewer(stream) {
                // The stream is answered already; it says why and ends.
                _ = Array("event: full\ndata: {\"viewers\":\(hub.viewerLimit)}\n\n".utf8).withUnsafeBytes { stream.push($0) }
                stream.close()
            }
        case ("GET", "/api/state"):
            guard authorised(request, now, control: false) != nil else { return refuse(raw, 401, "login", "log in first") }
            guard let answer = hub.ask(.state) else { return refuse(raw, 503, "busy", "the service did not answer in time") }
            respond(raw, 200, "application/json", answer)
        case ("POST", "/api/jobs/pause"), ("POST", "/api/jobs/resume"), ("POST", "/api/jobs/cancel"):
            control(request, raw, now)
        case ("GET", "/metrics"):
            metrics(request, raw, now)
        case (let method, _) where method != "GET" && method != "POST" && method != "HEAD":
            refuse(raw, 405, "method", "GET and POST only", headers: "Allow: GET, POST\n")
        default:
            refuse(raw, 404, "not-found", "nothing here")
        }
    }

    /// The session a request may act in: `.some(nil)` for a bearer of the token or, with no login
    /// set, anyone on loopback; nil when it may not. A control must also come from the page
    /// (origin, fetch site, CSRF token).
    private func authorised(_ request: Incoming, _ now: Seconds, control: Bool) -> WebAccess.Session?? {
        state.withLock { state -> WebAccess.Session?? in
            if state.access.bearerMatches(request.authorization) { return .some(nil) }
            let session = state.access.session(cookie: request.cookie, at: now)
            if control {
                guard state.access.acceptsOrigin(request.origin, fetchSite: request.fetchSite, host: request.host) else { return nil }
                guard let session, let csrf = request.csrf, WebAccess.same(csrf, session.csrf) else { return nil }
                return .some(session)
            }
            if let session { return .some(session) }
            return settings.requiresLogin ? nil : .some(nil)
        }
    }

    private func session(_ request: Incoming, _ raw: UnsafeMutablePointer<hw_web_request>, _ now: Seconds) {
        var cookie = ""
        let session: WebAccess.Session? = state.withLock { state in
            if let session = state.access.session(cookie: request.cookie, at: now) { return session }
            guard !settings.requiresLogin else { return nil }
            // No login set (loopback only): a session all the same, for its CSRF token.
            let session = state.access.newSession(at: now)
            cookie = state.access.setCookie(session)
            return session
        }
        var members: [(String, JSONValue)] = [("ok", .bool(true)), ("login", .bool(settings.requiresLogin)), ("session", .bool(session != nil))]
        if let session { members.append(("csrf", .string(session.csrf))) }
        json(raw, 200, .object(members), headers: cookie)
    }

    private func login(_ request: Incoming, _ raw: UnsafeMutablePointer<hw_web_request>, _ now: Seconds) {
        guard state.withLock({ $0.access.acceptsOrigin(request.origin, fetchSite: request.fetchSite, host: request.host) }) else {
            return refuse(raw, 403, "origin", "a login must come from this page")
        }
        guard let body = String(validating: request.body, as: UTF8.self), let secret = (try? JSONValue.parse(body))?["secret"]?.string, !secret.isEmpty, secret.utf8.count <= 1024 else {
            return refuse(raw, 400, "bad-request", "send {\"secret\": \"…\"}, the password or the token")
        }
        // Admitted (and counted) before the hash is computed, so guesses sent side by side meet the
        // limit together.
        if let wait = state.withLock({ $0.access.admitLogin(from: request.client, at: now) }) {
            return refuse(raw, 429, "too-many", "too many wrong logins; try again in \(Int(wait.rounded(.up))) s", headers: "Retry-After: \(Int(wait.rounded(.up)))\n")
        }
        // The hash is checked outside the lock, at most ``hashesAtOnce`` at a time (each request has
        // its own thread: a login that waits holds up no other request).
        while !state.withLock({ state in
            guard state.hashing < Self.hashesAtOnce else { return false }
            state.hashing += 1
            return true
        }) { Threads.sleep(0.005) }
        let good = state.withLock { $0.access }.secretMatches(secret)
        state.withLock { state in
            state.hashing -= 1
            state.access.loginEnded(from: request.client, succeeded: good, at: clock.now)
        }
        guard good else {
            logger.warning("web: a wrong password from \(request.client)")
            return refuse(raw, 403, "wrong", "wrong password")
        }
        let (session, cookie) = state.withLock { state in
            let session = state.access.newSession(at: now)
            return (session, state.access.setCookie(session))
        }
        json(raw, 200, .object([("ok", .bool(true)), ("csrf", .string(session.csrf))]), headers: cookie)
    }

    private func control(_ request: Incoming, _ raw: UnsafeMutablePointer<hw_web_request>, _ now: Seconds) {
        guard authorised(request, now, control: true) != nil else {
            return refuse(raw, 403, "forbidden", "controls need a session and must come from this page (its CSRF token)")
        }
        guard let body = String(validating: request.body, as: UTF8.self), let job = (try? JSONValue.parse(body))?["job"]?.string,
            Identifier.problem(job, maxBytes: WireProtocol.maxJobBytes) == nil
        else {
            return refuse(raw, 400, "bad-request", "send {\"job\": \"ID\"}")
        }
        let verb = request.path.split(separator: "/").last.map(String.init) ?? ""
        let asked: Request = verb == "pause" ? .pause(job: job) : verb == "resume" ? .resume(job: job) : .stop(job: job)
        guard let reply = hub.ask(.request(asked)) else { return refuse(raw, 503, "busy", "the service did not answer in time") }
        let ok = Reply.parse(reply).map { if case .error = $0 { false } else { true } } ?? false
        logger.info("web: \(verb) \(job) from \(request.client): \(ok ? "done" : "refused")")
        respond(raw, ok ? 200 : 409, "application/json", reply)
    }

    private func metrics(_ request: Incoming, _ raw: UnsafeMutablePointer<hw_web_request>, _ now: Seconds) {
        switch settings.metrics {
        case .off: return refuse(raw, 404, "not-found", "metrics are off (web.metrics)")
        case .open: break
        case .protected:
            guard authorised(request, now, control: false) != nil else {
                return refuse(raw, 401, "login", "metrics need the token as a bearer, or a session", headers: "WWW-Authenticate: Bearer realm=\"headway\"\n")
            }
        }
        guard let text = hub.ask(.metrics) else { return refuse(raw, 503, "busy", "the service did not answer in time") }
        respond(raw, 200, "text/plain; version=0.0.4; charset=utf-8", text)
    }
}
