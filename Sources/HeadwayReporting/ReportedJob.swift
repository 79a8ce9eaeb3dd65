import HeadwayCore
import HeadwayProtocol

/// One job of a reporter, generation included: beginning a job id again makes a new generation,
/// and reports through the old one stop.
package struct JobKey: Hashable, Sendable {
    package var id: String
    package var generation: Int
}

/// What a reporter knows of one of its jobs: the state its program last reported (which always
/// wins: reports coalesce into it), and what the current connection has been told of it. The
/// requests that bring the service from the second to the first are made by
/// ``nextRequests(now:interval:urgent:processID:)``: after a reconnection that is the begin again
/// (with the running time, the latest label and total), the latest progress, the subscription
/// and the pause.
package struct ReportedJob {
    /// The job's progress as last reported.
    package enum Progress: Equatable {
        case indeterminate
        case value(Double, timeRemaining: Double?)
        case percent(Double, timeRemaining: Double?)
    }

    package let key: JobKey
    /// How it was begun; `label`, `total` and `queued` follow later reports, so that a begin sent
    /// again after a restart carries what is true now.
    package var options: BeginOptions
    /// When it began (left its queue, for a queued job), on the monotonic clock: a begin sent
    /// again says how long ago (`elapsed`).
    package var startedAt: Seconds
    /// When a countdown ends, on the monotonic clock.
    package let countdownEnd: Seconds?
    /// Whether the connection follows the job's events (a subscription), and which requests from
    /// a button the program honours (its controller, with any).
    package let follows: Bool
    package let controls: JobControls

    // What the program reported; each change counts up `version`.
    package var version = 1
    package var labelVersion = 0
    package var progress: Progress?
    /// Where the stage of the last value ends, when other work follows (``ProgressJob/stageEnd``).
    package var stageEnd: Double?
    /// When ``progress`` last changed: its time left counts down from then, as the service counts it.
    private var progressAt: Seconds = 0
    package var progressVersion = 0
    /// The job's reporter lost sight of it (`stale`), until its next report.
    package var stale = false
    /// Heartbeats reported (`alive`); one is sent only when nothing else about the job goes.
    package var aliveVersion = 0
    package var outcome: Outcome?
    /// Paused by a person (and honoured by the program), as the service's events said.
    package var paused = false
    /// A `resume` to send: a pause the program does not honour, turned down.
    package var resumeOwed = false

    // What the current connection knows.
    package var begun = false
    var subscribed = false
    /// Whether the service holds the job paused, as this connection knows.
    var sentPaused = false
    var sentLabelVersion = 0
    var sentProgressVersion = 0
    var sentStale = false
    var sentAliveVersion = 0
    package var finishSent = false
    var lastProgressSentAt = -Double.infinity
    /// The service refused the begin on this connection: nothing more is sent for the job until
    /// the next connection.
    package var beginRefused = false
    /// Whether any connection ever began it (a job begun and ended while the service was away is
    /// never shown late).
    package var everBegun = false
    /// The newest `version` whose state the service has acknowledged.
    package var answered = 0

    package var refusal: Refusal?

    init(key: JobKey, options: BeginOptions, startedAt: Seconds, countdownEnd: Seconds?, follows: Bool, controls: JobControls) {
        self.key = key
        self.options = options
        self.startedAt = startedAt
        self.countdownEnd = countdownEnd
        self.follows = follows || !controls.isEmpty
        self.controls = controls
        labelVersion = options.label == nil ? 0 : 1
    }

    /// Whether the program still reports to the job.
    package var isRunning: Bool { outcome == nil }

    /// Whether everything the program reported has been acknowledged.
    package var isDelivered: Bool { answered >= version }

    /// The connection was lost: a new one starts knowing nothing of the job.
    mutating func forgetConnection() {
        begun = false
        subscribed = false
        sentPaused = false
        sentLabelVersion = 0
        sentProgressVersion = 0
        sentStale = false
        sentAliveVersion = aliveVersion
        finishSent = false
        beginRefused = false
        resumeOwed = false
        lastProgressSentAt = -.infinity
    }

    // MARK: - Reports (each refused as the service would refuse it)

    /// Checks a report's numbers as the service would, so a wrong one is refused before sending
    /// (a value above `total`, or above the job's total when `total` is nil, included).
    package func check(value: Double, total: Double?, timeRemaining: Double?) throws(ProgressError) {
        try Self.check(value: value, total: total, timeRemaining: timeRemaining)
        let whole = total ?? options.total ?? 1
        guard value <= whole else { throw .valueAboveTotal(value: value, total: whole) }
    }

    /// Checks a report's numbers that need no job to check: finite, not negative, a total above 0,
    /// an estimate of at most a year.
    package static func check(value: Double, total: Double?, timeRemaining: Double?) throws(ProgressError) {
        guard value.isFinite, value >= 0 else { throw .invalidValue(value) }
        if let total, !(total.isFinite && total > 0) { throw .invalidTotal(total) }
        if let timeRemaining, !(timeRemaining.isFinite && timeRemaining >= 0 && timeRemaining <= WireProtocol.maxSeconds) {
            throw .invalidTimeRemaining(timeRemaining)
        }
    }

    /// Progress: `value` of `total` (the job's total when nil), in `unit` from now on when given,
    /// with a new label when given.
    package mutating func update(
        value: Double, total: Double?, unit: ValueUnit? = nil, label: String?, timeRemaining: Double?, stageEnd: Double? = nil, now: Seconds
    ) throws(ProgressError) {
        try check(value: value, total: total, timeRemaining: timeRemaining)
        if let stageEnd, !(stageEnd.isFinite && stageEnd >= value && stageEnd <= total ?? options.total ?? 1) { throw .invalidStageEnd(stageEnd) }
        if let unit, unit != options.unit {
            options.unit = unit
            progressVersion += 1
            version += 1
        }
        if stageEnd != self.stageEnd {
            self.stageEnd = stageEnd
            progressVersion += 1
            version += 1
        }
        report(.value(value, timeRemaining: timeRemaining), total: total, label: label, now: now)
    }

    /// Progress as a percentage of the job's total.
    package mutating func update(percent: Double, label: String?, timeRemaining: Double?, now: Seconds) throws(ProgressError) {
        guard percent.isFinite, (0...100).contains(percent) else { throw .invalidValue(percent) }
        try Self.check(value: percent, total: nil, timeRemaining: timeRemaining)
        report(.percent(percent, timeRemaining: timeRemaining), total: nil, label: label, now: now)
    }

    /// The job cannot say how far it is (only before it has a total).
    package mutating func indeterminate(now: Seconds) throws(ProgressError) {
        if case .value? = progress { throw .indeterminateAfterDeterminate }
        if case .percent? = progress { throw .indeterminateAfterDeterminate }
        if options.total != nil || countdownEnd != nil { throw .indeterminateAfterDeterminate }
        report(.indeterminate, total: nil, label: nil, now: now)
    }

    private mutating func report(_ new: Progress, total: Double?, label: String?, now: Seconds) {
        if options.queued {
            // It left its queue now: its running time counts from here, as the service counts it.
            options.queued = false
            startedAt = now
        }
        let changed = Self.differs(progress, at: progressAt, from: new, now: now) || (total != nil && total != options.total)
        if let total { options.total = total }
        if changed || stale {
            progress = new
            progressAt = now
            progressVersion += 1
        }
        stale = false
        if let label, label != options.label { setLabel(label) } else if changed { version += 1 }
    }

    /// Whether `new` says something `old` (reported at `then`) does not. A time left is compared
    /// as the service counts it down: one that counts down with the clock is nothing new, and one
    /// that stands still while the value does (a printer heating its hot end says "59 s left"
    /// look after look) is news, which the service's countdown of the last would miss.
    static func differs(_ old: Progress?, at then: Seconds, from new: Progress, now: Seconds) -> Bool {
        let before: Double?, after: Double?
        switch (old, new) {
        case (.value(let a, let left)?, .value(let b, let right)) where a == b: (before, after) = (left, right)
        case (.percent(let a, let left)?, .percent(let b, let right)) where a == b: (before, after) = (left, right)
        default: return old != new
        }
        guard let before, let after else { return before != after }
        return abs(max(0, before - (now - then)) - after) > 1
    }

    package mutating func setLabel(_ label: String) {
        guard label != options.label || stale else { return }
        options.label = label
        labelVersion += 1
        stale = false
        version += 1
    }

    /// The job is alive: a heartbeat, sent unless something else about the job goes with it.
    package mutating func alive() {
        aliveVersion += 1
        stale = false
        version += 1
    }

    /// The reporter lost sight of the job: shown stale until its next report.
    package mutating func markStale() {
        guard !stale else { return }
        stale = true
        version += 1
    }

    /// The program paused or resumed its work itself (a printer paused at its own screen): the
    /// service is told, as its controller may tell it. Only for a job that takes pauses.
    package mutating func setPaused(_ pause: Bool) {
        guard controls.contains(.pause), pause != paused, outcome == nil else { return }
        paused = pause
        version += 1
    }

    /// The service paused or resumed the job (its button): it knows already.
    package mutating func pausedByService(_ pause: Bool) {
        paused = pause
        sentPaused = pause
    }

    package mutating func finish(_ outcome: Outcome) {
        self.outcome = outcome
        version += 1
    }

    // MARK: - What the connection is told

    /// The requests that bring the service from what this connection told it to what the program
    /// reported, in the order they must go; empty when there is nothing to send (or it must wait:
    /// progress goes at most every `interval` seconds unless `urgent`). `processID`, when given,
    /// is the process whose life is the job's.
    mutating func nextRequests(now: Seconds, interval: Seconds, urgent: Bool, processID: Int32?) -> [(Request, SentKind)] {
        guard !beginRefused else { return [] }
        var requests: [(Request, SentKind)] = []
        let id = key.id
        /// Whether a request of this batch tells the service the job is alive.
        var heard = false
        if !begun {
            if outcome != nil {
                // Over before this connection: only a job the service may still hold is told.
                guard everBegun, !finishSent else { return [] }
                finishSent = true
                return [(.finish(job: id, outcome: outcome!), .finish)]
            }
            var begin = options
            if let processID { begin.pid = processID }
            // Begun again (a restart), or late (the service was away): with the time it has run.
            let elapsed = now - startedAt
            if !begin.queued, everBegun || elapsed >= 1 {
                begin.elapsed = min((elapsed * 1000).rounded() / 1000, WireProtocol.maxSeconds)
            }
            if let countdownEnd {
                // The service's countdown runs from the begin: what is left of it.
                begin.countdown = max(0.001, countdownEnd - now)
            }
            requests.append((.begin(job: id, begin), .begin))
            begun = true
            everBegun = true
            heard = true
            sentLabelVersion = labelVersion
            if progress == nil { sentProgressVersion = progressVersion }
        }
        if follows, !subscribed {
            requests.append((.subscribe(job: id, controls: !controls.isEmpty), .subscribe))
            subscribed = true
        }
        if subscribed, controls.contains(.pause), paused != sentPaused, outcome == nil {
            requests.append((paused ? .pause(job: id) : .resume(job: id), .quiet))
            sentPaused = paused
        }
        if resumeOwed {
            requests.append((.resume(job: id), .quiet))
            resumeOwed = false
        }
        let progressDue = progressVersion > sentProgressVersion && (urgent || outcome != nil || now - lastProgressSentAt >= interval)
        var labelSent = false
        if progressDue, let progress {
            let label = labelVersion > sentLabelVersion ? options.label : nil
            switch progress {
            case .value(let value, let eta):
                requests.append((.update(job: id, value: value, total: options.total, label: label, eta: eta, unit: options.unit, stageEnd: stageEnd), .report))
                labelSent = label != nil
            case .percent(let percent, let eta):
                requests.append((.updatePercent(job: id, percent: percent, label: label, eta: eta), .report))
                labelSent = label != nil
            case .indeterminate:
                requests.append((.indeterminate(job: id), .report))
            }
            sentProgressVersion = progressVersion
            lastProgressSentAt = now
            heard = true
        }
        if labelVersion > sentLabelVersion, !labelSent, let label = options.label {
            requests.append((.label(job: id, label: label), .report))
            heard = true
        }
        sentLabelVersion = labelVersion
        if stale, !sentStale, outcome == nil {
            requests.append((.stale(job: id), .report))
            sentStale = true
        } else if !stale {
            sentStale = false
        }
        if aliveVersion > sentAliveVersion, outcome == nil, progressVersion <= sentProgressVersion {
            if !heard, !stale { requests.append((.alive(job: id), .report)) }
            sentAliveVersion = aliveVersion
        }
        if let outcome, !finishSent, progressVersion <= sentProgressVersion {
            requests.append((.finish(job: id, outcome: outcome), .finish))
            finishSent = true
        }
        return requests
    }
}

/// What a request in flight was, so its reply is read for what it means.
enum SentKind: Equatable {
    case begin, subscribe, report, finish
    /// A request whose refusal means nothing to the program (a pause sent again after a restart,
    /// a resume of a turned-down pause).
    case quiet
}
