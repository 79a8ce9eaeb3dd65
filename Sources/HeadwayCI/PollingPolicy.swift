/// How often a source is asked, and how much. The rules of a good API citizen:
/// - ask every `running` seconds while something runs or waits there, every `idle` seconds
///   otherwise;
/// - never more than `budget` requests an hour: a look of n requests is followed by a pause of at
///   least n/budget of an hour;
/// - never faster than the server's own rate limit allows (`x-ratelimit-remaining` of what is left
///   until `x-ratelimit-reset`, or GitLab's `RateLimit-*`), keeping a reserve for the token's other
///   users;
/// - after a failed look, wait longer each time (the interval, doubled per failure, up to
///   `maxBackoff`), and never before the server's `Retry-After` or rate-limit reset — but never
///   longer than `maxBackoff` for those either: a server's word cannot park a source for ever.
public struct PollingPolicy: Sendable, Equatable {
    public var running: Double
    public var idle: Double
    public var budget: Double
    public var maxBackoff: Double

    public init(running: Double = 15, idle: Double = 60, budget: Double = 1000, maxBackoff: Double = 600) {
        self.running = running
        self.idle = idle
        self.budget = budget
        self.maxBackoff = maxBackoff
    }

    /// Seconds between the looks a follower makes of its own while its source's WebSocket says
    /// when to look: to be sure nothing was missed.
    public static let pushSafety = 60.0

    /// The share of what the server still allows that a follower leaves to the token's other uses.
    static let serverReserve = 0.5

    /// Seconds from the end of a look to the next one.
    /// - requests: what the look cost; busy: something runs or waits at the source;
    ///   failures: looks failed in a row (0 after a good one); limit: the server's rate limit as
    ///   last seen, and `wall` the server's clock, to place its reset.
    public func delay(requests: Int, busy: Bool, failures: Int, limit: RateLimit?, wall: Double) -> Double {
        let interval = busy ? running : idle
        var delay = interval
        if failures > 0 {
            delay = min(interval * Double(1 << min(failures - 1, 20)), max(maxBackoff, interval))
        }
        delay = max(delay, Double(requests) * 3600 / budget)
        if let limit {
            if let retry = limit.retryAt { delay = max(delay, serverWait(until: retry, wall: wall)) }
            if let remaining = limit.remaining, let reset = limit.resetAt, reset > wall {
                let usable = Double(remaining) * (1 - Self.serverReserve)
                let spaced = usable < Double(max(requests, 1)) ? reset : wall + (reset - wall) * Double(max(requests, 1)) / usable
                delay = max(delay, serverWait(until: spaced, wall: wall))
            }
        }
        return delay
    }

    /// How long a server's word (a `Retry-After`, a rate limit's reset) makes a source wait from
    /// `wall` for `at`: never longer than the back-off's limit, however far off the server puts
    /// it (an HTTP date years ahead, a reset that is no time), after which it is asked again.
    public func serverWait(until at: Double, wall: Double) -> Double { min(max(0, at - wall), maxBackoff) }
}

/// What a server said about its rate limit in its last answer.
public struct RateLimit: Sendable, Equatable {
    /// Requests left in the current window.
    public var remaining: Int?
    /// When the window starts again, seconds since 1970.
    public var resetAt: Double?
    /// Not before this moment (Retry-After), seconds since 1970.
    public var retryAt: Double?

    public init(remaining: Int? = nil, resetAt: Double? = nil, retryAt: Double? = nil) {
        self.remaining = remaining
        self.resetAt = resetAt
        self.retryAt = retryAt
    }

    /// From GitHub's `x-ratelimit-remaining` and `x-ratelimit-reset` (UTC epoch seconds; "Rate
    /// limits for the REST API"), GitLab's `RateLimit-Remaining` and `RateLimit-Reset` ("User and
    /// IP rate limits", response headers), and `Retry-After` (seconds, or an HTTP date; RFC 9110
    /// §10.2.3). `wall` is the server's clock. Nil when the answer says nothing of it.
    public init?(headers: HTTPHeaders, wall: Double) {
        let remaining = (headers["x-ratelimit-remaining"] ?? headers["ratelimit-remaining"]).flatMap { Int($0) }
        let reset = (headers["x-ratelimit-reset"] ?? headers["ratelimit-reset"]).flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
        var retry: Double?
        if let text = headers["retry-after"] {
            if let seconds = Double(text), seconds.isFinite, seconds >= 0 { retry = wall + min(seconds, 86_400) } else { retry = ServerTime.httpDate(text) }
        }
        guard remaining != nil || reset != nil || retry != nil else { return nil }
        self.init(remaining: remaining.map { max(0, $0) }, resetAt: reset, retryAt: retry)
    }

    /// Whether an answer with this status is the rate limit refusing: 429, or GitHub's 403 with no
    /// requests left or a Retry-After.
    public func refuses(status: Int) -> Bool {
        status == 429 || (status == 403 && (remaining == 0 || retryAt != nil))
    }
}
