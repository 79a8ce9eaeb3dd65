import HeadwayDevices

/// Plain LEDs on lines of a virtual GPIO chip (a bar graph or a status LED), driven by the real
/// ``/HeadwayDevices/GPIOLEDs`` driver; the terminal shows the lines' levels.
public final class SimulatedGPIOLEDs: Sendable {
    /// The LEDs' name on screen and in snapshots.
    public let name: String
    /// The virtual chip the LEDs hang on.
    public let chip: VirtualGPIOChip
    /// Their lines, in the order of the driver's values.
    public let offsets: [UInt32]
    /// Whether they are wired to 3.3 V (lit by a low line).
    public let activeLow: Bool
    /// The real driver, on the virtual chip.
    public let driver: GPIOLEDs

    /// LEDs called `name` on lines `offsets` of `chip`.
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
