import HeadwayDevices

/// Plain LEDs on lines of a virtual GPIO chip with their real ``/HeadwayDevices/GPIOLEDs`` driver,
/// for tests that drive them directly.
public final class SimulatedGPIOLEDs: Sendable {
    /// The twin, read back.
    public let device: RigDevice
    /// The real driver, on the virtual chip.
    public let driver: GPIOLEDs

    /// LEDs called `name` on lines `offsets` of `chip`.
    public init(name: String, chip: VirtualGPIOChip, offsets: [UInt32], activeLow: Bool = false) throws(DeviceError) {
        device = .lamps(name, lines: offsets, activeLow: activeLow, on: chip)
        driver = try GPIOLEDs(chip: chip, offsets: offsets, activeLow: activeLow)
    }

    /// Whether each LED is lit now.
    public var lit: [Bool] {
        guard case .lamps(let lit) = device.view else { return [] }
        return lit()
    }
}
