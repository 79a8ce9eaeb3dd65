import RealModule

/// Estimates how fast a job progresses and when it will finish.
///
/// ## Algorithm
/// The estimator is a continuous-time exponential moving average of the job's rate, weighted by
/// *time*, not by the number of updates:
///
/// 1. Between two reports `(t₀, v₀)` and `(t₁, v₁)` the job is assumed to have progressed at the
///    constant rate `r = (v₁ − v₀) / Δt`, with `Δt = t₁ − t₀`.
/// 2. That interval enters the average with weight `1 − e^(−Δt/τ)`:
///    `rate ← rate · e^(−Δt/τ) + r · (1 − e^(−Δt/τ))`. An interval of 10 s counts a hundred times as
///    much as one of 0.1 s, so a burst of many quick reports weighs what the work it carries weighs
///    (`≈ Δv/τ`), and sparse reports are not drowned by frequent ones. `τ` (``timeConstant``) is 20 s
///    by default: information older than about a minute has little say.
/// 3. Reports with the same timestamp are merged into one interval.
/// 4. The average starts at zero, so it is divided by the accumulated weight `1 − e^(−T/τ)` (`T` the
///    observed time) to remove that start-up bias: the first interval alone gives its own rate.
/// 5. An interval longer than ``stallThreshold`` is a pause, not a slow stretch: the job's lifecycle
///    shows it as stalled, and it leaves the rate as it was before the stall (the value reported
///    after it becomes the new base), so the ETA is right again as soon as the job resumes.
/// 6. A value lower than the previous one (a job that reported a larger total, or started over) is
///    taken as the new base without changing the rate.
///
/// The ETA is `(total − value) / rate`, counted down from the last report by the time since it was
/// made (never below zero). There is no ETA until the estimator has seen ``minimumObservation``
/// seconds of progress, and none while the rate is zero.
public struct RateEstimator: Sendable, Equatable, Codable {
    /// The averaging time constant τ, in seconds.
    public var timeConstant: Seconds
    /// Intervals longer than this are taken as pauses and leave the rate unchanged.
    public var stallThreshold: Seconds
    /// How much time must be observed before a rate is reported.
    public var minimumObservation: Seconds

    /// A value observed at a time.
    struct Sample: Sendable, Equatable, Codable {
        var time: Seconds
        var value: Double
    }

    private var base: Sample?
    private var latest: Sample?
    private var smoothedRate: Double = 0
    private var weight: Double = 0
    private var observed: Seconds = 0

    /// An estimator with no observation yet.
    public init(timeConstant: Seconds = 20, stallThreshold: Seconds = 30, minimumObservation: Seconds = 1) {
        precondition(timeConstant > 0 && stallThreshold > 0 && minimumObservation >= 0)
        self.timeConstant = timeConstant
        self.stallThreshold = stallThreshold
        self.minimumObservation = minimumObservation
    }

    /// Records that the job had done `value` units of work at time `time`.
    public mutating func record(value: Double, at time: Seconds) {
        latest = Sample(time: time, value: value)
        guard let start = base else {
            base = Sample(time: time, value: value)
            return
        }
        let elapsed = time - start.time
        let progressed = value - start.value
        if progressed < 0 {
            base = Sample(time: time, value: value)
            return
        }
        guard elapsed > 0 else { return }  // same instant: merged into the next interval
        defer { base = Sample(time: time, value: value) }
        guard elapsed <= stallThreshold else { return }
        let intervalRate = progressed / elapsed
        let decay = Double.exp(-elapsed / timeConstant)
        smoothedRate = smoothedRate * decay + intervalRate * (1 - decay)
        weight = weight * decay + (1 - decay)
        observed += elapsed
    }

    /// The job resumes after a pause at `value`: the paused time is not counted, the rate stands.
    public mutating func resume(value: Double, at time: Seconds) {
        base = Sample(time: time, value: value)
        latest = Sample(time: time, value: value)
    }

    /// The estimated rate in units of work per second, or `nil` while too little has been seen.
    public var rate: Double? {
        guard observed >= minimumObservation, weight > 0 else { return nil }
        return smoothedRate / weight
    }

    /// The estimated time left until `total` is reached, as seen at `now` (never below zero).
    public func timeRemaining(total: Double, at now: Seconds) -> Seconds? {
        timeLeft(total: total, at: now).map { max(0, $0) }
    }

    /// The time left until `total` at the estimated rate, counted down from the last report by
    /// the time since it: below zero once that time is used up with no new report (by how much
    /// the job is past its estimate); `nil` while no rate is known. Made of differences of times
    /// only, so a job moved in time (a restart) reads the same.
    public func timeLeft(total: Double, at now: Seconds) -> Seconds? {
        guard let rate, rate > 0, let latest else { return nil }
        return max(0, total - latest.value) / rate - max(0, now - latest.time)
    }
}

extension RateEstimator {
    /// The estimator with every time it holds moved by `delta` seconds.
    func shifted(by delta: Seconds) -> RateEstimator {
        var moved = self
        moved.base?.time += delta
        moved.latest?.time += delta
        return moved
    }
}
