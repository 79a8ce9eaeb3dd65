/// One job's progress and lifecycle: takes reports, answers "what should be shown at time t".
///
/// A value type: every report is a mutation that either succeeds completely or throws a
/// ``ProgressError`` and leaves the job unchanged. Time is always passed in (from an injected
/// ``ProgressClock``), so the same reports give the same snapshots in every run. What each phase
/// means, and when it changes, is in `ProgressJob+Phase.swift`.
public struct ProgressJob: Sendable, Equatable, Codable {
    /// The highest fraction shown before a job has succeeded: the last step is kept for the end,
    /// so an indicator never reads as complete while the job is still running.
    public static let unfinishedCeiling = 0.99

    /// Whether the job knows how far it is: indeterminate, a value of a total, or a timer.
    public internal(set) var kind: ProgressKind
    /// What the job is, as shown beside it.
    public internal(set) var label: String?
    /// Text describing the current value ("3 of 10 files").
    public internal(set) var currentValueLabel: String?
    /// When the job began (earlier than its first message when its reporter saw it late).
    public internal(set) var startedAt: Seconds
    /// The last report of progress (or of a label): what a stall is measured from.
    public internal(set) var lastReportAt: Seconds
    /// The last message of any kind, heartbeats included: what liveness is measured from.
    public internal(set) var lastHeardAt: Seconds
    /// How the job ended, once it has.
    public internal(set) var outcome: Outcome?
    /// When the job ended.
    public internal(set) var finishedAt: Seconds?
    /// When the job was paused, while it is.
    public internal(set) var pausedAt: Seconds?
    /// Time spent paused or queued before now (not counted toward an estimate).
    public internal(set) var pausedBefore: Seconds = 0
    /// Since when the job waits at its source to start (a CI run in the queue), while it does.
    public internal(set) var queuedSince: Seconds?
    /// Since when its reporter has lost sight of it (a CI server that cannot be reached), until
    /// the reporter hears from it again.
    public internal(set) var staleSince: Seconds?
    /// The job's own estimate of the time it has left, and when it said so (a tool's ETA).
    public internal(set) var reportedTimeRemaining: ReportedTimeRemaining?
    /// Where the job's current stage ends on its scale, when other work follows there (apt's
    /// download is the first half of its scale, the installation the second): the rate seen in
    /// one stage says nothing of the next, so a stage starts its rate afresh, and while one
    /// follows, only what earlier runs taught gives a time left. Nil in the last stage.
    public internal(set) var stageEnd: Double?
    /// The timings of its phases.
    public let policy: LifecyclePolicy
    /// How the job shows it is alive without progress reports.
    public internal(set) var liveness: Liveness
    /// How long past runs of this job took (learned from history): a job that reports no progress
    /// is shown as an estimate from it.
    public internal(set) var expectedDuration: Seconds?
    /// Whether indicators print the percentage (the platform guidelines make it optional).
    public var showsPercent: Bool
    /// What the value and total count (bytes, seconds), so that they are read in units; nil for
    /// a count of things.
    public var unit: ValueUnit?
    /// Whether the job is complete when its timer runs out (a countdown begun for its own sake:
    /// a tea timer, a maintenance window) rather than when it reports so. See ``timerRanOut(at:)``.
    public var completesAtEnd = false

    /// How the last successful run of this job went (the service's learned durations, by the
    /// job's name): its time left is read from it while this run keeps the last one's pace.
    public var learnedPace: PaceProfile?

    var shown: DisplayedValue
    var estimator: RateEstimator
    /// How this run goes, for the next run of the same job.
    public internal(set) var pace: PaceProfile?
    var determinateSince: Seconds?

    /// Begins a job at `time`, indeterminate unless `kind` says otherwise. A job whose reporter
    /// learned of it late says when it really began (`startedAt`, not after `time`); a `queued`
    /// job waits at its source until its first report of progress (``update(value:total:unit:label:timeRemaining:stageEnd:at:)``,
    /// ``indeterminate(at:)`` or a timer), and the wait does not count as running time.
    public init(
        label: String? = nil, kind: ProgressKind = .indeterminate, policy: LifecyclePolicy = .standard,
        liveness: Liveness = .reports, expectedDuration: Seconds? = nil, showsPercent: Bool = true, queued: Bool = false,
        startedAt: Seconds? = nil, at time: Seconds
    ) throws(ProgressError) {
        if let expectedDuration, !(expectedDuration.isFinite && expectedDuration > 0) { throw .invalidInterval(start: 0, end: expectedDuration) }
        if let startedAt, !(startedAt.isFinite && startedAt <= time) { throw .invalidInterval(start: startedAt, end: time) }
        self.label = label
        self.kind = .indeterminate
        self.policy = policy
        self.liveness = liveness
        self.expectedDuration = expectedDuration
        self.showsPercent = showsPercent
        self.startedAt = startedAt ?? time
        if queued, kind == .indeterminate { queuedSince = self.startedAt }
        lastReportAt = time
        lastHeardAt = time
        shown = DisplayedValue(duration: policy.easing, at: time)
        estimator = RateEstimator(stallThreshold: policy.stallAfter)
        switch kind {
        case .indeterminate: break
        case .determinate(let value, let total): try update(value: value, total: total, at: time)
        case .timer(let start, let end, let countsDown): try startTimer(from: start, to: end, countsDown: countsDown, at: time)
        }
    }

    // MARK: - Reports

    /// Reports `value` done of `total` (the current total, or 1.0 for a job that had none).
    /// NaN, infinite and negative numbers are refused, and so is a value above the total (a job
    /// begun without one that reports 42 meant 42 % or a total it did not give): the job keeps
    /// its last good value.
    /// `timeRemaining` is the job's own estimate of the seconds it has left (a tool's ETA): shown
    /// as an estimate, counting down until the next report, which replaces or drops it. `unit`,
    /// when given, is what value and total count in from now on (nil keeps the job's).
    /// `stageEnd`: where the stage this value is in ends, when other work follows (``stageEnd``);
    /// nil in the last stage. A stage end at or past the total is no stage of its own.
    public mutating func update(
        value: Double, total: Double? = nil, unit: ValueUnit? = nil, label: String? = nil, timeRemaining: Seconds? = nil, stageEnd: Double? = nil,
        at time: Seconds
    ) throws(ProgressError) {
        try checkRunning()
        let newTotal = total ?? currentTotal ?? 1
        guard newTotal.isFinite, newTotal > 0 else { throw .invalidTotal(newTotal) }
        guard value.isFinite, value >= 0 else { throw .invalidValue(value) }
        guard value <= newTotal else { throw .valueAboveTotal(value: value, total: newTotal) }
        if let timeRemaining, !(timeRemaining.isFinite && timeRemaining >= 0) { throw .invalidTimeRemaining(timeRemaining) }
        if let stageEnd, !(stageEnd.isFinite && stageEnd >= value) { throw .invalidStageEnd(stageEnd) }
        let clamped = value
        let stage = stageEnd.flatMap { $0 < newTotal ? $0 : nil }
        if stage != self.stageEnd, case .determinate = kind {
            // A new stage: its rate is its own.
            estimator = RateEstimator(stallThreshold: policy.stallAfter)
        }
        self.stageEnd = stage
        leaveQueue(at: time)
        reportedTimeRemaining = timeRemaining.map { ReportedTimeRemaining(seconds: $0, reportedAt: time) }
        // From indeterminate or a timer: the look changes, so the styles cross-fade from here.
        if case .determinate = kind {} else { determinateSince = time }
        kind = .determinate(value: clamped, total: newTotal)
        if let unit { self.unit = unit }
        if let label { self.label = label }
        estimator.record(value: clamped, at: time)
        let running = runningTime(at: time)
        pace = pace ?? PaceProfile()
        pace?.note(fraction: clamped / newTotal, at: running)
        shown.move(to: min(clamped / newTotal, Self.unfinishedCeiling), at: time)
        heard(at: time)
    }

    /// Reports `percent` (0…100) of the job's current total (1.0 for a job that has none): "35%"
    /// of a job of 120 files is 42 files, and the total stays 120.
    /// It is in the job's current stage (``stageEnd``) until it passes its end.
    public mutating func update(percent: Double, label: String? = nil, timeRemaining: Seconds? = nil, at time: Seconds) throws(ProgressError) {
        guard percent.isFinite, percent >= 0 else { throw .invalidValue(percent) }
        let total = currentTotal ?? 1
        let value = min(percent, 100) / 100 * total
        try update(value: value, total: total, label: label, timeRemaining: timeRemaining, stageEnd: stageEnd.flatMap { $0 >= value ? $0 : nil }, at: time)
    }

    /// Reports that the job is alive but cannot say how far it is. Allowed only while the job has no
    /// total yet: going back from determinate needs ``reset(label:at:)``.
    public mutating func indeterminate(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard !kind.isDeterminate else { throw .indeterminateAfterDeterminate }
        leaveQueue(at: time)
        heard(at: time)
    }

    /// A heartbeat: the job is alive. Not a report of progress, so a job whose progress stopped
    /// still stalls; one without progress stays running.
    public mutating func heartbeat(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        lastHeardAt = time
        staleSince = nil
    }

    /// Its reporter has lost sight of the job (the source it follows cannot be reached): shown as
    /// stale until the reporter hears from it again (any report or heartbeat).
    public mutating func markStale(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if staleSince == nil { staleSince = time }
    }

    /// Makes the job a clock-driven timer over `start...end` (a countdown when `countsDown`).
    public mutating func startTimer(from start: Seconds, to end: Seconds, countsDown: Bool = true, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard start.isFinite, end.isFinite, end > start else { throw .invalidInterval(start: start, end: end) }
        if case .determinate = kind {} else { determinateSince = time }
        kind = .timer(start: start, end: end, countsDown: countsDown)
        leaveQueue(at: time)
        heard(at: time)
    }

    /// Changes the label (a report in its own right: it shows the job is alive).
    public mutating func setLabel(_ label: String?, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        self.label = label
        heard(at: time)
    }

    /// Sets the text that describes the current value ("3 of 10 files").
    public mutating func setCurrentValueLabel(_ text: String?, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        currentValueLabel = text
        heard(at: time)
    }

    /// The job started over: back to indeterminate at zero, the shown value jumps back.
    public mutating func reset(label: String? = nil, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        kind = .indeterminate
        if let label { self.label = label }
        currentValueLabel = nil
        reportedTimeRemaining = nil
        stageEnd = nil
        determinateSince = nil
        shown.reset(at: time)
        estimator = RateEstimator(stallThreshold: policy.stallAfter)
        pace = nil
        heard(at: time)
    }

    /// Pauses the job (a person pressed its button, or asked): it is shown as paused, and neither
    /// stalls nor gets lost however long the pause lasts.
    public mutating func pause(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if pausedAt == nil { pausedAt = time }
    }

    /// Resumes a paused job; the pause counts neither toward its rate nor toward its estimate.
    public mutating func resume(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard let pausedAt else { return }
        pausedBefore += time - pausedAt
        self.pausedAt = nil
        heard(at: time)
        if case .determinate(let value, _) = kind { estimator.resume(value: value, at: time) }
    }

    /// Ends the job, and what is shown of it reaches the truth at once (an ease still under way
    /// would leave a finished job reading less than it did): a success reads full, a failure,
    /// cancellation or unknown end shows where the job stopped.
    public mutating func finish(_ outcome: Outcome, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if outcome == .succeeded {
            if case .determinate(_, let total) = kind {
                kind = .determinate(value: total, total: total)
                let running = runningTime(at: time)
                pace?.end(at: running)
            }
            shown.reset(to: 1, at: time)
        } else if case .determinate(let value, let total) = kind {
            shown.reset(to: max(shown.fraction(at: time), min(value / total, Self.unfinishedCeiling)), at: time)
        }
        if let pausedAt { pausedBefore += time - pausedAt }
        leaveQueue(at: time)
        self.outcome = outcome
        finishedAt = time
        pausedAt = nil
        heard(at: time)
    }

    private mutating func heard(at time: Seconds) {
        lastReportAt = time
        lastHeardAt = time
        staleSince = nil
    }

    /// The job started work: the time it waited in the queue is not running time.
    private mutating func leaveQueue(at time: Seconds) {
        guard let queuedSince else { return }
        pausedBefore += max(0, time - queuedSince)
        self.queuedSince = nil
    }

    private func checkRunning() throws(ProgressError) {
        if let outcome { throw .alreadyFinished(outcome) }
    }

    var currentTotal: Double? {
        if case .determinate(_, let total) = kind { return total }
        return nil
    }
}

/// A job's own estimate of the time it has left (a tool's ETA), as it reported it.
public struct ReportedTimeRemaining: Sendable, Equatable, Codable {
    /// The seconds the job said it had left.
    public var seconds: Seconds
    /// When it said so.
    public var reportedAt: Seconds

    /// An estimate of `seconds` left, made at `reportedAt`.
    public init(seconds: Seconds, reportedAt: Seconds) {
        self.seconds = seconds
        self.reportedAt = reportedAt
    }

    /// What is left of it at `time`, counted down from the report (never below zero).
    public func remaining(at time: Seconds) -> Seconds { max(0, seconds - max(0, time - reportedAt)) }
}
