import HeadwayDevices

/// Plain LEDs on lines of a virtual GPIO chip (a bar graph or a status LED), driven by the real
/// ``/HeadwayDevices/GPIOLEDs`` driver; the terminal shows the lines' levels.
public final class SimulatedGPIOLEDs: Sendable {
    public let name: String
    public let chip: VirtualGPIOChip
    public let offsets: [UInt32]
    public let activeLow: Bool
    public let driver: GPIOLEDs

    public init(name: String, chip: VirtualGPIOChip, offsets: [UInt32], activeLow: Bool = false) throws(DeviceError) {
        self.name = name
        self.chip = chip
        self.offsets = offsets
        self.activeLow = activeLow
        driver = try GPIOLEDs(chip: chip, offsets: offsets, activeLow: activeLow)
    }

    /// Whether each LED is lit now.
    public var lit: [Bool] { chip.levels(offsets).map { $0 != activeLow } }
}
