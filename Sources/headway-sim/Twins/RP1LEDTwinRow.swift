import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of the Raspberry Pi 5's LED device.
    static let rp1LEDs = Row(RP1LEDSettings.self) { s, name, buses, _ in
        let chain = RigDevice.leds0(name, count: s.count, layout: s.layout, path: s.path, on: buses)
        guard let matrix = s.matrix, case .leds(let levels, _) = chain.view else { return chain }
        return .chainMatrix(name, layout: matrix, levels: levels, problems: { chain.problems })
    }
}
