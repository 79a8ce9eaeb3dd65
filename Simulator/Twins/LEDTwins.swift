import HeadwayDevices
import HeadwayRender
import Synchronization

/// The LED chains' twins: the datasheet models of WS2812, APA102 and the Raspberry Pi 5's LED
/// device, attached where their drivers will write, read back as LEDs.
extension RigDevice {
    /// WS2812B (or SK6812) LEDs on `bus`'s MOSI, taking channels in `order`.
    public static func ws2812(_ name: String, count: Int, order: ColourOrder = .grb, layout: LEDLayout, on bus: VirtualSPIBus) -> RigDevice {
        let chain = VirtualWS2812Chain(count: count, order: order)
        bus.attach(chain)
        return RigDevice(name: name, view: .leds(levels: { chain.levels }, layout: layout), problems: { chain.violations })
    }

    /// APA102 LEDs on `bus` (MOSI and SCLK).
    public static func apa102(_ name: String, count: Int, layout: LEDLayout, on bus: VirtualSPIBus) -> RigDevice {
        let chain = VirtualAPA102Chain(count: count)
        bus.attach(chain)
        return RigDevice(name: name, view: .leds(levels: { chain.levels }, layout: layout), problems: { chain.violations })
    }

    /// APA102 LEDs on two lines of `chip` (Blinkt!: data 23, clock 24), sampling data on each
    /// rising clock edge.
    public static func apa102(_ name: String, count: Int, layout: LEDLayout = .strip, on chip: VirtualGPIOChip, data: UInt32, clock: UInt32) -> RigDevice {
        let chain = VirtualAPA102Chain(count: count)
        let lastClock = ClockLevel()
        chip.watch([data, clock]) { levels in
            let wasHigh = lastClock.exchange(levels[1])
            if levels[1], !wasHigh { chain.clock([levels[0]]) }
        }
        return RigDevice(name: name, view: .leds(levels: { chain.levels }, layout: layout), problems: { chain.violations })
    }

    /// WS2812s behind the Raspberry Pi 5's kernel driver, its device file at `path` on `buses`.
    public static func leds0(_ name: String, count: Int, layout: LEDLayout, path: String, on buses: SimulatedBuses) -> RigDevice {
        let file = VirtualLEDDeviceFile(path: path, count: count)
        buses.attach(file)
        return RigDevice(name: name, view: .leds(levels: { file.levels }, layout: layout), problems: { [] })
    }

    /// Plain LEDs on `lines` of `chip`, lit by a high line (a low one when `activeLow`).
    public static func lamps(_ name: String, lines: [UInt32], activeLow: Bool, on chip: VirtualGPIOChip) -> RigDevice {
        RigDevice(name: name, view: .lamps(lit: { chip.levels(lines).map { $0 != activeLow } }), problems: { [] })
    }
}

/// The last level seen on a clock line.
final class ClockLevel: Sendable {
    private let level = Mutex(false)

    /// Stores `new`, returns the previous level.
    func exchange(_ new: Bool) -> Bool { level.withLock { old in defer { old = new }; return old } }
}
