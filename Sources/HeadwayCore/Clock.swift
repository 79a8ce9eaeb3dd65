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

/// The system's monotonic clock, for production: seconds since boot, never going backwards and
/// untouched by changes of the system date.
///
/// It is the one real clock of the whole stack. On Linux it reads `CLOCK_MONOTONIC` (through
/// `SuspendingClock`), the clock the kernel stamps GPIO edge events with, so a button's edges and
/// "now" can be compared directly; the client, the service loop and the drivers all use it.
public struct MonotonicClock: ProgressClock {
    /// The system's monotonic clock.
    public init() {}

    public var now: Seconds {
        // SuspendingClock.Instant is a frozen struct holding one Duration since the clock's origin
        // (boot, for CLOCK_MONOTONIC); the standard library offers no other way to read it.
        let sinceBoot = unsafeBitCast(SuspendingClock.now, to: Duration.self)
        return Double(sinceBoot.components.seconds) + Double(sinceBoot.components.attoseconds) * 1e-18
    }
}

/// A clock that moves only when told to, for deterministic tests and scripted simulations.
public final class ManualClock: ProgressClock {
    private let time: Mutex<Seconds>

    /// A clock that reads `start` until it is moved.
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

/// A clock that starts at 0 when made and runs `factor` times faster than another: a simulation
/// played at `--speed`.
public struct ScaledClock: ProgressClock {
    /// The clock this one runs faster than.
    public let base: any ProgressClock
    /// How many seconds pass here for each of ``base``'s.
    public let factor: Double
    private let origin: Seconds

    /// A clock at 0 now, running `factor` times as fast as `base`.
    public init(_ base: any ProgressClock, factor: Double) {
        self.base = base
        self.factor = factor
        origin = base.now
    }

    public var now: Seconds { (base.now - origin) * factor }
}

extension Duration {
    /// The duration in seconds, as the clocks, the protocol and the snapshots count time.
    package var seconds: Seconds {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
