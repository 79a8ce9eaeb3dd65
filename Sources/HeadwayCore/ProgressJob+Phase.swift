/// What a job shows at a moment, and when that changes by itself.
///
/// The phases, in the order the rules are applied:
/// - **finished** (success, failure, cancellation, unknown end) for the policy's `linger` after the
///   end, then **hidden**; a success or cancellation inside the grace delay is hidden at once
///   (quick jobs never flash), a failure is always shown;
/// - **pending** until the grace delay has passed;
/// - **paused** while a person has paused it: never stalled or lost;
/// - **lost** when its liveness has ended (see ``Liveness``): silent for `loseAfter` after its last
///   progress report, or for `aliveWithoutReports` after its last message when it reports no
///   progress, or heartbeats (or a follower's looks) missing for `loseAfter` (at least ten
///   intervals); a job watched through its process, or owned by the service, is never lost (the
///   watcher ends it);
/// - **stale** when its reporter said it lost sight of it, or a follower's looks stopped for two
///   intervals: not known to run, and not known to have stopped;
/// - **queued** while it waits at its source to start;
/// - **stalled** when it reports progress and its reports stopped for `stallAfter` (never for a
///   followed job: its source says whether it runs), or its heartbeats stopped for two intervals;
/// - **active** otherwise: a job that reports no progress reads as running for as long as it is
///   alive, as an estimate when past runs say how long it takes.
extension ProgressJob {
    /// How far past an estimate's end a job must be to read overdue: under a second it would say
    /// "overdue 0s", which tells nothing; the time text is left out until then.
    static let overdueAfter: Seconds = 1

    /// Whether the job has said how far it is (a value, or a timer): such a job stalls when its
    /// reports stop.
    public var reportsProgress: Bool { kind.isDeterminate }

    /// The last sign of progress: the last report, or for a timer the clock while its interval runs.
    func lastProgress(at time: Seconds) -> Seconds {
        if case .timer(_, let end, _) = kind { return max(lastReportAt, min(time, end)) }
        return lastReportAt
    }

    /// When the job's liveness ends if nothing more is heard (nil: not by itself).
    func livenessEnds(at time: Seconds) -> Seconds? {
        switch liveness {
        case .process, .owned: nil
        case .heartbeat(let interval), .followed(let interval): lastHeardAt + max(policy.loseAfter, 10 * interval)
        case .reports: reportsProgress ? max(lastProgress(at: time), lastHeardAt) + policy.loseAfter : lastHeardAt + policy.aliveWithoutReports
        }
    }

    /// When the job stalls if nothing more is heard (nil: it cannot stall).
    func stallsAt(_ time: Seconds) -> Seconds? {
        if queuedSince != nil { return nil }
        if case .followed = liveness { return nil }
        if reportsProgress {
            if case .timer(_, let end, _) = kind, time < end { return end + policy.stallAfter }
            return lastProgress(at: time) + policy.stallAfter
        }
        if case .heartbeat(let interval) = liveness { return lastHeardAt + 2 * interval }
        return nil
    }

    /// When the job turns stale if nothing more is heard (nil: it cannot by itself).
    func staleAt() -> Seconds? {
        if let staleSince { return staleSince }
        if case .followed(let interval) = liveness { return lastHeardAt + 2 * interval }
        return nil
    }

    /// The job's phase at `time`.
    public func phase(at time: Seconds) -> JobPhase {
        if let outcome, let finishedAt {
            // Quick jobs never flash: a success or a cancellation inside the grace delay is not
            // shown at all. A failure (or an unknown end) always is: it is news whatever the length.
            if finishedAt - startedAt < policy.grace, outcome == .succeeded || outcome == .cancelled { return .hidden }
            return time - finishedAt < policy.linger ? .finished(outcome) : .hidden
        }
        if time - startedAt < policy.grace { return .pending }
        if pausedAt != nil { return .paused }
        if let end = livenessEnds(at: time), time >= end { return .lost }
        if let stale = staleAt(), time >= stale { return .stale(silence: time - (staleSince ?? lastHeardAt)) }
        if queuedSince != nil { return .queued }
        if let stall = stallsAt(time), time >= stall {
            return .stalled(silence: time - (reportsProgress ? lastProgress(at: time) : lastHeardAt))
        }
        return .active
    }

    /// The next moment after `time` at which ``phase(at:)`` changes by itself if nothing is
    /// reported (a grace delay ending, a stall, a linger running out); `nil` when it never will.
    public func nextPhaseChange(after time: Seconds) -> Seconds? {
        if let finishedAt { return finishedAt + policy.linger > time ? finishedAt + policy.linger : nil }
        if time < startedAt + policy.grace { return startedAt + policy.grace }
        if pausedAt != nil { return nil }
        return [stallsAt(time), staleAt(), livenessEnds(at: time), completesAtEnd ? timerEnd : nil].compactMap { $0 }.filter { $0 > time }.min()
    }

    private var timerEnd: Seconds? {
        if case .timer(_, let end, _) = kind { return end }
        return nil
    }

    /// Whether the job ``completesAtEnd`` and its timer has run out at `time` with no outcome
    /// reported: its owner (the service) finishes it as a success then.
    public func timerRanOut(at time: Seconds) -> Bool {
        guard completesAtEnd, outcome == nil, pausedAt == nil, let timerEnd else { return false }
        return time >= timerEnd
    }

    /// Whether the job is over at `time`: finished and its signal shown (or never shown), or lost.
    /// A service forgets such jobs.
    public func isOver(at time: Seconds) -> Bool {
        if let finishedAt { return time >= finishedAt + policy.linger }
        return phase(at: time) == .lost
    }

    /// Seconds the job has been running at `time`, pauses and time in a queue left out.
    public func runningTime(at time: Seconds) -> Seconds {
        let end = min(time, finishedAt ?? time)
        let waiting = [pausedAt, queuedSince].compactMap { $0 }.map { max(0, end - $0) }.reduce(0, +)
        return max(0, end - startedAt - pausedBefore - waiting)
    }

    /// For a job that reports no progress but has an expected duration: the share of it that has
    /// passed, never more than ``unfinishedCeiling``.
    func estimatedFraction(at time: Seconds) -> Double? {
        guard kind == .indeterminate, queuedSince == nil, let expectedDuration else { return nil }
        return min(Self.unfinishedCeiling, runningTime(at: time) / expectedDuration)
    }

    /// The fraction to draw at `time`, or `nil` while indeterminate (without an estimate).
    public func displayedFraction(at time: Seconds) -> Double? {
        switch kind {
        case .indeterminate:
            return outcome == .succeeded ? shown.fraction(at: time) : estimatedFraction(at: time)
        case .determinate:
            return shown.fraction(at: time)
        case .timer(let start, let end, let countsDown):
            if outcome == .succeeded { return shown.fraction(at: time) }
            let elapsed = min(1, max(0, (min(time, finishedAt ?? time) - start) / (end - start)))
            return countsDown ? 1 - elapsed : min(elapsed, Self.unfinishedCeiling)
        }
    }

    /// Headway's own estimate of the time left at `time`, counted down from the last report: the
    /// last run's pace where the job ran before and keeps that pace (``PaceProfile``), else the
    /// rate seen (``RateEstimator``), else, while no rate is known, the expected duration (the
    /// reporter's, or what the job's earlier runs took); below zero by how much the job is past it.
    /// The rate seen speaks only in the last stage (``stageEnd``): other work follows the others.
    func ownTimeLeft(value: Double, total: Double, at time: Seconds) -> Seconds? {
        guard let reportedAt = estimator.latestTime else { return nil }
        if let learnedPace, let left = learnedPace.timeLeft(from: value / total, running: runningTime(at: reportedAt)) {
            let counted = left - max(0, time - reportedAt)
            if counted > 0 { return counted }
        }
        if stageEnd == nil, let left = estimator.timeLeft(total: total, at: time) { return left }
        return expectedDuration.map { $0 - runningTime(at: time) }
    }

    /// Everything a style needs at `time`.
    public func snapshot(at time: Seconds) -> ProgressSnapshot {
        let phase = phase(at: time)
        let phaseStart: Seconds
        switch phase {
        case .pending: phaseStart = startedAt
        case .active: phaseStart = max(startedAt + policy.grace, lastReportAt)
        case .stalled: phaseStart = stallsAt(time) ?? time
        case .paused: phaseStart = max(startedAt + policy.grace, pausedAt ?? time)
        case .queued: phaseStart = queuedSince ?? time
        case .stale(let silence): phaseStart = time - silence
        case .finished: phaseStart = finishedAt ?? time
        case .hidden, .lost: phaseStart = time
        }
        let isEstimate = kind == .indeterminate && expectedDuration != nil && outcome != .succeeded && queuedSince == nil
        var overdue: Seconds?
        var remaining: Seconds?
        var remainingIsReported = false
        if isEstimate, let expectedDuration {
            let over = runningTime(at: time) - expectedDuration
            if over >= Self.overdueAfter, outcome == nil { overdue = over }
            if phase == .active, over < 0 { remaining = -over }
        } else if case .active = phase {
            switch kind {
            case .determinate(let value, let total) where value < total:
                // The reporter's own estimate first, counted down as it would be, shown as its (a CI
                // server's from its history, a printer's from its slicer: they know the work).
                // Once it has run out (or says "ETA 0s" with work left), Headway's own speaks: the
                // last run's pace where this job ran before, else the rate seen. Past an estimate's
                // end with work left, the job reads overdue by that much, never "0 s left": the
                // estimate has run out, not the job.
                if let reported = reportedTimeRemaining?.remaining(at: time), reported > 0 {
                    (remaining, remainingIsReported) = (reported, true)
                } else if let left = ownTimeLeft(value: value, total: total, at: time) {
                    if left > 0 { remaining = left } else if -left >= Self.overdueAfter { overdue = -left }
                }
            case .determinate:
                // The whole reported, not yet ended (a backup finishing its upload): no time to tell.
                break
            case .timer(_, let end, _): remaining = max(0, end - time)
            case .indeterminate: break
            }
        }
        return ProgressSnapshot(
            time: time, phase: phase, kind: kind, fraction: displayedFraction(at: time), label: label,
            currentValueLabel: currentValueLabel, timeRemaining: remaining, rate: estimator.rate,
            elapsed: time - startedAt, phaseElapsed: max(0, time - phaseStart),
            determinateFor: determinateSince.map { time - $0 }, phaseEndsAt: nextPhaseChange(after: time),
            isEstimate: isEstimate, overdue: overdue, timeRemainingIsReported: remainingIsReported, showsPercent: showsPercent,
            unit: unit
        )
    }
}
