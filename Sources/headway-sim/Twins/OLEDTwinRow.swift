import HeadwayService
import HeadwaySimulator

extension VirtualTwins {
    /// The twin of OLED displays: the controller's model at its address on I2C, or on SPI with its D/C and reset lines.
    static let oled = Row(OLEDSettings.self) { s, name, buses, _ in
        let module = s.configuration.module
        switch s.link {
        case .i2c(let bus, _, _):
            return .oled(name, controller: s.configuration.controller, width: module.width, height: module.height, address: s.configuration.address, on: buses.i2cBus(bus))
        case .spi(let bus, let chip, let dc, let reset, _):
            return .oled(
                name, controller: s.configuration.controller, width: module.width, height: module.height, on: buses.spiBus(bus, clockModel: .exact),
                lines: buses.gpioChip(chip), dataCommand: dc, reset: reset)
        }
    }
}
