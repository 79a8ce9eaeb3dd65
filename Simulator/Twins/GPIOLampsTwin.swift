import HeadwayDevices
import HeadwayRender

/// The GPIO LEDs family's twin: lamps read back from the virtual chip's line levels.
extension RigDevice {
    /// Plain LEDs on `lines` of `chip`, lit by a high line (a low one when `activeLow`).
    public static func lamps(_ name: String, lines: [UInt32], activeLow: Bool, on chip: VirtualGPIOChip) -> RigDevice {
        RigDevice(name: name, view: .lamps(lit: { chip.levels(lines).map { $0 != activeLow } }), problems: { [] })
    }

    /// One RGB LED whose red, green and blue dies are lit by `lines` (each channel full or off).
    public static func rgbLamp(_ name: String, lines: [UInt32], activeLow: Bool, on chip: VirtualGPIOChip) -> RigDevice {
        RigDevice(name: name, view: .leds(levels: {
            let lit = chip.levels(lines).map { $0 != activeLow ? UInt8(255) : 0 }
            return [RGB8(red: lit[0], green: lit[1], blue: lit[2])]
        }, layout: .strip), problems: { [] })
    }
}
