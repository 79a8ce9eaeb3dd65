/// Where a job is in its life, as seen at one moment.
public enum JobPhase: Sendable, Equatable {
    /// Started less than the grace delay ago: not shown yet, so quick jobs never flash.
    case pending
    /// Waiting at its source to start (a CI run in the queue): shown still, not working yet.
    case queued
    /// Running and reporting.
    case active
    /// Running, but silent for `silence` seconds (at least the policy's `stallAfter`).
    case stalled(silence: Seconds)
    /// Paused by a person (a button): shown, never counted as stalled or lost.
    case paused
    /// Its reporter has lost sight of it for `silence` seconds (a CI server that cannot be
    /// reached): whether it still runs is not known, which is neither stalled nor finished.
    case stale(silence: Seconds)
    /// Ended; its signal is shown for the policy's `linger`.
    case finished(Outcome)
    /// Ended and no longer shown (after the linger, or before the grace delay was over).
    case hidden
    /// Silent for longer than the policy's `loseAfter`: marked lost and cleared.
    case lost

    /// Whether an indicator shows anything for the job in this phase.
    public var isVisible: Bool {
        switch self {
        case .active, .queued, .stalled, .paused, .stale, .finished: true
        case .pending, .hidden, .lost: false
        }
    }

    /// Whether the job is stalled (silent too long).
    public var isStalled: Bool {
        if case .stalled = self { return true }
        return false
    }

    /// Whether the job is stale (its reporter lost sight of it).
    public var isStale: Bool {
        if case .stale = self { return true }
        return false
    }

    /// Whether the job is shown but not progressing (stalled, paused, queued or stale): nothing
    /// may move along the indicator.
    public var isStill: Bool { isStalled || isStale || self == .paused || self == .queued }

    /// A short name for status lines and logs.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .queued: "queued"
        case .active: "active"
        case .stalled: "stalled"
        case .paused: "paused"
        case .stale: "stale"
        case .finished(let outcome): outcome.rawValue
        case .hidden: "hidden"
        case .lost: "lost"
        }
    }
}
