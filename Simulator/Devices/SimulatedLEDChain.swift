import HeadwayCore
import HeadwayDevices
import HeadwayRender
import Synchronization

/// An LED chain in the simulator: a real driver on a virtual bus, and the virtual LEDs decoding what
/// arrives. The terminal shows what the virtual LEDs decoded.
public final class SimulatedLEDChain: Sendable {
    /// The chain's name on screen and in snapshots.
    public let name: String
    /// How progress runs over it.
    public let layout: LEDLayout
    /// The real driver, talking to the virtual chain.
    public let driver: any LEDChainDevice
    /// How it is wired, for status lines: "WS2812 on spi0.0 at 2.381 MHz".
    public let wiring: String
    private let decoded: @Sendable () -> [RGB8]
    private let problems: @Sendable () -> [String]

    init(name: String, layout: LEDLayout, driver: any LEDChainDevice, wiring: String, decoded: @escaping @Sendable () -> [RGB8], problems: @escaping @Sendable () -> [String]) {
        self.name = name
        self.layout = layout
        self.driver = driver
        self.wiring = wiring
        self.decoded = decoded
        self.problems = problems
    }

    /// How many LEDs.
    public var count: Int { driver.count }

    /// What the virtual LEDs are driven at now.
    public var levels: [RGB8] { decoded() }
    /// The light each LED gives.
    public var light: [LinearColour] { levels.map(ColourPipeline().light(for:)) }
    /// Timing or protocol violations the virtual LEDs found.
    public var violations: [String] { problems() }

    /// WS2812B LEDs on `bus`'s MOSI, driven with `encoding`.
    public static func ws2812(name: String, count: Int, layout: LEDLayout, bus: VirtualSPIBus, encoding: WS2812Encoding = .threeBit, order: ColourOrder = .grb) throws(DeviceError) -> SimulatedLEDChain {
        let chain = VirtualWS2812Chain(count: count, order: order)
        bus.attach(chain)
        let driver = try WS2812Strip(bus: bus, configuration: .init(count: count, order: order, encoding: encoding))
        let mhz = NumberText.compact((Double(driver.effectiveSpeedHz) / 1000).rounded() / 1000)
        return SimulatedLEDChain(
            name: name, layout: layout, driver: driver, wiring: "WS2812 on \(bus.name) at \(mhz) MHz",
            decoded: { chain.levels }, problems: { chain.violations })
    }

    /// APA102 LEDs on `bus` (MOSI and SCLK).
    public static func apa102(name: String, count: Int, layout: LEDLayout, bus: VirtualSPIBus) throws(DeviceError) -> SimulatedLEDChain {
        let chain = VirtualAPA102Chain(count: count)
        bus.attach(chain)
        let driver = try APA102Strip(bus: bus, count: count)
        return SimulatedLEDChain(
            name: name, layout: layout, driver: driver, wiring: "APA102 on \(bus.name)", decoded: { chain.levels }, problems: { chain.violations })
    }

    /// WS2812s behind the Raspberry Pi 5's kernel driver (`/dev/leds0`).
    public static func rp1(name: String, count: Int, layout: LEDLayout, rgbw: Bool = false) throws(DeviceError) -> SimulatedLEDChain {
        let file = VirtualLEDDeviceFile(count: count)
        let driver = try RP1LEDStrip(file: file, count: count, rgbw: rgbw)
        return SimulatedLEDChain(name: name, layout: layout, driver: driver, wiring: "WS2812 via \(file.path)", decoded: { file.levels }, problems: { [] })
    }

    /// APA102 LEDs bit-banged on two lines of `chip` (Blinkt!: data 23, clock 24).
    public static func apa102BitBanged(name: String, count: Int, chip: VirtualGPIOChip, data: UInt32, clock: UInt32) throws(DeviceError) -> SimulatedLEDChain {
        let chain = VirtualAPA102Chain(count: count)
        let lastClock = ClockLevel()
        chip.watch([data, clock]) { levels in
            // The LEDs sample data on each rising clock edge.
            let wasHigh = lastClock.exchange(levels[1])
            if levels[1], !wasHigh { chain.clock([levels[0]]) }
        }
        let driver = try APA102BitBang(chip: chip, data: data, clock: clock, count: count)
        return SimulatedLEDChain(
            name: name, layout: .strip, driver: driver, wiring: "APA102 on \(chip.label) lines \(data)/\(clock)",
            decoded: { chain.levels }, problems: { chain.violations })
    }
}

/// The last level seen on a clock line.
final class ClockLevel: Sendable {
    private let level = Mutex(false)

    /// Stores `new`, returns the previous level.
    func exchange(_ new: Bool) -> Bool { level.withLock { old in defer { old = new }; return old } }
}
