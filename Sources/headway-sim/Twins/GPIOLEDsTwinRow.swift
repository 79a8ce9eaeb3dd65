import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of GPIO LEDs: lamps on the virtual chip's lines, or one RGB LED.
    static let gpioLEDs = Row(GPIOLEDsSettings.self) { s, name, buses, _ in
        s.rgb ? .rgbLamp(name, lines: s.lines, activeLow: s.activeLow, on: buses.gpioChip(s.chip))
            : .lamps(name, lines: s.lines, activeLow: s.activeLow, on: buses.gpioChip(s.chip))
    }
}
