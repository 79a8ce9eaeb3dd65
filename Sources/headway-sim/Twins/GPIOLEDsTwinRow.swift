import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of GPIO LEDs: lamps on the virtual chip's lines.
    static let gpioLEDs = Row(GPIOLEDsSettings.self) { s, name, buses, _ in
        .lamps(name, lines: s.lines, activeLow: s.activeLow, on: buses.gpioChip(s.chip))
    }
}
