import HeadwayDevices
import HeadwayRender
import Synchronization

/// The bit-banged APA102 family's twin: the chain's datasheet model clocked by two GPIO lines.
extension RigDevice {
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
}

/// The last level seen on a clock line.
final class ClockLevel: Sendable {
    private let level = Mutex(false)

    /// Stores `new`, returns the previous level.
    func exchange(_ new: Bool) -> Bool { level.withLock { old in defer { old = new }; return old } }
}
