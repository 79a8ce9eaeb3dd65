import HeadwayDevices
import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of HT16K33 backpacks: the chip's model on the backpack at its address.
    static let ht16k33 = Row(HT16K33Settings.self) { s, name, buses, _ in
        let module: HT16K33Module = switch s.configuration.backpack {
        case .bargraph24: .bargraph24
        case .matrix8x8: .matrix8x8()
        case .matrix8x8Bicolour: .matrix8x8Bicolour
        case .matrix16x8: .matrix16x8()
        case .segments4: .segments4()
        case .alnum4: .alnum4()
        }
        return .ht16k33(name, module: module, address: s.configuration.address, rotation: s.configuration.rotation, on: buses.i2cBus(s.bus))
    }
}
