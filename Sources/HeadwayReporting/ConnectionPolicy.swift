import HeadwayCore

/// How a reporter reaches its service or broker again after a failure: the wait before the next
/// attempt starts at ``firstRetry`` and doubles with each failure in a row up to ``longestRetry``;
/// an answer starts it over. A one-shot reporter (a hook) makes one attempt and never another.
package struct ConnectionPolicy: Sendable, Equatable {
    /// The wait after the first failure.
    package var firstRetry: Seconds
    /// The longest wait between two attempts.
    package var longestRetry: Seconds
    /// Whether a failed or lost connection is made again at all.
    package var retries: Bool

    /// The local service: a restart takes a moment, so the first attempts come quickly.
    package static let socket = ConnectionPolicy(firstRetry: 0.1, longestRetry: 5, retries: true)
    /// A broker across the network, which many reporters share: they back off further, so that a
    /// broker that comes back is not met by every runner at once.
    package static let broker = ConnectionPolicy(firstRetry: 0.5, longestRetry: 30, retries: true)
    /// A hook's one attempt within its budget: it gives up instead of trying again.
    package static let oneShot = ConnectionPolicy(firstRetry: .infinity, longestRetry: .infinity, retries: false)
}

/// When the next attempt may be made, by a ``ConnectionPolicy``.
package struct Backoff: Sendable {
    package let policy: ConnectionPolicy
    /// The earliest time of the next attempt.
    package private(set) var retryAt: Seconds = -.infinity
    private var delay: Seconds

    package init(_ policy: ConnectionPolicy) {
        self.policy = policy
        delay = policy.firstRetry
    }

    /// Whether an attempt may be made at `now`.
    package func allows(at now: Seconds) -> Bool { now >= retryAt }

    /// An attempt failed (or the connection broke) at `now`: the next one waits.
    package mutating func failed(at now: Seconds) {
        guard policy.retries else {
            retryAt = .infinity
            return
        }
        retryAt = now + delay
        delay = min(delay * 2, policy.longestRetry)
    }

    /// The connection closed without a fault (the service closed one that had nothing to do):
    /// the next attempt may come at once.
    package mutating func closedQuietly(at now: Seconds) {
        retryAt = policy.retries ? now : .infinity
    }

    /// The other end answered: the next failure waits the shortest time again.
    package mutating func answered() { delay = policy.firstRetry }
}
