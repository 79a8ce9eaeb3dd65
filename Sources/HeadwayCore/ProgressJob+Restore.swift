/// A job kept through a restart of its service: written out (``ProgressJob`` is `Codable`) and read
/// back by a process whose clock reads other times.
extension ProgressJob {
    /// The job with every time it holds moved by `delta` seconds: a job written at `t` on one
    /// process's clock and read back at `t'` on another's goes on from `t + delta`, with the time in
    /// between counted as running time (it ran while the service was away).
    public func shifted(by delta: Seconds) -> ProgressJob {
        var job = self
        job.startedAt += delta
        job.lastReportAt += delta
        job.lastHeardAt += delta
        job.finishedAt = finishedAt.map { $0 + delta }
        job.pausedAt = pausedAt.map { $0 + delta }
        job.queuedSince = queuedSince.map { $0 + delta }
        job.staleSince = staleSince.map { $0 + delta }
        job.reportedTimeRemaining = reportedTimeRemaining.map { ReportedTimeRemaining(seconds: $0.seconds, reportedAt: $0.reportedAt + delta) }
        job.determinateSince = determinateSince.map { $0 + delta }
        if case .timer(let start, let end, let countsDown) = kind { job.kind = .timer(start: start + delta, end: end + delta, countsDown: countsDown) }
        job.shown = shown.shifted(by: delta)
        job.estimator = estimator.shifted(by: delta)
        return job
    }
}

extension ProgressJob {
    /// The job as read back from a state file, held to what a report could have made of it: its
    /// labels made safe to show and cut to `maxLabelBytes`, as the protocol cuts them; nil when a
    /// number breaks the model's rules (a value above its total, a time that is not finite), for
    /// the service to set it aside. A file is outside input: it may have been damaged or written
    /// by hand.
    public func checkedAfterReading(maxLabelBytes: Int) -> ProgressJob? {
        func finite(_ time: Seconds?) -> Bool { time.map(\.isFinite) ?? true }
        guard [startedAt, lastReportAt, lastHeardAt, pausedBefore].allSatisfy(\.isFinite), pausedBefore >= 0,
            [finishedAt, pausedAt, queuedSince, staleSince, determinateSince].allSatisfy(finite)
        else { return nil }
        switch kind {
        case .indeterminate: break
        case .determinate(let value, let total):
            guard value.isFinite, total.isFinite, value >= 0, total > 0, value <= total else { return nil }
        case .timer(let start, let end, _):
            guard start.isFinite, end.isFinite, start < end else { return nil }
        }
        if let expectedDuration, !(expectedDuration.isFinite && expectedDuration > 0) { return nil }
        if let stageEnd, !stageEnd.isFinite { return nil }
        if let reported = reportedTimeRemaining, !(reported.seconds.isFinite && reported.seconds >= 0 && reported.reportedAt.isFinite) { return nil }
        var job = self
        job.label = label.map { DisplayText.shortened(DisplayText.sanitised($0), maxBytes: maxLabelBytes) }
        job.currentValueLabel = currentValueLabel.map { DisplayText.shortened(DisplayText.sanitised($0), maxBytes: maxLabelBytes) }
        return job
    }
}
