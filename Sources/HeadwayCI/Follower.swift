import HeadwayCore
import HeadwayProtocol

/// Follows one CI server: paces its looks by the ``PollingPolicy``, makes each GET conditional
/// (`If-None-Match` with the last `ETag`, `If-Modified-Since` with the last `Last-Modified`) and
/// hands the source the body a 304 confirmed, honours rate limits and `Retry-After`, backs off
/// after failures, and turns each look into the service's requests (``RunJobs``). Pure logic over
/// the moments it is given: the program's loop makes the requests and tells it the results.
///
/// The loop calls ``step(at:)`` whenever time has passed or an answer came (``receive(_:for:at:)``):
/// it returns the GETs to start now, what to tell the service, and lines for the log.
public struct Follower: Sendable {
    public struct Step: Sendable, Equatable {
        public var requests: [HTTPRequest] = []
        public var jobRequests: [Request] = []
        /// One line each: a look that failed (once per kind of failure), a source reachable again.
        public var log: [String] = []
        /// A look ended with this step (well or not).
        public var lookEnded = false
    }

    /// The last look failed.
    public var isFailing: Bool { lastError != nil }

    public private(set) var source: any CISource
    public let policy: PollingPolicy
    /// The token sent with every request; the program puts a new one in place when its file changes.
    public var token: String?
    public private(set) var jobs: RunJobs

    private struct Cached: Sendable {
        var etag: String?
        var lastModified: String?
        var body: [UInt8]
        var usedInLook: Int
    }

    private var cache: [String: Cached] = [:]
    /// Bodies larger than this are not kept for 304s (they are asked for in full again).
    static let maxCachedBody = 2 << 20

    private var looking = false
    private var lookNumber = 0
    private var inFlight: Set<String> = []
    private var lookRequests = 0
    private var lookError: SourceError?
    private var serverTime: Double?
    private var limit: RateLimit?
    private var failures = 0
    private var lastError: SourceError?
    private var unreachableSince: Double?
    /// The monotonic moment of the next look.
    public private(set) var nextLookAt: Double = 0
    private var busy = false
    /// The server's clock at the last good look, at which the look interval promised is figured.
    private var lastServerTime: Double?
    /// Requests sent since the follower started, and answers 304 (for the log and the benches).
    public private(set) var sent = 0
    public private(set) var notModified = 0
    /// The source's WebSocket is subscribed and says when to look (``PushSource``).
    public private(set) var pushing = false
    /// Looks still owed to what the socket said: a server may tell of a change a moment before
    /// its API shows it (OctoPrint's events come before `/api/job` reads the new state), so a
    /// change brings a look at once and another ``pushGap`` later.
    private var pushLooksOwed = 0
    private var lookStartedAt = -Double.infinity

    public init(source: any CISource, policy: PollingPolicy, token: String? = nil, labelPrefix: String? = nil) {
        self.source = source
        self.policy = policy
        self.token = token
        jobs = RunJobs(prefix: source.jobPrefix, labelPrefix: labelPrefix)
    }

    /// The look interval promised to the service: the pause while something runs, or longer when
    /// the budget or the server's rate limit makes it so.
    public var followInterval: Double {
        guard let wall = lastServerTime else { return policy.running }
        return policy.delay(requests: max(lookRequests, 1), busy: true, failures: 0, limit: limit, wall: wall)
    }

    /// The policy as it applies now: while the source's socket says when to look, an idle source
    /// is asked only to be sure.
    private var pacing: PollingPolicy {
        guard pushing else { return policy }
        var pacing = policy
        pacing.idle = max(policy.idle, PollingPolicy.pushSafety)
        return pacing
    }

    /// The source's WebSocket address, when it has one.
    public var pushURL: String? { (source as? any PushSource)?.pushURL }

    /// The upgrade request's header lines: the token, as the source's requests carry it.
    public var pushHeaders: [String] { token.map { [source.authorization.header(token: $0)] } ?? [] }

    /// The request to make before the source's socket (a login), with the token; nil: none.
    public var pushLogin: HTTPRequest? {
        guard var request = (source as? any PushSource)?.pushLogin() else { return nil }
        if let token { request.headers.append(source.authorization.header(token: token)) }
        return request
    }

    /// The answer to that request: nil when the socket may be made, else why not.
    public mutating func pushLoggedIn(_ response: HTTPResponse) -> String? {
        guard var push = source as? any PushSource else { return nil }
        defer { source = push }
        return push.pushLoggedIn(response)
    }

    /// The source's socket is open: what to send on it.
    public mutating func pushOpened() -> [String] {
        guard var push = source as? any PushSource else { return [] }
        defer { source = push }
        return push.pushOpened(token: token)
    }

    /// A message on the source's socket: the follower looks when it says something changed.
    public mutating func pushReceived(_ text: String, at now: Moment) -> PushReaction {
        guard var push = source as? any PushSource else { return PushReaction() }
        let reaction = push.pushReceived(text, token: token)
        source = push
        if reaction.subscribed { pushing = true }
        if reaction.changed { pushed(at: now) }
        return reaction
    }

    /// The socket ended: the source is asked at the policy's intervals again.
    public mutating func pushEnded(at now: Moment) {
        guard pushing else { return }
        pushing = false
        if !looking { nextLookAt = min(nextLookAt, now.monotonic + (busy ? policy.running : policy.idle)) }
    }

    /// The socket said something changed: a look now (or once the one under way has ended) and
    /// another a moment later — at most one every ``pushGap`` seconds however often the server
    /// speaks, and after failed looks one every ``pushGapFailing`` (the socket shows the server
    /// is there, not that it answers).
    mutating func pushed(at now: Moment) {
        if looking {
            pushLooksOwed = 2
        } else {
            pushLooksOwed = 1
            nextLookAt = min(nextLookAt, max(now.monotonic, lookStartedAt + (failures == 0 ? Self.pushGap : Self.pushGapFailing)))
        }
    }

    /// The fewest seconds between two looks the socket asked for.
    static let pushGap = 0.5
    static let pushGapFailing = 5.0

    /// When the follower next needs to be stepped without an answer coming (nil while a look waits
    /// for answers).
    public var wakeAt: Double? { looking ? nil : nextLookAt }

    public mutating func step(at now: Moment) -> Step {
        var step = Step()
        if !looking {
            guard now.monotonic >= nextLookAt else { return step }
            looking = true
            lookStartedAt = now.monotonic
            lookNumber += 1
            lookRequests = 0
            lookError = nil
            serverTime = nil
        }
        if lookError == nil {
            for request in source.requests() where !inFlight.contains(request.url) {
                inFlight.insert(request.url)
                step.requests.append(decorated(request))
            }
            lookRequests += step.requests.count
            sent += step.requests.count
        }
        guard inFlight.isEmpty else { return step }
        looking = false
        step.lookEnded = true
        // Only what this look and the last one asked for is kept for 304s.
        cache = cache.filter { $0.value.usedInLook >= lookNumber - 1 }
        let wall = serverTime ?? now.wall
        if let error = lookError {
            source.abandonLook()
            failures += 1
            if unreachableSince == nil { unreachableSince = now.monotonic }
            if !error.repeats(lastError) { step.log.append(error.description) }
            lastError = error
            step.jobRequests = jobs.unreachable()
            var retry = limit ?? RateLimit()
            if let at = error.retryAt { retry.retryAt = max(retry.retryAt ?? at, at) }
            nextLookAt = now.monotonic + policy.delay(requests: lookRequests, busy: busy, failures: failures, limit: retry, wall: wall)
            if pushLooksOwed > 0, error.retryAt == nil { nextLookAt = min(nextLookAt, max(now.monotonic, lookStartedAt + Self.pushGapFailing)) }
            pushLooksOwed = 0
            return step
        }
        if lastError != nil { step.log.append("\(source.description): reachable again") }
        // Silent longer than the service keeps a followed job: it has forgotten them.
        if let since = unreachableSince, now.monotonic - since > max(600, 10 * followInterval) { jobs.forget() }
        lastError = nil
        unreachableSince = nil
        failures = 0
        let runs = source.finishLook(serverTime: wall)
        busy = runs.contains { $0.isActive }
        lastServerTime = wall
        step.jobRequests = jobs.look(runs, serverTime: wall, follow: followInterval)
        nextLookAt = now.monotonic + pacing.delay(requests: lookRequests, busy: busy, failures: 0, limit: limit, wall: wall)
        if pushLooksOwed > 0 {
            pushLooksOwed -= 1
            nextLookAt = min(nextLookAt, max(now.monotonic, lookStartedAt + Self.pushGap))
        }
        return step
    }

    /// The answer to a request this follower asked for.
    public mutating func receive(_ result: Result<HTTPResponse, HTTPFailure>, for request: HTTPRequest, at now: Moment) {
        guard inFlight.remove(request.url) != nil else { return }
        guard lookError == nil else { return }
        let response: HTTPResponse
        switch result {
        case .failure(let failure):
            lookError = SourceError("\(source.description): \(failure.description)", transport: failure.kind)
            return
        case .success(let answer):
            response = answer
        }
        if let date = response.headers["date"].flatMap(ServerTime.httpDate) { serverTime = date }
        let wall = serverTime ?? now.wall
        // The latest answer says what the limit is now; one that says nothing leaves none.
        limit = RateLimit(headers: response.headers, wall: wall)
        if let seen = limit {
            if seen.refuses(status: response.status) {
                let at = seen.retryAt ?? seen.resetAt ?? (wall + 60)
                lookError = SourceError(
                    "\(source.description): \(hostOf(request.url)) is rate limiting these requests (\(response.status)); asking again in \(waited(until: at, wall: wall))\(token == nil ? "; a token raises the limit" : "")",
                    retryAt: at)
                return
            }
        } else if response.status == 429 {
            lookError = SourceError("\(source.description): \(hostOf(request.url)) is rate limiting these requests (429)", retryAt: wall + 60)
            return
        }
        var answer = response
        if response.status == 304, var cached = cache[request.url] {
            notModified += 1
            cached.usedInLook = lookNumber
            cache[request.url] = cached
            answer = HTTPResponse(status: 200, headers: response.headers, body: cached.body)
        } else if response.status == 200 {
            let etag = response.headers["etag"]
            let modified = response.headers["last-modified"]
            if (etag != nil || modified != nil), response.body.count <= Self.maxCachedBody {
                cache[request.url] = Cached(etag: etag, lastModified: modified, body: response.body, usedInLook: lookNumber)
            } else {
                cache[request.url] = nil
            }
        }
        do throws(SourceError) {
            try source.receive(answer, for: request)
        } catch {
            lookError = error
        }
    }

    /// How long the follower waits for a server's `at`, said as the log says it: the server's own
    /// wish too when the back-off's limit cuts it.
    private func waited(until at: Double, wall: Double) -> String {
        let wait = policy.serverWait(until: at, wall: wall)
        guard at - wall > wait + 1 else { return DurationText.short(max(wait, 1)) }
        let asked = at - wall > WireProtocol.maxSeconds ? "more than a year" : DurationText.short(at - wall)
        return "\(DurationText.short(wait)) (it asked for \(asked); a source waits at most \(DurationText.short(policy.maxBackoff)))"
    }

    private func decorated(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        if let token { request.headers.append(source.authorization.header(token: token)) }
        if let cached = cache[request.url] {
            if let etag = cached.etag { request.headers.append("If-None-Match: \(etag)") }
            if let modified = cached.lastModified { request.headers.append("If-Modified-Since: \(modified)") }
        }
        return request
    }

    /// The request that carries a person's `command` (the service's pause, resumption or cancel
    /// request about `job`) to the server; nil when the job is not this follower's, or the
    /// server takes no such command, or already does what it asks. The next look comes at once.
    public mutating func command(_ command: JobCommand, job: String, at now: Moment) -> HTTPRequest? {
        guard let (key, command) = jobs.command(for: command, job: job), let request = source.command(command, key: key) else { return nil }
        if !looking { nextLookAt = min(nextLookAt, now.monotonic + Self.lookAfterCommand) }
        var sent = request
        if let token { sent.headers.append(source.authorization.header(token: token)) }
        self.sent += 1
        return sent
    }

    /// Seconds from a command to the look that shows what the server made of it.
    static let lookAfterCommand = 1.0

    /// What became of a command: nil when the server took it, else one line for the log.
    public func commandAnswered(_ result: Result<HTTPResponse, HTTPFailure>, for request: HTTPRequest) -> String? {
        let what = request.url.split(separator: "/").last.map(String.init) ?? "command"
        switch result {
        case .failure(let failure):
            return "\(source.description): the command (\(what)) did not reach the server: \(failure.description)"
        case .success(let response) where !(200..<300).contains(response.status):
            return "\(source.description): the server refused the command (\(what)): \(source.explain(status: response.status, for: request, body: response.body))"
        case .success:
            return nil
        }
    }

    /// Every job followed, told that its follower stops looking.
    public mutating func stopping() -> [Request] { jobs.unreachable() }
}
