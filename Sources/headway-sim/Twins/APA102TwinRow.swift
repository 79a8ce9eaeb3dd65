import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of APA102 chains on SPI.
    static let apa102 = Row(APA102Settings.self) { s, name, buses, clock in
        .apa102(name, count: s.count, layout: s.layout, on: buses.spiBus(s.bus, clockModel: clock))
    }
}
