import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of the Raspberry Pi 5's LED device.
    static let rp1LEDs = Row(RP1LEDSettings.self) { s, name, buses, _ in
        .leds0(name, count: s.count, layout: s.layout, path: s.path, on: buses)
    }
}
