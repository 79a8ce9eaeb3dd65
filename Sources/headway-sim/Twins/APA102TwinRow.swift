import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of APA102 chains on SPI.
    static let apa102 = Row(APA102Settings.self) { s, name, buses, clock in
        let chain = RigDevice.apa102(name, count: s.count, layout: s.layout, on: buses.spiBus(s.bus, clockModel: clock))
        guard let matrix = s.matrix, case .leds(let levels, _) = chain.view else { return chain }
        return .chainMatrix(name, layout: matrix, levels: levels, problems: { chain.problems })
    }
}
