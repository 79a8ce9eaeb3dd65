import HeadwayCore
import HeadwayProtocol

/// A job the service holds, as ``HeadwayClient/jobs()`` lists it (and `headway status` prints it).
public struct ServiceJob: Sendable, Equatable {
    /// Where the job is in its life.
    public enum Phase: Sendable, Equatable {
        /// Begun less than the grace delay ago: not shown yet.
        case pending
        /// Waiting at its source to start.
        case queued
        /// Running and reporting.
        case active
        /// Running, but silent too long.
        case stalled
        /// Paused by a person.
        case paused
        /// Its reporter has lost sight of it.
        case stale
        /// Ended, and how.
        case finished(Outcome)
        /// Silent so long that it was given up.
        case lost
        /// A phase a newer service names and this client does not know.
        case other(String)

        /// The phase the service named `name`.
        init(_ name: String) {
            switch name {
            case "pending": self = .pending
            case "queued": self = .queued
            case "active": self = .active
            case "stalled": self = .stalled
            case "paused": self = .paused
            case "stale": self = .stale
            case "lost": self = .lost
            default: self = Outcome(rawValue: name).map(Phase.finished) ?? .other(name)
            }
        }
    }

    /// The job's id.
    public var id: String
    /// Its label, made safe to show.
    public var label: String?
    /// Where it is in its life.
    public var phase: Phase
    /// Work done and in all, for a job that knows.
    public var value: Double?
    /// Work in all.
    public var total: Double?
    /// The whole percentage shown (never 100 before a success).
    public var percent: Int?
    /// The time it has left, when known.
    public var timeRemaining: Duration?
    /// Whether ``timeRemaining`` and ``percent`` are estimates (from past runs) rather than reports.
    public var isEstimate: Bool
    /// How long past its expected end it runs, when it does.
    public var overdue: Duration?
    /// Whether the outputs show it now.
    public var isShown: Bool
    /// Why it failed, when the service knows (a systemd unit's Result).
    public var reason: String?
    /// What ``value`` and ``total`` count (bytes, seconds); nil for things.
    public var unit: ValueUnit?
    /// A countdown: ``value`` is the seconds left of ``total`` and there is no ``percent``; it reads
    /// in time ("3m57s left of 4m", `DurationText.countdown(left:of:)`).
    public var isCountdown: Bool

    init(_ status: JobStatus) {
        id = status.job
        label = status.label
        phase = Phase(status.phase)
        value = status.value
        total = status.total
        percent = status.percent
        timeRemaining = status.etaSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        isEstimate = status.estimate
        overdue = status.overdueSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        isShown = status.shown
        reason = status.reason
        unit = status.unit
        isCountdown = status.countdown
    }
}
