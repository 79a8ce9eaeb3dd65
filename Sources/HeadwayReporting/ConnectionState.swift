/// Whether a reporter (a `HeadwayClient`, `headway run`, headway-ci) reaches its service (or
/// broker) now.
///
/// Reports never wait for the service: whatever this says, a `Job`'s `update` returns at once.
/// What it changes is whether a call that waits for delivery — a `HeadwayClient`'s `begin` and
/// `flush()`, a `Job`'s `finish` — waits at all: only while the service answers.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
    /// No connection is open, and none has failed: the client connects when it has something to
    /// send (before the first report, or after the service closed a connection that followed no job).
    case notConnected
    /// The service answers.
    case connected
    /// The service is absent, stopped or too slow, or the connection was lost. Reports are not
    /// sent meanwhile; each job's latest state is kept and sent (its jobs begun again) as soon as
    /// a reconnection, tried with back-off, is answered. `reason` says what went wrong.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .notConnected: "not connected"
        case .connected: "connected"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }

    /// Whether a call that waits for delivery may wait (it never waits for a service known to
    /// be unavailable: an absent or slow service costs the caller its timeout once).
    package var allowsWaiting: Bool {
        if case .unavailable = self { return false }
        return true
    }
}
