/// One job's progress and lifecycle: takes reports, answers "what should be shown at time t".
///
/// A value type: every report is a mutation that either succeeds completely or throws a
/// ``ProgressError`` and leaves the job unchanged. Time is always passed in (from an injected
/// ``ProgressClock``), so the same reports give the same snapshots in every run. What each phase
/// means, and when it changes, is in `ProgressJob+Phase.swift`.
public struct ProgressJob: Sendable, Equatable {
    /// The highest fraction shown before a job has succeeded: the last step is kept for the end,
    /// so an indicator never reads as complete while the job is still running.
    public static let unfinishedCeiling = 0.99

    public private(set) var kind: ProgressKind
    public private(set) var label: String?
    public private(set) var currentValueLabel: String?
    public let startedAt: Seconds
    /// The last report of progress (or of a label): what a stall is measured from.
    public private(set) var lastReportAt: Seconds
    /// The last message of any kind, heartbeats included: what liveness is measured from.
    public private(set) var lastHeardAt: Seconds
    public private(set) var outcome: Outcome?
    public private(set) var finishedAt: Seconds?
    /// When the job was paused, while it is.
    public private(set) var pausedAt: Seconds?
    /// Time spent paused before the current pause (not counted toward an estimate).
    public private(set) var pausedBefore: Seconds = 0
    public let policy: LifecyclePolicy
    /// How the job shows it is alive without progress reports.
    public private(set) var liveness: Liveness
    /// How long past runs of this job took (learned from history): a job that reports no progress
    /// is shown as an estimate from it.
    public private(set) var expectedDuration: Seconds?
    /// Whether indicators print the percentage (the platform guidelines make it optional).
    public var showsPercent: Bool
    /// Whether the job is complete when its timer runs out (a countdown begun for its own sake:
    /// a tea timer, a maintenance window) rather than when it reports so. See ``timerRanOut(at:)``.
    public var completesAtEnd = false

    var shown: DisplayedValue
    var estimator: RateEstimator
    var determinateSince: Seconds?

    /// Begins a job at `time`, indeterminate unless `kind` says otherwise.
    public init(
        label: String? = nil, kind: ProgressKind = .indeterminate, policy: LifecyclePolicy = .standard,
        liveness: Liveness = .reports, expectedDuration: Seconds? = nil, showsPercent: Bool = true, at time: Seconds
    ) throws(ProgressError) {
        if let expectedDuration, !(expectedDuration.isFinite && expectedDuration > 0) { throw .invalidInterval(start: 0, end: expectedDuration) }
        self.label = label
        self.kind = .indeterminate
        self.policy = policy
        self.liveness = liveness
        self.expectedDuration = expectedDuration
        self.showsPercent = showsPercent
        startedAt = time
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
    /// Values above the total are clamped to it; NaN, infinite and negative numbers are refused.
    public mutating func update(value: Double, total: Double? = nil, label: String? = nil, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        let newTotal = total ?? currentTotal ?? 1
        guard newTotal.isFinite, newTotal > 0 else { throw .invalidTotal(newTotal) }
        guard value.isFinite, value >= 0 else { throw .invalidValue(value) }
        let clamped = min(value, newTotal)
        // From indeterminate or a timer: the look changes, so the styles cross-fade from here.
        if case .determinate = kind {} else { determinateSince = time }
        kind = .determinate(value: clamped, total: newTotal)
        if let label { self.label = label }
        estimator.record(value: clamped, at: time)
        shown.move(to: min(clamped / newTotal, Self.unfinishedCeiling), at: time)
        heard(at: time)
    }

    /// Reports `percent` (0…100) of the job's current total (1.0 for a job that has none): "35%"
    /// of a job of 120 files is 42 files, and the total stays 120.
    public mutating func update(percent: Double, label: String? = nil, at time: Seconds) throws(ProgressError) {
        guard percent.isFinite, percent >= 0 else { throw .invalidValue(percent) }
        let total = currentTotal ?? 1
        try update(value: min(percent, 100) / 100 * total, total: total, label: label, at: time)
    }

    /// Reports that the job is alive but cannot say how far it is. Allowed only while the job has no
    /// total yet: going back from determinate needs ``reset(label:at:)``.
    public mutating func indeterminate(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard !kind.isDeterminate else { throw .indeterminateAfterDeterminate }
        heard(at: time)
    }

    /// A heartbeat: the job is alive. Not a report of progress, so a job whose progress stopped
    /// still stalls; one without progress stays running.
    public mutating func heartbeat(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        lastHeardAt = time
    }

    /// Makes the job a clock-driven timer over `start...end` (a countdown when `countsDown`).
    public mutating func startTimer(from start: Seconds, to end: Seconds, countsDown: Bool = true, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard start.isFinite, end.isFinite, end > start else { throw .invalidInterval(start: start, end: end) }
        if case .determinate = kind {} else { determinateSince = time }
        kind = .timer(start: start, end: end, countsDown: countsDown)
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
        determinateSince = nil
        shown.reset(at: time)
        estimator = RateEstimator(stallThreshold: policy.stallAfter)
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

    /// Ends the job. Success eases the indicator to full (from where an estimate had it); failure,
    /// cancellation and an unknown end keep it where it was.
    public mutating func finish(_ outcome: Outcome, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if outcome == .succeeded {
            if kind == .indeterminate, let estimated = estimatedFraction(at: time) { shown.reset(to: estimated, at: time) }
            if case .determinate(_, let total) = kind { kind = .determinate(value: total, total: total) }
            shown.move(to: 1, at: time)
        }
        if let pausedAt { pausedBefore += time - pausedAt }
        self.outcome = outcome
        finishedAt = time
        pausedAt = nil
        heard(at: time)
    }

    private mutating func heard(at time: Seconds) {
        lastReportAt = time
        lastHeardAt = time
    }

    private func checkRunning() throws(ProgressError) {
        if let outcome { throw .alreadyFinished(outcome) }
    }

    var currentTotal: Double? {
        if case .determinate(_, let total) = kind { return total }
        return nil
    }
}
