import HeadwayDevices
import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of MAX7219 chains: the cascade's model on the SPI bus, clocked as the board divides.
    static let max7219 = Row(MAX7219Settings.self) { s, name, buses, clock in
        let module: MAX7219Module = switch s.configuration.layout {
        case .fc16: .fc16Matrix()
        case .segments8: .segments8()
        }
        return .max7219(name, module: module, devices: s.configuration.devices, rotation: s.configuration.rotation, on: buses.spiBus(s.bus, clockModel: clock))
    }
}
