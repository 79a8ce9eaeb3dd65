import HeadwayDevices
import HeadwayRender

/// The WS2812 family's twin: the LED chain's datasheet model on an SPI bus's MOSI.
extension RigDevice {
    /// WS2812B (or SK6812) LEDs on `bus`'s MOSI, taking channels in `order`.
    public static func ws2812(_ name: String, count: Int, order: ColourOrder = .grb, layout: LEDLayout, on bus: VirtualSPIBus) -> RigDevice {
        let chain = VirtualWS2812Chain(count: count, order: order)
        bus.attach(chain)
        return RigDevice(name: name, view: .leds(levels: { chain.levels }, layout: layout), problems: { chain.violations })
    }
}
