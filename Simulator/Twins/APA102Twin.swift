import HeadwayDevices
import HeadwayRender

/// The APA102 family's twin: the chain's datasheet model on an SPI bus.
extension RigDevice {
    /// APA102 LEDs on `bus` (MOSI and SCLK).
    public static func apa102(_ name: String, count: Int, layout: LEDLayout, on bus: VirtualSPIBus) -> RigDevice {
        let chain = VirtualAPA102Chain(count: count)
        bus.attach(chain)
        return RigDevice(name: name, view: .leds(levels: { chain.levels }, layout: layout), problems: { chain.violations })
    }
}
