/// Estimates how fast a job progresses and when it will finish.
///
/// ## Algorithm
/// The rate is the progress made over a window of the job's recent *working* time, and the window
/// grows with the job: the last ``window`` seconds (20 by default) or the last three quarters of
/// the time observed, whichever is longer.
///
/// 1. Working time is the time between reports, less pauses: an interval longer than
///    ``stallThreshold`` is a pause, not a slow stretch (the job's lifecycle shows it as stalled),
///    and it is left out, the value reported after it becoming the new base; so is the time a job
///    was paused. The ETA is right again as soon as the job resumes.
/// 2. The rate is `(v₁ − v₀) / (w₁ − w₀)` between the latest report and the value at the window's
///    start (interpolated between the two reports around it), `w` the working time. It weighs
///    progress by time, never by the number of reports: a burst of many quick reports counts what
///    the work it carries counts.
/// 3. Why a window that grows: measured on the corpus of real runs (Tests/EstimateCorpus,
///    Scripts/bench-estimates), links, disks and builds change pace every few seconds, and the
///    average over a long stretch predicts the rest better than the last burst does (there, three
///    quarters of what was seen did a little better than half of it or all of it: docs/progress.md);
///    yet a job that changed its pace for good (a slow start) must be followed, and the last three
///    quarters forget the start.
/// 4. A value lower than the previous one (a job that reported a larger total, or started over)
///    becomes the new base without changing the rate: the history moves with it.
/// 5. The history is thinned to ``historyLimit`` samples (evenly over the time observed each time
///    it fills), so a job that reports a hundred times a second for hours costs the same.
///
/// The ETA is `(total − value) / rate`, counted down from the last report by the time since it was
/// made. There is no ETA until ``minimumObservation`` seconds (3) of progress were seen: a rate
/// read from less is a guess (on the corpus, a backup's first second reads its buffers filling,
/// four times faster than its upload), and none while the rate is zero.
public struct RateEstimator: Sendable, Equatable, Codable {
    /// The shortest window, in seconds of working time.
    public var window: Seconds
    /// Intervals longer than this are taken as pauses and left out.
    public var stallThreshold: Seconds
    /// How much time must be observed before a rate is reported.
    public var minimumObservation: Seconds
    /// The most samples kept.
    public static let historyLimit = 32

    /// A value observed at a time.
    struct Sample: Sendable, Equatable, Codable {
        var time: Seconds
        var value: Double
    }

    /// The last report, on the clock.
    private var latest: Sample?
    /// Values against working time, oldest first; the last is the latest report's.
    private var history: [Sample] = []
    private var observed: Seconds = 0

    /// An estimator with no observation yet.
    public init(window: Seconds = 20, stallThreshold: Seconds = 30, minimumObservation: Seconds = 3) {
        precondition(window > 0 && stallThreshold > 0 && minimumObservation >= 0)
        self.window = window
        self.stallThreshold = stallThreshold
        self.minimumObservation = minimumObservation
    }

    /// Records that the job had done `value` units of work at time `time`.
    public mutating func record(value: Double, at time: Seconds) {
        defer { latest = Sample(time: time, value: value) }
        guard let before = latest else {
            history = [Sample(time: observed, value: value)]
            return
        }
        let progressed = value - before.value
        if progressed < 0 {
            // A new base: the history moves with it, so the rate stands.
            moveHistory(by: progressed)
            return
        }
        let elapsed = time - before.time
        guard elapsed > 0 else {
            // Same instant: the latest sample takes the new value.
            if !history.isEmpty { history[history.count - 1].value = value }
            return
        }
        if elapsed > stallThreshold {
            // A pause: its time and what was done in it are left out.
            moveHistory(by: progressed)
            return
        }
        observed += elapsed
        keep(Sample(time: observed, value: value))
    }

    /// The job resumes after a pause at `value`: the paused time is not counted, the rate stands.
    public mutating func resume(value: Double, at time: Seconds) {
        if let before = latest { moveHistory(by: value - before.value) }
        latest = Sample(time: time, value: value)
    }

    /// When the last value was recorded, on the clock.
    var latestTime: Seconds? { latest?.time }

    /// The estimated rate in units of work per second, or `nil` while too little has been seen.
    public var rate: Double? {
        guard observed >= minimumObservation, observed > 0, let last = history.last, let first = history.first else { return nil }
        let start = max(first.time, last.time - max(window, observed * 3 / 4))
        guard last.time > start else { return nil }
        return (last.value - value(atWorkingTime: start)) / (last.time - start)
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

    /// The value at working time `time`, between the samples around it.
    private func value(atWorkingTime time: Seconds) -> Double {
        guard let after = history.firstIndex(where: { $0.time >= time }) else { return history.last?.value ?? 0 }
        guard after > 0 else { return history[after].value }
        let a = history[after - 1], b = history[after]
        return a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
    }

    /// Moves every value kept by `progressed`: what came before the latest report stays as far
    /// behind it as it was.
    private mutating func moveHistory(by progressed: Double) {
        for index in history.indices { history[index].value += progressed }
    }

    /// Appends a sample; a full history keeps samples at least a sixteenth of the time observed
    /// apart (the first and the latest always), so that the window's start, wherever it falls, has
    /// samples near it on both sides.
    private mutating func keep(_ sample: Sample) {
        history.append(sample)
        guard history.count > Self.historyLimit, let first = history.first else { return }
        let spacing = observed / Double(Self.historyLimit / 2)
        var kept = [first]
        for sample in history.dropFirst().dropLast() where sample.time - kept[kept.count - 1].time >= spacing { kept.append(sample) }
        history = kept + [sample]
    }
}

extension RateEstimator {
    private enum CodingKeys: String, CodingKey { case window, stallThreshold, minimumObservation, latest, history, observed }

    /// Reads an estimator a service wrote, also one of the older form (an exponential average):
    /// what it lacks starts afresh, so a job kept through an upgrade is taken back and its next
    /// reports make its rate again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        window = try container.decodeIfPresent(Seconds.self, forKey: .window) ?? 20
        stallThreshold = try container.decode(Seconds.self, forKey: .stallThreshold)
        minimumObservation = try container.decode(Seconds.self, forKey: .minimumObservation)
        latest = try container.decodeIfPresent(Sample.self, forKey: .latest)
        history = try container.decodeIfPresent([Sample].self, forKey: .history).map { Array($0.suffix(Self.historyLimit)) } ?? []
        let written = try container.decodeIfPresent(Seconds.self, forKey: .observed) ?? 0
        observed = history.isEmpty ? 0 : written
        if history.isEmpty, let latest { history = [Sample(time: observed, value: latest.value)] }
        guard window > 0, stallThreshold > 0, minimumObservation >= 0, observed.isFinite, observed >= 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an estimator out of its ranges"))
        }
    }

    /// The estimator with every time it holds moved by `delta` seconds (working time is the
    /// job's own and does not move).
    func shifted(by delta: Seconds) -> RateEstimator {
        var moved = self
        moved.latest?.time += delta
        return moved
    }
}
