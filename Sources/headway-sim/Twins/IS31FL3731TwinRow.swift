import HeadwayDevices
import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of IS31FL3731 boards: the chip's model on the board at its address.
    static let is31fl3731 = Row(IS31FL3731Settings.self) { s, name, buses, _ in
        let module: IS31FL3731Module = switch s.configuration.board {
        case .scrollPHATHD: .scrollPHATHD()
        case .ledSHIM: .ledSHIM
        case .charlieplex16x9: .charlieplex16x9()
        }
        return .is31fl3731(name, module: module, address: s.configuration.address, rotation: s.configuration.rotation, on: buses.i2cBus(s.bus))
    }
}
