import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// An OLED module's twin with its real ``/HeadwayDevices/OLEDDisplay`` driver, for tests and
/// benchmarks that drive one display directly: what the terminal shows is what the controller
/// model's glass shows.
public final class SimulatedOLED: Sendable {
    /// The twin, read back.
    public let device: RigDevice
    /// The controller model that decodes what it is sent.
    public let chip: VirtualOLED
    /// The real driver, talking to the model.
    public let driver: OLEDDisplay
    /// The buses it sits on.
    public let buses: SimulatedBuses

    private init(device: RigDevice, buses: SimulatedBuses, driver: OLEDDisplay) {
        self.device = device
        self.buses = buses
        self.driver = driver
        guard case .panel(let panel) = device.view, let chip = panel as? VirtualOLED else { preconditionFailure("an OLED twin is a VirtualOLED") }
        self.chip = chip
    }

    /// The module at its configured address on `bus`, driven on the bus's (simulated) clock.
    public convenience init(name: String, configuration: OLEDConfiguration, bus: VirtualI2CBus, resynchronisation: OLEDDisplay.Resynchronisation = .standard) {
        let buses = SimulatedBuses(clock: bus.clock, adopting: bus)
        let module = configuration.module
        let twin = RigDevice.oled(name, controller: configuration.controller, width: module.width, height: module.height, address: configuration.address, on: bus)
        // An I2C link with no reset line opens nothing that can fail.
        let driver = try! OLEDDisplay(on: buses, link: .i2c(bus: bus.name, chip: "auto", reset: nil), configuration: configuration, resynchronisation: resynchronisation)
        self.init(device: twin, buses: buses, driver: driver)
    }

    /// The module on 4-wire SPI: its chip select on `bus`, D/C# and (if wired) RES# on `lines`,
    /// clocked at `speedHz` (default: the controller's fastest). The driver requests the lines as
    /// on Linux, so a line already taken is refused the same way.
    public convenience init(
        name: String, configuration: OLEDConfiguration, bus: VirtualSPIBus, lines: VirtualGPIOChip, dataCommand: UInt32, reset: UInt32?,
        speedHz: UInt32? = nil, clock: any ProgressClock, resynchronisation: OLEDDisplay.Resynchronisation = .standard
    ) throws(DeviceError) {
        let buses = SimulatedBuses(clock: clock, adopting: bus, lines)
        let module = configuration.module
        let twin = RigDevice.oled(
            name, controller: configuration.controller, width: module.width, height: module.height, on: bus, lines: lines, dataCommand: dataCommand, reset: reset)
        let link = DisplayLink.spi(bus: bus.name, chip: lines.label, dataCommand: dataCommand, reset: reset, speedHz: speedHz ?? configuration.variant.maxSPIClockHz)
        self.init(device: twin, buses: buses, driver: try OLEDDisplay(on: buses, link: link, configuration: configuration, resynchronisation: resynchronisation))
    }

    /// How the module is connected.
    public enum Link: Sendable {
        /// On a virtual I2C bus.
        case i2c(VirtualI2CBus)
        /// On a virtual SPI bus, its D/C and reset lines on a virtual GPIO chip.
        case spi(VirtualSPIBus, lines: VirtualGPIOChip)
    }

    /// The display's name.
    public var name: String { device.name }
    /// How it is connected.
    public var link: Link {
        if let bus = buses.i2cBuses.first { return .i2c(bus) }
        return .spi(buses.spiBuses[0], lines: buses.gpioChips[0])
    }
    /// The module's I2C bus, when it is on one.
    public var i2cBus: VirtualI2CBus? { buses.i2cBuses.first }
    /// What the module's glass shows, as on/off pixels (on a greyscale module: lit from level 8).
    public var picture: Bitmap { chip.picture }
    /// What the module's glass shows, with its grey levels (on/off modules: 0 or 15).
    public var glass: Greymap { chip.glass }
    /// Whether the controller has 16 grey levels.
    public var isGreyscale: Bool { chip.isGreyscale }
}
