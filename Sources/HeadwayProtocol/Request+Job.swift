extension Request {
    /// The job a request is about, if it is about one.
    public var job: String? {
        switch self {
        case .begin(let job, _), .update(let job, _, _, _, _, _, _), .updatePercent(let job, _, _, _), .label(let job, _), .indeterminate(let job),
             .alive(let job), .stale(let job), .pause(let job), .resume(let job), .finish(let job, _), .stop(let job):
            job
        case .subscribe(let job, _): job
        case .status: nil
        }
    }

    /// The same request about job `job` (a question about no job stays as it is).
    public func withJob(_ job: String) -> Request {
        switch self {
        case .begin(_, let options): .begin(job: job, options)
        case .update(_, let value, let total, let label, let eta, let unit, let stageEnd):
            .update(job: job, value: value, total: total, label: label, eta: eta, unit: unit, stageEnd: stageEnd)
        case .updatePercent(_, let percent, let label, let eta): .updatePercent(job: job, percent: percent, label: label, eta: eta)
        case .label(_, let label): .label(job: job, label: label)
        case .indeterminate: .indeterminate(job: job)
        case .alive: .alive(job: job)
        case .pause: .pause(job: job)
        case .resume: .resume(job: job)
        case .stale: .stale(job: job)
        case .finish(_, let outcome): .finish(job: job, outcome: outcome)
        case .stop: .stop(job: job)
        case .subscribe(nil, _), .status: self
        case .subscribe(_, let controls): .subscribe(job: job, controls: controls)
        }
    }
}
