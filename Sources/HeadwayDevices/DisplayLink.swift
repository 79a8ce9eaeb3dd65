/// How a display module is connected: its I2C bus (the address is the module's), or its SPI bus
/// with the D/C line; either with its reset line, where the module brings RES# out, on a GPIO chip.
/// Buses and chips are named as ``Buses`` takes them.
public enum DisplayLink: Sendable, Equatable {
    /// On an I2C bus, its reset line (if any) on `chip`.
    case i2c(bus: String, chip: String, reset: UInt32?)
    /// On an SPI bus at `speedHz`, its D/C and reset lines on `chip`.
    case spi(bus: String, chip: String, dataCommand: UInt32, reset: UInt32?, speedHz: UInt32)

    /// The bus.
    public var bus: String {
        switch self {
        case .i2c(let bus, _, _), .spi(let bus, _, _, _, _): bus
        }
    }

    /// The GPIO chip and the lines the display needs (D/C, reset), with their roles.
    public var lines: (chip: String, lines: [(offset: UInt32, role: String)]) {
        switch self {
        case .i2c(_, let chip, let reset): (chip, reset.map { [($0, "reset")] } ?? [])
        case .spi(_, let chip, let dc, let reset, _): (chip, [(dc, "D/C")] + (reset.map { [($0, "reset")] } ?? []))
        }
    }
}
