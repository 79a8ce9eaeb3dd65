import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// An OLED module in the simulator: the real ``OLEDDisplay`` driver talking over a virtual I2C bus
/// to a virtual controller. What the terminal shows is what that controller's glass shows.
public final class SimulatedOLED: Sendable {
    public let name: String
    public let chip: VirtualOLED
    public let driver: OLEDDisplay
    public let bus: VirtualI2CBus

    /// The module on `bus`, driven on the bus's (simulated) clock.
    public init(name: String, configuration: OLEDConfiguration, bus: VirtualI2CBus, resynchronisation: OLEDDisplay.Resynchronisation = .standard) {
        self.name = name
        self.bus = bus
        chip = VirtualOLED(controller: configuration.controller, width: configuration.width, height: configuration.height, address: configuration.address)
        driver = OLEDDisplay(bus: bus, configuration: configuration, clock: bus.clock, resynchronisation: resynchronisation)
        bus.attach(chip)
    }

    /// What the module's glass shows now.
    public var picture: Bitmap { chip.picture }
}
