import Headway
import HeadwayProtocol
import HeadwaySystem

/// A client connection, as the service knows it.
public typealias ConnectionID = Int

/// Who sent a request: the connection, and the process at its other end as the kernel vouches for
/// it (nil credentials: the service itself, or a transport without them).
public struct Peer: Sendable, Equatable {
    /// The connection it came on.
    public var connection: ConnectionID
    /// The process at its other end, as the kernel vouches for it.
    public var credentials: PeerCredentials?

    /// A peer of each fact given.
    public init(connection: ConnectionID, credentials: PeerCredentials?) {
        self.connection = connection
        self.credentials = credentials
    }
}

/// Something that answers request lines: the service core, or a program's own operations
/// wrapped around it (the simulator's).
public protocol LineHandler: AnyObject {
    /// Answers one request line from `peer`: the reply line and the events to deliver.
    func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent])
}

/// What a configuration's devices became: the outputs to draw on and the buttons to read.
public struct ServiceDevices {
    /// The outputs drawn on.
    public var outputs: [ServiceOutput]
    /// The buttons read.
    public var buttons: [ButtonMonitor]

    /// Devices of each kind given.
    public init(outputs: [ServiceOutput], buttons: [ButtonMonitor]) {
        self.outputs = outputs
        self.buttons = buttons
    }

    /// No devices.
    public static var none: ServiceDevices { ServiceDevices(outputs: [], buttons: []) }
}

/// How the service behaves, from its configuration: timings, look, which job a single-job output
/// shows.
public struct ServiceSettings: Sendable {
    /// The timings of every job's phases.
    public var policy: LifecyclePolicy
    /// The colours and brightness.
    public var appearance: Appearance
    /// Which job a single-job output shows.
    public var focus: Focus

    /// Settings of each value given.
    public init(policy: LifecyclePolicy = .standard, appearance: Appearance = .standard, focus: Focus = .urgent) {
        self.policy = policy
        self.appearance = appearance
        self.focus = focus
    }
}

/// The service without its I/O: jobs, who may change them, their liveness, learned durations,
/// which output shows what, frame scheduling, subscribers and buttons. The daemon and
/// `headway-sim serve` run the same core; only the devices differ. Not thread-safe: one loop owns it.
public final class ServiceCore: LineHandler {
    /// Jobs a `status` reply lists at most (the newest); the rest are counted as omitted.
    public static let statusLimit = 1000

    /// The jobs.
    public internal(set) var registry: JobRegistry
    /// What it draws on and reads.
    public internal(set) var devices: ServiceDevices
    /// How it behaves.
    public private(set) var settings: ServiceSettings
    /// The clock every job and frame reads.
    public let clock: any ProgressClock
    /// Seconds since 1970 (UTC), for countdowns `until` a time of day.
    let wallClock: @Sendable () -> Double
    /// The wall clock's time of day for seconds since 1970, in the local time zone (quiet hours,
    /// when a job ended).
    let localTime: @Sendable (Double) -> LocalTime
    /// What idle and quiet outputs show: last results, unseen failures, a press's wake.
    var quietHours = QuietHoursPolicy()
    let durations: DurationStore
    /// Keeps the jobs in the state folder through a restart (nil: no state folder).
    let keeper: JobKeeper?
    let logger: ServiceLogger
    var subscriptions = Subscriptions()
    /// Processes whose life is a job's.
    var processes = ProcessWatcher()
    /// The systemd units watched, and their jobs.
    var units = UnitFollower()
    /// Which outputs draw when, from which jobs.
    var scheduler = OutputScheduler()
    /// What each output's last frame showed and when, for measuring update-to-glass latency (the
    /// simulator's `glass` operation); nil in the daemon, which does not pay for it.
    public var frameRecorder: FrameRecorder?

    /// A core drawing on `devices`; the wall clock and local time are injected for tests.
    public init(
        devices: ServiceDevices, settings: ServiceSettings = ServiceSettings(), clock: any ProgressClock,
        wallClock: (@Sendable () -> Double)? = nil, localTime: (@Sendable (Double) -> LocalTime)? = nil, durations: DurationStore? = nil,
        logger: ServiceLogger = .standardError(label: "headway"), jobLimit: Int = 10_000, state: ServiceState? = nil
    ) {
        registry = JobRegistry(policy: settings.policy, limit: jobLimit)
        self.devices = devices
        self.settings = settings
        self.clock = clock
        self.wallClock = wallClock ?? { WallClock.now }
        self.localTime = localTime ?? { LocalTime.of(wallClock: $0) }
        self.logger = logger
        self.durations = state?.durations ?? durations ?? DurationStore(folder: nil, logger: logger)
        keeper = state?.jobs
    }

    /// The outputs drawn on.
    public var outputs: [ServiceOutput] { devices.outputs }

    /// Takes new devices and settings (a reload); jobs, subscribers and watched processes stay. New
    /// jobs follow the new timings; running ones keep theirs.
    public func reconfigure(_ devices: ServiceDevices, settings: ServiceSettings) {
        self.devices = devices
        self.settings = settings
        registry.policy = settings.policy
        scheduler.showingJobs = true  // draw every output once, even idle, so the new ones start right
    }

    // MARK: - Requests

    public func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent]) {
        let request: Request
        do throws(ProtocolError) {
            request = try Request.parse(line)
        } catch {
            return (Reply.error(error).line, [])
        }
        let (reply, events) = handle(request, from: peer)
        return (Self.fitting(reply), events)
    }

    /// The reply's line, within what a client reads (``WireProtocol/maxReplyBytes``): a `status`
    /// that would be longer lists fewer jobs (the newest) and counts the others as omitted, never
    /// a line the client must refuse.
    static func fitting(_ reply: Reply) -> String {
        var line = reply.line
        guard line.utf8.count > WireProtocol.maxReplyBytes, case .jobs(var jobs, var omitted, let quiet, let timers) = reply else { return line }
        while line.utf8.count > WireProtocol.maxReplyBytes, !jobs.isEmpty {
            let dropped = max(1, jobs.count / 2)
            jobs.removeFirst(dropped)
            omitted += dropped
            line = Reply.jobs(jobs, omitted: omitted, quiet: quiet, timers: timers).line
        }
        return line
    }

    /// Applies `request` from `peer`.
    public func handle(_ request: Request, from peer: Peer) -> (Reply, [JobEvent]) {
        let now = clock.now
        let requester = peer.credentials?.uid
        do throws(ProtocolError) {
            switch request {
            case .begin(let job, let options):
                try begin(job, options, requester: requester, at: now)
                journal(job, at: now)
                return (.ok, [JobEvent(.begun, job: job)])
            case .update(let job, let value, let total, let label, let eta, let unit, let stageEnd):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in
                    try job.update(value: value, total: total, unit: unit, label: label, timeRemaining: eta, stageEnd: stageEnd, at: now)
                }
            case .updatePercent(let job, let percent, let label, let eta):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in
                    try job.update(percent: percent, label: label, timeRemaining: eta, at: now)
                }
            case .label(let job, let label) where isUnitJob(job):
                try setUnitLabel(job, label, requester: requester, at: now)
            case .label(let job, let label):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel(label, at: now) }
            case .indeterminate(let job):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.indeterminate(at: now) }
            case .alive(let job):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.heartbeat(at: now) }
            case .stale(let job):
                try change(job, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.markStale(at: now) }
            case .pause(let job), .resume(let job):
                let pause = if case .pause = request { true } else { false }
                return (.ok, try setPaused(job, pause, requester: requester, at: now))
            case .finish(let job, let outcome) where isUnitJob(job):
                noteCommandEnd(job, outcome)
            case .finish(let job, let outcome):
                try finish(job, outcome, requester: requester, at: now)
                journal(job, at: now)
                return (.ok, [JobEvent(.finished, job: job, outcome: outcome)])
            case .stop(let job):
                return (.ok, try stop(job, requester: requester, at: now))
            case .status:
                let (jobs, omitted) = registry.all(at: now, limit: Self.statusLimit)
                let shown = focusedJob(at: now)?.id
                let statuses = jobs.map { job in
                    var status = Self.status(job, shown: job.id == shown)
                    if status.phase == "failed" { status.reason = units.reasons[job.id] }
                    return status
                }
                return (.jobs(statuses, omitted: omitted, quiet: quietNote, timers: timerStatuses), [])
            case .subscribe(let job, let controls):
                if let problem = subscriptions.subscribe(peer.connection, to: job, controls: controls, alive: { registry[$0] != nil }) { throw problem }
            }
            return (.ok, [])
        } catch {
            return (.error(error), [])
        }
    }

    private func begin(_ id: String, _ options: BeginOptions, requester: UInt32?, at now: Seconds) throws(ProtocolError) {
        if isUnitJob(id) { return try adoptBegin(id, options, requester: requester, at: now) }
        var kind = ProgressKind.indeterminate
        if let total = options.total { kind = .determinate(value: 0, total: total) }
        if let countdown = options.countdown { kind = .timer(start: now, end: now + countdown, countsDown: true) }
        if let until = options.until {
            let left = until - wallClock()
            guard left > 0 else { throw ProtocolError(.outOfRange, field: "until", "is \(DurationText.short(-left)) in the past; a countdown ends in the future") }
            guard left <= 366 * 86_400 else { throw ProtocolError(.outOfRange, field: "until", "is more than a year away") }
            kind = .timer(start: now, end: now + left, countsDown: true)
        }
        var liveness = Liveness.reports
        if let pid = options.pid {
            try processes.watch(pid)
            liveness = .process(pid: pid)
        } else if let heartbeat = options.heartbeat {
            liveness = .heartbeat(interval: heartbeat)
        } else if let interval = options.follow {
            liveness = .followed(interval: interval)
        }
        // The reporter's own estimate (a CI server's) before what past runs here taught: an
        // indeterminate job's estimate, and what a determinate one falls back on while its steps
        // tell no rate (a build's few steps, the longest taking most of its time).
        let expected = options.expected ?? options.name.flatMap(durations.expected(for:))
        var job: ProgressJob
        do throws(ProgressError) {
            job = try ProgressJob(
                label: options.label, kind: kind, policy: settings.policy, liveness: liveness, expectedDuration: expected,
                showsPercent: options.showsPercent, queued: options.queued, startedAt: options.elapsed.map { now - $0 }, at: now)
        } catch {
            throw ProtocolError(error)
        }
        // A countdown begun through the service is its own job: it is done when it runs out.
        job.completesAtEnd = options.countdown != nil || options.until != nil
        job.unit = options.unit
        job.learnedPace = options.name.flatMap(durations.pace(for:))
        do throws(JobRefusal) {
            try registry.begin(id, job, name: options.name, requester: requester, at: now)
        } catch {
            throw Self.protocolError(error)
        }
        noteBeginning()
    }

    func change(_ id: String, _ requester: UInt32?, _ now: Seconds, _ body: (inout ProgressJob) throws(ProgressError) -> Void) throws(ProtocolError) {
        do throws(JobRefusal) {
            try registry.change(id, requester: requester, at: now, body)
        } catch {
            throw Self.protocolError(error)
        }
    }

    /// Ends a job; its name's history keeps the run, and a success teaches how long it takes.
    func finish(_ id: String, _ outcome: Outcome, requester: UInt32?, at now: Seconds) throws(ProtocolError) {
        try change(id, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(outcome, at: now) }
        if let entry = registry[id], let name = entry.name {
            durations.record(entry.job.runningTime(at: now), for: name, outcome: outcome, pace: entry.job.pace)
        }
        noteEnd(of: id, outcome, label: registry[id]?.job.snapshot(at: now).label, at: now)
    }

    /// Pauses or resumes a job that something can really pause: its controller (`headway run`)
    /// stops or continues its command when told. Anything else is refused, saying why.
    func setPaused(_ id: String, _ pause: Bool, requester: UInt32?, at now: Seconds) throws(ProtocolError) -> [JobEvent] {
        guard registry[id] != nil else { throw Self.protocolError(.noSuchJob(id)) }
        guard subscriptions.controller(of: id) != nil else {
            throw ProtocolError(.notControllable, field: "job", "job \"\(id)\" cannot be \(pause ? "paused" : "resumed"): nothing that runs it can stop it (jobs under headway run can be)")
        }
        try change(id, requester, now) { (job: inout ProgressJob) throws(ProgressError) in
            if pause { try job.pause(at: now) } else { try job.resume(at: now) }
        }
        return [JobEvent(pause ? .paused : .resumed, job: id)]
    }

    static func protocolError(_ refusal: JobRefusal) -> ProtocolError {
        switch refusal {
        case .noSuchJob(let id):
            ProtocolError(.noSuchJob, field: "job", "no job \"\(id)\"; send begin first (jobs are forgotten once they are over)")
        case .belongsToAnotherUser(let id, let owner):
            ProtocolError(.notPermitted, field: "job", "job \"\(id)\" was begun by user \(owner); only that user or root may change it")
        case .tooManyJobs(let limit):
            ProtocolError(.limitReached, field: "job", "the service already holds \(limit) jobs, its limit; finish jobs that are over, or wait for them to be forgotten")
        case .progress(let error):
            ProtocolError(error)
        }
    }

    /// The percentage text gives: of the value last reported, never the eased one the glass draws
    /// (which trails a report for a moment), and below 100 until the job has succeeded. An
    /// estimate from past runs (no value reported) is the estimate's.
    static func reportedPercent(_ snapshot: ProgressSnapshot) -> Int? {
        // A countdown reads in time, never as a percentage.
        if case .timer = snapshot.kind { return nil }
        guard case .determinate(let value, let total) = snapshot.kind, total > 0, !snapshot.isEstimate else {
            return snapshot.fraction.map { Int(($0 * 100).rounded(.down)) }
        }
        // A succeeded job reads its whole; so does one over and no longer shown whose value is its total.
        if snapshot.phase == .finished(.succeeded) || snapshot.fraction == 1 || (snapshot.phase == .hidden && value >= total) { return 100 }
        return min(99, Int((min(max(value / total, 0), 1) * 100).rounded(.down)))
    }

    static func status(_ job: (id: String, snapshot: ProgressSnapshot), shown: Bool) -> JobStatus {
        let snapshot = job.snapshot
        var value: Double?, total: Double?, unit = snapshot.unit, countdown = false
        switch snapshot.kind {
        case .determinate(let v, let t): (value, total) = (v, t)
        // A countdown's value is its seconds left, in whole seconds as its text rounds them.
        case .timer(let start, let end, _):
            (value, total, unit, countdown) = ((snapshot.timeRemaining ?? 0).rounded(.up), end - start, .seconds, true)
        case .indeterminate: break
        }
        return JobStatus(
            job: job.id, label: snapshot.label, phase: snapshot.phase.name,
            percent: reportedPercent(snapshot), value: value, total: total,
            // Whole seconds as every text rounds them (time left up, time over down), so that no
            // door reads "0 s left" of a job that goes on, nor "overdue 0s".
            etaSeconds: snapshot.timeRemaining.map { $0.rounded(.up) }, estimate: snapshot.isEstimate,
            etaReported: snapshot.timeRemainingIsReported, overdueSeconds: snapshot.overdue.map { $0.rounded(.down) }, shown: shown, unit: unit,
            countdown: countdown)
    }
}
