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
