import HeadwayCore
import HeadwayDevices
import HeadwaySystem

/// A driver's waits in the simulation: on a manual clock the wait moves the clock (so virtual chips
/// see a reset pulse as long as the driver meant it, at no cost in real time); on a running clock
/// the wait really sleeps.
public struct SimulatedDelay: Delay {
    /// The clock the delays move (or wait on).
    public let clock: any ProgressClock

    /// Delays on `clock`.
    public init(clock: any ProgressClock) { self.clock = clock }

    public func wait(_ seconds: Seconds) {
        guard seconds > 0 else { return }
        if let manual = clock as? ManualClock {
            manual.advance(by: seconds)
        } else {
            Threads.sleep(seconds)
        }
    }
}
