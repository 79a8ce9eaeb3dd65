import HeadwayCore
import HeadwayDevices
import HeadwayRender

/// An LED chain's twin with its real driver, for tests and benchmarks that drive one chain
/// directly: what the virtual LEDs decoded is what the driver sent.
public final class SimulatedLEDChain: Sendable {
    /// The twin, read back.
    public let device: RigDevice
    /// How progress runs over it.
    public let layout: LEDLayout
    /// The real driver, talking to the twin.
    public let driver: any LEDChainDevice

    private init(device: RigDevice, layout: LEDLayout, driver: any LEDChainDevice) {
        self.device = device
        self.layout = layout
        self.driver = driver
    }

    /// The chain's name.
    public var name: String { device.name }
    /// How many LEDs.
    public var count: Int { driver.count }
    /// What the virtual LEDs are driven at now.
    public var levels: [RGB8] {
        guard case .leds(let levels, _) = device.view else { return [] }
        return levels()
    }
    /// The light each LED gives.
    public var light: [LinearColour] { device.light }
    /// Timing or protocol violations the virtual LEDs found.
    public var violations: [String] { device.problems }

    /// WS2812B LEDs on `bus`'s MOSI, driven as `configuration` says.
    public static func ws2812(name: String, layout: LEDLayout, bus: VirtualSPIBus, configuration: WS2812Strip.Configuration) throws(DeviceError) -> SimulatedLEDChain {
        let twin = RigDevice.ws2812(name, count: configuration.count, order: configuration.order, layout: layout, on: bus)
        return SimulatedLEDChain(device: twin, layout: layout, driver: try WS2812Strip(bus: bus, configuration: configuration))
    }

    /// WS2812B LEDs on `bus`'s MOSI, driven with `encoding` at the encoding's own speed.
    public static func ws2812(name: String, count: Int, layout: LEDLayout, bus: VirtualSPIBus, encoding: WS2812Encoding = .threeBit, order: ColourOrder = .grb) throws(DeviceError) -> SimulatedLEDChain {
        try ws2812(name: name, layout: layout, bus: bus, configuration: .init(count: count, order: order, encoding: encoding))
    }

    /// APA102 LEDs on `bus` (MOSI and SCLK).
    public static func apa102(name: String, count: Int, layout: LEDLayout, bus: VirtualSPIBus) throws(DeviceError) -> SimulatedLEDChain {
        let twin = RigDevice.apa102(name, count: count, layout: layout, on: bus)
        return SimulatedLEDChain(device: twin, layout: layout, driver: try APA102Strip(bus: bus, count: count))
    }

    /// WS2812s behind the Raspberry Pi 5's kernel driver (`/dev/leds0`).
    public static func rp1(name: String, count: Int, layout: LEDLayout, rgbw: Bool = false, clock: any ProgressClock = ManualClock()) throws(DeviceError) -> SimulatedLEDChain {
        let buses = SimulatedBuses(clock: clock)
        let twin = RigDevice.leds0(name, count: count, layout: layout, path: "/dev/leds0", on: buses)
        return SimulatedLEDChain(device: twin, layout: layout, driver: try RP1LEDStrip(file: try buses.ledDevice("/dev/leds0"), count: count, rgbw: rgbw))
    }

    /// APA102 LEDs bit-banged on two lines of `chip` (Blinkt!: data 23, clock 24).
    public static func apa102BitBanged(name: String, count: Int, chip: VirtualGPIOChip, data: UInt32, clock: UInt32) throws(DeviceError) -> SimulatedLEDChain {
        let twin = RigDevice.apa102(name, count: count, on: chip, data: data, clock: clock)
        return SimulatedLEDChain(device: twin, layout: .strip, driver: try APA102BitBang(chip: chip, data: data, clock: clock, count: count))
    }
}
