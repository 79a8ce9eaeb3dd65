import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of WS2812 chains: the chain's model on the SPI bus the configuration names, clocked as the board divides.
    static let ws2812 = Row(WS2812Settings.self) { s, name, buses, clock in
        let chain = RigDevice.ws2812(name, count: s.chain.count, order: s.chain.order, layout: s.layout, on: buses.spiBus(s.bus, clockModel: clock))
        guard let matrix = s.matrix, case .leds(let levels, _) = chain.view else { return chain }
        return .chainMatrix(name, layout: matrix, levels: levels, problems: { chain.problems })
    }
}
