import HeadwayCore

/// How a job begins: its label, what it knows of its size or time, how it shows it is alive.
public struct BeginOptions: Sendable, Equatable {
    /// What the job is, shown beside it.
    public var label: String?
    /// The amount of work in all: the job is determinate from the start.
    public var total: Double?
    /// A countdown of this many seconds from now: determinate progress driven by the clock.
    public var countdown: Double?
    /// A countdown to this moment, in seconds since 1970 (UTC).
    public var until: Double?
    /// The name runs of the same job share (`acme/widgets/test`), for durations learned from them.
    public var name: String?
    /// A process whose life is the job's: when it ends without a `finish`, the job failed.
    public var pid: Int32?
    /// Heartbeats (`alive`) will come at least this often, in seconds.
    public var heartbeat: Double?
    /// Whether indicators print the percentage.
    public var showsPercent: Bool
    /// The job runs elsewhere and the reporter follows it, looking at its source this often (in
    /// seconds) and sending `alive` after each look: it never reads as stalled, and turns stale
    /// when the looks stop.
    public var follow: Double?
    /// The job waits at its source to start (a CI run in the queue) until its first progress
    /// report (`update`, `indeterminate`).
    public var queued: Bool
    /// How long ago the job began, in seconds, when its reporter learned of it late (a CI run
    /// already running when its follower started).
    public var elapsed: Double?
    /// How long the whole job is expected to take, in seconds: an estimate the reporter has (a CI
    /// server's own, or its past runs), shown as an estimate while the job reports no progress.
    public var expected: Double?

    /// Options with each member given; the defaults begin an indeterminate job alive by its reports.
    public init(
        label: String? = nil, total: Double? = nil, countdown: Double? = nil, until: Double? = nil, name: String? = nil,
        pid: Int32? = nil, heartbeat: Double? = nil, showsPercent: Bool = true, follow: Double? = nil, queued: Bool = false,
        elapsed: Double? = nil, expected: Double? = nil
    ) {
        self.label = label
        self.total = total
        self.countdown = countdown
        self.until = until
        self.name = name
        self.pid = pid
        self.heartbeat = heartbeat
        self.showsPercent = showsPercent
        self.follow = follow
        self.queued = queued
        self.elapsed = elapsed
        self.expected = expected
    }

    init(_ fields: RequestFields) throws(ProtocolError) {
        self.init(
            label: try fields.label(required: false), total: try fields.number("total", required: false, positive: true),
            countdown: try fields.number("countdown", required: false, positive: true),
            until: try fields.number("until", required: false, positive: true), showsPercent: try fields.bool("percent") ?? true,
            queued: try fields.bool("queued") ?? false)
        let times = [total, countdown, until].compactMap { $0 }.count
        guard times <= 1 else { throw ProtocolError(.invalidMember, field: "total", "give one of total, countdown and until") }
        let year = "must be at most a year (\(JSONValue.format(WireProtocol.maxSeconds)) s)"
        if let countdown, countdown > WireProtocol.maxSeconds { throw ProtocolError(.outOfRange, field: "countdown", year) }
        if queued, times > 0 { throw ProtocolError(.invalidMember, field: "queued", "a queued job has not started: give its total (or timer) when it does") }
        if let elapsed = try fields.number("elapsed", required: false, positive: false) {
            guard elapsed <= WireProtocol.maxSeconds else { throw ProtocolError(.outOfRange, field: "elapsed", year) }
            self.elapsed = elapsed
        }
        if let expected = try fields.number("expected", required: false, positive: true) {
            guard expected <= WireProtocol.maxSeconds else { throw ProtocolError(.outOfRange, field: "expected", year) }
            self.expected = expected
        }
        if let name = try fields.string("name") {
            try Identifier.check(name, field: "name", maxBytes: WireProtocol.maxJobBytes * 2)
            self.name = name
        }
        if let pid = try fields.number("pid", required: false, positive: true) {
            guard pid == pid.rounded(), pid > 1, pid < 4_194_304 else { throw ProtocolError(.outOfRange, field: "pid", "must be a process id (2…4194303)") }
            self.pid = Int32(pid)
        }
        if let heartbeat = try fields.number("heartbeat", required: false, positive: true) {
            guard (1...86_400).contains(heartbeat) else { throw ProtocolError(.outOfRange, field: "heartbeat", "must be 1…86400 seconds") }
            self.heartbeat = heartbeat
        }
        if let follow = try fields.number("follow", required: false, positive: true) {
            guard (1...86_400).contains(follow) else { throw ProtocolError(.outOfRange, field: "follow", "must be 1…86400 seconds") }
            self.follow = follow
        }
        if follow != nil, pid != nil || heartbeat != nil {
            throw ProtocolError(.invalidMember, field: "follow", "a followed job shows it is alive by its follower's looks: give follow without pid or heartbeat")
        }
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if let label { members.append(("label", .string(label))) }
        if let total { members.append(("total", .number(total))) }
        if let countdown { members.append(("countdown", .number(countdown))) }
        if let until { members.append(("until", .number(until))) }
        if let name { members.append(("name", .string(name))) }
        if let pid { members.append(("pid", .number(Double(pid)))) }
        if let heartbeat { members.append(("heartbeat", .number(heartbeat))) }
        if !showsPercent { members.append(("percent", .bool(false))) }
        if let follow { members.append(("follow", .number(follow))) }
        if queued { members.append(("queued", .bool(true))) }
        if let elapsed { members.append(("elapsed", .number(elapsed))) }
        if let expected { members.append(("expected", .number(expected))) }
        return members
    }
}
