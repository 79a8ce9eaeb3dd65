import HeadwayCore

/// A module's RES# pin on a GPIO line: held low to reset the controller (RAM and registers back
/// to their reset values), then released. Modules that bring RES# out must have it driven: left
/// floating it may hold the controller in reset (Adafruit's 2.23" bonnet wires it to GPIO 4).
public struct ResetLine: Sendable {
    /// The line, requested as an active-low output: logical true holds the controller in reset.
    public let line: any GPIOOutputLines
    /// Waits out the reset timing.
    public let delay: any Delay

    /// The RES# `line` (active low), timed with `delay`.
    public init(line: any GPIOOutputLines, delay: any Delay) {
        self.line = line
        self.delay = delay
    }

    /// Requests `offset` on `chip`, released (high); a line that cannot be had is refused naming it.
    public init(chip: any GPIOChip, offset: UInt32, delay: any Delay) throws(DeviceError) {
        line = try Self.request(chip, offset, role: "reset", activeLow: true)
        self.delay = delay
    }

    /// Pulses RES# low for the timing's `low`, then waits its `ready`.
    func pulse(_ timing: ResetTiming) throws(DeviceError) {
        try line.set([true])
        delay.wait(timing.low)
        try line.set([false])
        delay.wait(timing.ready)
    }

    /// One output line for a display's `role` ("D/C", "reset"), driven inactive; its errors say
    /// which line it was.
    static func request(_ chip: any GPIOChip, _ offset: UInt32, role: String, activeLow: Bool) throws(DeviceError) -> any GPIOOutputLines {
        do throws(DeviceError) {
            return try chip.requestOutputs([offset], activeLow: activeLow, initial: [false])
        } catch {
            throw DeviceError(error.kind, "\(role) line (GPIO \(offset) of \(chip.label)): \(error.message)", errno: error.errno)
        }
    }
}
