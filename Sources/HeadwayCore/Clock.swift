import Synchronization

/// A point on a clock, in seconds since the clock's own origin.
///
/// Headway measures everything in seconds as `Double` so that easing, estimation and animation
/// can do arithmetic on time without unit conversions. Only differences between two moments of the
/// same clock mean anything.
public typealias Seconds = Double

/// Where all of Headway's time comes from.
///
/// Nothing in the core or the styles reads the system time: every job, estimator and frame asks an
/// injected clock, so tests drive time by hand with ``ManualClock`` and get the same result every run.
public protocol ProgressClock: Sendable {
    /// The current time in seconds since this clock's origin.
    var now: Seconds { get }
}

/// Monotonic wall time, for production: seconds since the clock was created, never going backwards
/// (it is based on `ContinuousClock`, so a change of the system date does not disturb it).
public struct MonotonicClock: ProgressClock {
    private let origin: ContinuousClock.Instant

    public init() { origin = ContinuousClock.now }

    public var now: Seconds {
        let elapsed = origin.duration(to: ContinuousClock.now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}

/// A clock that moves only when told to, for deterministic tests and scripted simulations.
public final class ManualClock: ProgressClock {
    private let time: Mutex<Seconds>

    public init(startingAt start: Seconds = 0) { time = Mutex(start) }

    public var now: Seconds { time.withLock { $0 } }

    /// Moves the clock forward by `seconds` (which must not be negative: a clock never runs backwards).
    public func advance(by seconds: Seconds) {
        precondition(seconds >= 0, "a clock cannot run backwards")
        time.withLock { $0 += seconds }
    }

    /// Sets the clock to `moment`, which must not be earlier than the current time.
    public func set(to moment: Seconds) {
        time.withLock { current in
            precondition(moment >= current, "a clock cannot run backwards")
            current = moment
        }
    }
}

/// A clock that runs `factor` times faster than another, for `--speed`.
public struct ScaledClock: ProgressClock {
    public let base: any ProgressClock
    public let factor: Double

    public init(_ base: any ProgressClock, factor: Double) {
        self.base = base
        self.factor = factor
    }

    public var now: Seconds { base.now * factor }
}
