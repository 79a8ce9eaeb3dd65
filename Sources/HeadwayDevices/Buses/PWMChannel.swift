/// One channel of a PWM controller, as a driver sees it: a period and a duty cycle (the time high
/// in each period), and the output on or off. Thin enough to have a Linux implementation (the
/// kernel's PWM sysfs interface, `/sys/class/pwm/pwmchipN/pwmM`) and a simulated one. A TFT's
/// backlight dims by it: its LED lights for the duty's share of each period.
public protocol PWMChannel: AnyObject, Sendable {
    /// A name for messages and captures: `pwmchip0/1` (chip, channel).
    var name: String { get }
    /// Sets the period and the duty, in nanoseconds (`duty` at most `period`), and enables or
    /// disables the output, as one change.
    func set(period: UInt64, duty: UInt64, enabled: Bool) throws(DeviceError)
}

extension BusName {
    /// The chip and channel a PWM channel's name gives: `pwmchip0/1`, `pwmchip0/pwm1` or
    /// `/sys/class/pwm/pwmchip0/pwm1`; nil when it names none.
    public static func pwm(_ name: String) -> (chip: String, channel: Int)? {
        let path = name.hasPrefix("/sys/class/pwm/") ? String(name.dropFirst("/sys/class/pwm/".count)) : name
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0].hasPrefix("pwmchip"), Int(parts[0].dropFirst(7)) != nil else { return nil }
        let channel = parts[1].hasPrefix("pwm") ? parts[1].dropFirst(3) : parts[1]
        guard let number = Int(channel), (0...63).contains(number) else { return nil }
        return (String(parts[0]), number)
    }

    /// `pwmchip0/1` for any of the forms ``pwm(_:)`` takes: the name in messages and captures.
    public static func pwmShort(_ name: String) -> String {
        pwm(name).map { "\($0.chip)/\($0.channel)" } ?? name
    }
}
