/// The timings that decide when a job is shown, when it reads as stalled and when it is dropped.
///
/// The defaults follow the platform guidelines: quick jobs never flash (``grace``), a job whose
/// progress reports stop is shown as stalled rather than frozen (``stallAfter``) and is eventually
/// cleared (``loseAfter``), a job that reports no progress reads as running while it is alive
/// (``aliveWithoutReports``, or its ``Liveness``), and the end of a job is a brief signal
/// (``linger``), not a permanent state.
public struct LifecyclePolicy: Sendable, Equatable, Codable {
    /// How long a job must run before it is shown at all. Default 2 s.
    public var grace: Seconds
    /// How long without a report before a running job is shown as stalled. Default 30 s.
    public var stallAfter: Seconds
    /// How long a finished job's success or failure signal stays up. Default 3 s.
    public var linger: Seconds
    /// How long without a report before a job that reports progress is marked lost and cleared.
    /// Default 10 min.
    public var loseAfter: Seconds
    /// How long a job that reports no progress, and has no other way to say it is alive, reads as
    /// running after its last message. Default 6 h (GitHub's limit for a job).
    public var aliveWithoutReports: Seconds
    /// How long the shown value takes to ease to a newly reported one. Default 0.6 s.
    public var easing: Seconds

    /// The timings given; each default is the one documented on its property.
    public init(
        grace: Seconds = 2,
        stallAfter: Seconds = 30,
        linger: Seconds = 3,
        loseAfter: Seconds = 600,
        aliveWithoutReports: Seconds = 6 * 3600,
        easing: Seconds = 0.6
    ) {
        self.grace = grace
        self.stallAfter = stallAfter
        self.linger = linger
        self.loseAfter = loseAfter
        self.aliveWithoutReports = aliveWithoutReports
        self.easing = easing
    }

    /// Every timing at its default.
    public static let standard = LifecyclePolicy()
}
