/// One job's progress and lifecycle: takes reports, answers "what should be shown at time t".
///
/// A value type: every report is a mutation that either succeeds completely or throws a
/// ``ProgressError`` and leaves the job unchanged. Time is always passed in (from an injected
/// ``ProgressClock``), so the same reports give the same snapshots in every run.
public struct ProgressJob: Sendable, Equatable {
    /// The highest fraction shown before a job has succeeded: the last step is kept for the end,
    /// so an indicator never reads as complete while the job is still running.
    public static let unfinishedCeiling = 0.99

    public private(set) var kind: ProgressKind
    public private(set) var label: String?
    public private(set) var currentValueLabel: String?
    public let startedAt: Seconds
    public private(set) var lastReportAt: Seconds
    public private(set) var outcome: Outcome?
    public private(set) var finishedAt: Seconds?
    /// When the job was paused, while it is.
    public private(set) var pausedAt: Seconds?
    public let policy: LifecyclePolicy

    private var shown: DisplayedValue
    private var estimator: RateEstimator
    private var determinateSince: Seconds?

    /// Begins a job at `time`, indeterminate unless `kind` says otherwise.
    public init(
        label: String? = nil, kind: ProgressKind = .indeterminate, policy: LifecyclePolicy = .standard,
        at time: Seconds
    ) throws(ProgressError) {
        self.label = label
        self.kind = .indeterminate
        self.policy = policy
        startedAt = time
        lastReportAt = time
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
        lastReportAt = time
    }

    /// Reports that the job is alive but cannot say how far it is. Allowed only while the job has no
    /// total yet: going back from determinate needs ``reset(label:at:)``.
    public mutating func indeterminate(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard !kind.isDeterminate else { throw .indeterminateAfterDeterminate }
        lastReportAt = time
    }

    /// Makes the job a clock-driven timer over `start...end` (a countdown when `countsDown`).
    public mutating func startTimer(from start: Seconds, to end: Seconds, countsDown: Bool = true, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard start.isFinite, end.isFinite, end > start else { throw .invalidInterval(start: start, end: end) }
        if case .determinate = kind {} else { determinateSince = time }
        kind = .timer(start: start, end: end, countsDown: countsDown)
        lastReportAt = time
    }

    /// Changes the label (a report in its own right: it shows the job is alive).
    public mutating func setLabel(_ label: String?, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        self.label = label
        lastReportAt = time
    }

    /// Sets the text that describes the current value ("3 of 10 files").
    public mutating func setCurrentValueLabel(_ text: String?, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        currentValueLabel = text
        lastReportAt = time
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
        lastReportAt = time
    }

    /// Pauses the job (a person pressed its button): it is shown as paused, and neither stalls nor
    /// gets lost however long the pause lasts.
    public mutating func pause(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if pausedAt == nil { pausedAt = time }
    }

    /// Resumes a paused job; the pause does not count toward its rate.
    public mutating func resume(at time: Seconds) throws(ProgressError) {
        try checkRunning()
        guard pausedAt != nil else { return }
        pausedAt = nil
        lastReportAt = time
        if case .determinate(let value, _) = kind { estimator.resume(value: value, at: time) }
    }

    /// Ends the job. Success eases the indicator to full; failure and cancellation keep it where it was.
    public mutating func finish(_ outcome: Outcome, at time: Seconds) throws(ProgressError) {
        try checkRunning()
        if outcome == .succeeded {
            if case .determinate(_, let total) = kind { kind = .determinate(value: total, total: total) }
            shown.move(to: 1, at: time)
        }
        self.outcome = outcome
        finishedAt = time
        pausedAt = nil
        lastReportAt = time
    }

    private func checkRunning() throws(ProgressError) {
        if let outcome { throw .alreadyFinished(outcome) }
    }

    private var currentTotal: Double? {
        if case .determinate(_, let total) = kind { return total }
        return nil
    }

    // MARK: - What to show

    /// The last sign of life: the last report, or for a timer the clock while its interval runs.
    private func lastAlive(at time: Seconds) -> Seconds {
        if case .timer(_, let end, _) = kind { return max(lastReportAt, min(time, end)) }
        return lastReportAt
    }

    /// The job's phase at `time`.
    public func phase(at time: Seconds) -> JobPhase {
        if let outcome, let finishedAt {
            // Quick jobs never flash: a success or a cancellation inside the grace delay is not
            // shown at all. A failure always is: it is news whatever the job's length.
            if finishedAt - startedAt < policy.grace, outcome != .failed { return .hidden }
            return time - finishedAt < policy.linger ? .finished(outcome) : .hidden
        }
        if time - startedAt < policy.grace { return .pending }
        if pausedAt != nil { return .paused }
        let silence = time - lastAlive(at: time)
        if silence >= policy.loseAfter { return .lost }
        if silence >= policy.stallAfter { return .stalled(silence: silence) }
        return .active
    }

    /// The next moment after `time` at which ``phase(at:)`` changes by itself if nothing is
    /// reported (a grace delay ending, a stall, a linger running out); `nil` when it never will.
    public func nextPhaseChange(after time: Seconds) -> Seconds? {
        let next: Seconds?
        if let finishedAt {
            next = finishedAt + policy.linger
        } else if time < startedAt + policy.grace {
            next = startedAt + policy.grace
        } else if pausedAt != nil {
            next = nil
        } else {
            let alive = lastAlive(at: time)
            if case .timer(_, let end, _) = kind, time < end { return end + policy.stallAfter }
            next = time < alive + policy.stallAfter ? alive + policy.stallAfter : alive + policy.loseAfter
        }
        return next.flatMap { $0 > time ? $0 : nil }
    }

    /// Whether the job is over at `time`: finished and its signal shown (or never shown), or lost.
    /// A service forgets such jobs.
    public func isOver(at time: Seconds) -> Bool {
        if let finishedAt { return time >= finishedAt + policy.linger }
        return phase(at: time) == .lost
    }

    /// The fraction to draw at `time`, or `nil` while indeterminate.
    public func displayedFraction(at time: Seconds) -> Double? {
        switch kind {
        case .indeterminate:
            return outcome == .succeeded ? shown.fraction(at: time) : nil
        case .determinate:
            return shown.fraction(at: time)
        case .timer(let start, let end, let countsDown):
            if outcome == .succeeded { return shown.fraction(at: time) }
            let elapsed = min(1, max(0, (min(time, finishedAt ?? time) - start) / (end - start)))
            return countsDown ? 1 - elapsed : min(elapsed, Self.unfinishedCeiling)
        }
    }

    /// Everything a style needs at `time`.
    public func snapshot(at time: Seconds) -> ProgressSnapshot {
        let phase = phase(at: time)
        let phaseStart: Seconds
        let phaseEnd: Seconds?
        switch phase {
        case .pending:
            phaseStart = startedAt
            phaseEnd = startedAt + policy.grace
        case .active:
            phaseStart = max(startedAt + policy.grace, lastAlive(at: time))
            phaseEnd = lastAlive(at: time) + policy.stallAfter
        case .stalled:
            phaseStart = lastAlive(at: time) + policy.stallAfter
            phaseEnd = lastAlive(at: time) + policy.loseAfter
        case .paused:
            phaseStart = max(startedAt + policy.grace, pausedAt ?? time)
            phaseEnd = nil
        case .finished:
            phaseStart = finishedAt ?? time
            phaseEnd = (finishedAt ?? time) + policy.linger
        case .hidden, .lost:
            phaseStart = time
            phaseEnd = nil
        }
        var remaining: Seconds? = nil
        if case .active = phase {
            switch kind {
            case .determinate(_, let total): remaining = estimator.timeRemaining(total: total, at: time)
            case .timer(_, let end, _): remaining = max(0, end - time)
            case .indeterminate: break
            }
        }
        return ProgressSnapshot(
            time: time, phase: phase, kind: kind, fraction: displayedFraction(at: time), label: label,
            currentValueLabel: currentValueLabel, timeRemaining: remaining, rate: estimator.rate,
            elapsed: time - startedAt, phaseElapsed: max(0, time - phaseStart),
            determinateFor: determinateSince.map { time - $0 }, phaseEndsAt: phaseEnd
        )
    }
}
