import HeadwayCore
import HeadwayDevices
import Synchronization

/// A simulated PWM channel, as the kernel's sysfs interface takes settings: a period and a duty
/// cycle in nanoseconds and an enable. It refuses what the kernel refuses (a duty cycle longer
/// than the period, a zero period: EINVAL), lets watchers follow the share of each period the
/// output is high (a TFT's backlight), and captures every change as
/// `{"t":…,"pwm":"pwmchip0/1","period":1000000,"duty":250000,"enabled":1}`.
public final class VirtualPWMChannel: PWMChannel {
    public let name: String
    private let clock: any ProgressClock

    private struct State {
        var period: UInt64 = 0
        var duty: UInt64 = 0
        var enabled = false
        var watchers: [@Sendable (Double) -> Void] = []
        var capture: BusCapture?
    }

    private let state = Mutex(State())

    /// Channel `name` (`pwmchip0/1`), its changes stamped on `clock`.
    public init(name: String, clock: any ProgressClock) {
        self.name = BusName.pwmShort(name)
        self.clock = clock
    }

    public func set(period: UInt64, duty: UInt64, enabled: Bool) throws(DeviceError) {
        guard period > 0, duty <= period else {
            throw DeviceError(.unsupported, "PWM \(name): a duty cycle of \(duty) ns in a period of \(period) ns is refused (EINVAL)", errno: 22)
        }
        let now = clock.now
        let (watchers, share) = state.withLock { state in
            (state.period, state.duty, state.enabled) = (period, duty, enabled)
            state.capture?.record([
                ("t", BusCapture.time(now)), ("pwm", "\"\(name)\""), ("period", "\(period)"), ("duty", "\(duty)"), ("enabled", enabled ? "1" : "0"),
            ])
            return (state.watchers, Self.share(state))
        }
        for watcher in watchers { watcher(share) }
    }

    /// The share of each period the output is high, 0…1 (0 when disabled).
    public var dutyCycle: Double { state.withLock { Self.share($0) } }

    private static func share(_ state: State) -> Double {
        state.enabled && state.period > 0 ? Double(state.duty) / Double(state.period) : 0
    }

    /// Calls `changed` with the duty cycle after every change.
    public func watch(_ changed: @escaping @Sendable (Double) -> Void) { state.withLock { $0.watchers.append(changed) } }

    /// Records every change into `capture` (nil: stops).
    public func capture(to capture: BusCapture?) { state.withLock { $0.capture = capture } }
}
