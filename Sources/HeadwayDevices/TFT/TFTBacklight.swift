/// A TFT module's backlight: an LED string the module switches from a GPIO line (on or off), or
/// dims from a PWM channel (the share of each period it is lit), or that is always on.
public final class TFTBacklight: Sendable {
    /// How it is driven.
    public enum Control: Sendable {
        /// Always on (not wired to the Pi).
        case none
        /// Switched by a GPIO line (logical true lights it).
        case line(any GPIOOutputLines)
        /// Dimmed by a PWM channel at `frequencyHz`.
        case pwm(any PWMChannel, frequencyHz: UInt32)
    }

    /// How it is driven.
    public let control: Control

    /// A backlight driven as `control` says.
    public init(_ control: Control) { self.control = control }

    /// The backlight on `line` of `chip`, requested dark; a line that cannot be had is refused
    /// naming it.
    public convenience init(chip: any GPIOChip, line: UInt32, activeLow: Bool = false) throws(DeviceError) {
        self.init(.line(try ResetLine.request(chip, line, role: "backlight", activeLow: activeLow)))
    }

    /// The period of a PWM backlight: 1 kHz, as Waveshare dims its LCD HATs' backlight
    /// (frogCaller/1.3inch@7935fb2:config.py `bl_freq=1000`); Pimoroni uses 500 Hz. Both are far
    /// above what an eye sees flicker at.
    public static let pwmFrequencyHz: UInt32 = 1000

    /// Whether it can be dimmed (a PWM channel), not only switched.
    public var dims: Bool {
        if case .pwm = control { return true }
        return false
    }

    /// Lights it at `brightness` (0…1 of its light; a switched backlight is on above 0), or turns
    /// it off.
    public func set(on: Bool, brightness: Double) throws(DeviceError) {
        let level = on ? min(1, max(0, brightness.isNaN ? 0 : brightness)) : 0
        switch control {
        case .none: return
        case .line(let line): try line.set([level > 0])
        case .pwm(let channel, let frequency):
            let period = 1_000_000_000 / UInt64(max(1, frequency))
            let duty = UInt64((Double(period) * level).rounded())
            try channel.set(period: period, duty: duty, enabled: level > 0)
        }
    }
}
