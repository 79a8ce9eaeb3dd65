/// Where a job is in its life, as seen at one moment.
public enum JobPhase: Sendable, Equatable {
    /// Started less than the grace delay ago: not shown yet, so quick jobs never flash.
    case pending
    /// Running and reporting.
    case active
    /// Running, but silent for `silence` seconds (at least the policy's `stallAfter`).
    case stalled(silence: Seconds)
    /// Paused by a person (a button): shown, never counted as stalled or lost.
    case paused
    /// Ended; its signal is shown for the policy's `linger`.
    case finished(Outcome)
    /// Ended and no longer shown (after the linger, or before the grace delay was over).
    case hidden
    /// Silent for longer than the policy's `loseAfter`: marked lost and cleared.
    case lost

    /// Whether an indicator shows anything for the job in this phase.
    public var isVisible: Bool {
        switch self {
        case .active, .stalled, .paused, .finished: true
        case .pending, .hidden, .lost: false
        }
    }

    /// Whether the job is stalled (silent too long).
    public var isStalled: Bool {
        if case .stalled = self { return true }
        return false
    }

    /// Whether the job is shown but not progressing (stalled or paused): nothing may move.
    public var isStill: Bool { isStalled || self == .paused }

    /// A short name for status lines and logs.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .active: "active"
        case .stalled: "stalled"
        case .paused: "paused"
        case .finished(let outcome): outcome.rawValue
        case .hidden: "hidden"
        case .lost: "lost"
        }
    }
}
