import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// An OLED module in the simulator: the real ``/HeadwayDevices/OLEDDisplay`` driver talking over a virtual I2C bus,
/// or a virtual SPI bus with its D/C and reset lines on a virtual GPIO chip, to a virtual controller
/// written from its datasheet. What the terminal shows is what that controller's glass shows.
public final class SimulatedOLED: Sendable {
    /// How the module is connected.
    public enum Link: Sendable {
        /// On a virtual I2C bus.
        case i2c(VirtualI2CBus)
        /// On a virtual SPI bus, its D/C and reset lines on a virtual GPIO chip.
        case spi(VirtualSPIBus, lines: VirtualGPIOChip)
    }

    /// The display's name on screen and in snapshots.
    public let name: String
    /// The controller model that decodes what it is sent.
    public let chip: VirtualOLED
    /// The real driver, talking to the model.
    public let driver: OLEDDisplay
    /// How it is connected.
    public let link: Link

    /// The module at its configured address on `bus`, driven on the bus's (simulated) clock, with
    /// its RES# line when the module brings it out.
    public init(name: String, configuration: OLEDConfiguration, bus: VirtualI2CBus, reset: OLEDResetLine? = nil, resynchronisation: OLEDDisplay.Resynchronisation = .standard) {
        self.name = name
        link = .i2c(bus)
        chip = VirtualOLED(controller: configuration.controller, width: configuration.module.width, height: configuration.module.height, address: configuration.address)
        let interface = I2COLEDInterface(bus: bus, address: configuration.address, reset: reset)
        driver = OLEDDisplay(interface: interface, configuration: configuration, clock: bus.clock, resynchronisation: resynchronisation)
        bus.attach(chip)
    }

    /// The module on 4-wire SPI: its chip select on `bus`, D/C# and (if wired) RES# on `lines`,
    /// clocked at `speedHz` (default: the controller's fastest). The driver requests the lines as
    /// on Linux, so a line already taken is refused the same way.
    public init(
        name: String, configuration: OLEDConfiguration, bus: VirtualSPIBus, lines: VirtualGPIOChip, dataCommand: UInt32, reset: UInt32?,
        speedHz: UInt32? = nil, clock: any ProgressClock, resynchronisation: OLEDDisplay.Resynchronisation = .standard
    ) throws(DeviceError) {
        self.name = name
        link = .spi(bus, lines: lines)
        chip = VirtualOLED(controller: configuration.controller, width: configuration.module.width, height: configuration.module.height)
        chip.wireSPI(dc: dataCommand, reset: reset, on: lines, clock: clock)
        let interface = try SPIOLEDInterface(
            bus: bus, speedHz: speedHz ?? configuration.variant.maxSPIClockHz, chip: lines, dataCommand: dataCommand, reset: reset,
            delay: SimulatedDelay(clock: clock))
        driver = OLEDDisplay(interface: interface, configuration: configuration, clock: clock, resynchronisation: resynchronisation)
        bus.attach(chip)
    }

    /// The module's I2C bus, when it is on one.
    public var i2cBus: VirtualI2CBus? {
        if case .i2c(let bus) = link { return bus }
        return nil
    }

    /// What the module's glass shows, as on/off pixels (on a greyscale module: lit from level 8).
    public var picture: Bitmap { chip.picture }
    /// What the module's glass shows, with its grey levels (on/off modules: 0 or 15).
    public var glass: Greymap { chip.glass }
    /// Whether the controller has 16 grey levels.
    public var isGreyscale: Bool { chip.isGreyscale }
}
