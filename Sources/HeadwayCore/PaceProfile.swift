/// How one run of a job went: the running time at which it had done each twentieth of its work,
/// the last point being its end. A job that runs again (the same build on every push, the same
/// backup every night) is estimated from its last successful run: the time that run took from
/// where this one is to its end, scaled by how this one's pace compares so far.
///
/// Why: a build's steps are uneven (small files first, the large ones and the link at the end) and
/// a backup ends with work its progress does not count, so a rate read from the run so far cannot
/// know the rest; the run before it does. Measured on the corpus of real runs
/// (Tests/EstimateCorpus, docs/performance.md): the builds' median error falls from about 45 % of
/// the time left to about 10 % from their second run on.
public struct PaceProfile: Sendable, Equatable, Codable {
    /// How many points a profile has: one per twentieth of the work.
    public static let points = 20
    /// The pace of a new run is compared with the last within these bounds: a run more than three
    /// times slower or faster than the last is not the same job, and its rate speaks instead.
    static let scaleBounds = (1.0 / 3)...3.0

    /// Running times at which each twentieth was reached, in order; complete with ``points``.
    public private(set) var times: [Seconds]

    /// A profile with no points yet, filled as the run goes on.
    public init() { times = [] }

    /// A complete profile read back (the service's state): nil unless it has ``points`` finite,
    /// non-decreasing times ending after zero.
    public init?(times: [Seconds]) {
        guard times.count == Self.points, times.allSatisfy({ $0.isFinite && $0 >= 0 }),
            zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }), let end = times.last, end > 0
        else { return nil }
        self.times = times
    }

    /// Whether the run ended and its profile can estimate the next one.
    public var isComplete: Bool { times.count == Self.points }

    /// The run had done `fraction` of its work after `running` seconds.
    mutating func note(fraction: Double, at running: Seconds) {
        while times.count < Self.points - 1, fraction >= Double(times.count + 1) / Double(Self.points) {
            times.append(running)
        }
    }

    /// The run ended after `running` seconds: the last point is its end, whatever its reports said
    /// (a backup that reads 100 % while its upload finishes).
    mutating func end(at running: Seconds) {
        while times.count < Self.points { times.append(running) }
        times[Self.points - 1] = max(running, times[Self.points - 2])
    }

    /// The running time at which the run had done `fraction` (between the points around it).
    func time(at fraction: Double) -> Seconds {
        let position = min(max(fraction, 0), 1) * Double(Self.points)
        let index = Int(position.rounded(.down))
        guard index < Self.points else { return times[Self.points - 1] }
        let before = index == 0 ? 0 : times[index - 1]
        return before + (times[index] - before) * (position - Double(index))
    }

    /// The seconds a run that had done `fraction` after `running` seconds has left, paced as this
    /// one was; nil for an incomplete profile, for a run done, or for one whose pace is not this
    /// one's (more than three times faster or slower).
    public func timeLeft(from fraction: Double, running: Seconds) -> Seconds? {
        guard isComplete, fraction < 1 else { return nil }
        let then = time(at: fraction)
        // Until a second of it is seen, the run is taken to go at the last one's pace.
        let scale = then >= 1 ? running / then : 1
        guard Self.scaleBounds.contains(scale) else { return nil }
        return (times[Self.points - 1] - then) * scale
    }
}
