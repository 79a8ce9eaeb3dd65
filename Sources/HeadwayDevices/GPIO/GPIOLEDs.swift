/// Plain LEDs on GPIO output lines (a status LED, an N-line bar graph), all set in one call.
public final class GPIOLEDs: LineLevelsDevice {
    private let lines: any GPIOOutputLines

    /// Requests `offsets` on `chip` as outputs, all off; `activeLow` for LEDs wired to 3.3 V.
    public init(chip: any GPIOChip, offsets: [UInt32], activeLow: Bool = false) throws(DeviceError) {
        guard !offsets.isEmpty else { throw DeviceError(.unsupported, "GPIO LEDs need at least one line") }
        lines = try chip.requestOutputs(offsets, activeLow: activeLow, initial: Array(repeating: false, count: offsets.count))
    }

    /// How many LEDs.
    public var count: Int { lines.offsets.count }

    /// Lights the LEDs whose value is true, all in one call.
    public func show(_ values: [Bool]) throws(DeviceError) {
        guard values.count == count else { throw DeviceError(.unsupported, "\(count) GPIO LEDs were given \(values.count) values") }
        try lines.set(values)
    }
}
