import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of APA102 chains clocked on two GPIO lines.
    static let apa102GPIO = Row(APA102GPIOSettings.self) { s, name, buses, _ in
        .apa102(name, count: s.count, layout: s.layout, on: buses.gpioChip(s.chip), data: s.data, clock: s.clock)
    }
}
