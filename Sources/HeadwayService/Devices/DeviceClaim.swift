import Headway

/// A resource of the machine that a device takes, one user each: an SPI bus drives one chain or
/// display, an I2C address one chip, a GPIO line one output or button, an LED device file one
/// strip. The resource checks and `doctor` read them; no family is named there.
public struct DeviceClaim: Sendable, Equatable {
    /// What is claimed.
    public enum Resource: Sendable, Hashable {
        /// An SPI bus (one chip select), by its short name (`spi0.0`).
        case spiBus(String)
        /// An address on an I2C bus (`i2c-1`); `alternatives` are the others the chip can be
        /// strapped to, for doctor's hint.
        case i2cAddress(bus: String, address: UInt8, alternatives: [UInt8])
        /// A line of a GPIO chip (by path, name, label or `auto`).
        case gpioLine(chip: String, line: UInt32)
        /// A device file (`/dev/leds0`), and what makes it.
        case file(String, madeBy: String)
    }

    /// The resource.
    public var resource: Resource
    /// What it is for (`D/C`, `reset`, `data`, `clock`), for messages; empty for the device itself.
    public var role: String
    /// The configuration key it came from (`bus`, `address`, `dc`, `lines`…).
    public var key: String
    /// What claims it, for messages (`ssd1306 128x64`).
    public var what: String

    /// `resource`, for `role`, read from `key`, by `what`.
    public init(_ resource: Resource, role: String = "", key: String, what: String) {
        self.resource = resource
        self.role = role
        self.key = key
        self.what = what
    }

    /// The resource as messages name it; two claims clash when their names are equal.
    public var name: String {
        switch resource {
        case .spiBus(let bus): "SPI bus \(bus)"
        case .i2cAddress(let bus, let address, _): "I2C address \(hexByte(address)) on \(bus)"
        case .gpioLine(let chip, let line): "GPIO line \(line) of \(chip)"
        case .file(let path, _): path
        }
    }

    /// An SPI bus claim for `bus` as the configuration names it.
    public static func spi(_ bus: String, key: String = "bus", what: String) -> DeviceClaim {
        DeviceClaim(.spiBus(BusName.spiShort(bus)), key: key, what: what)
    }

    /// An I2C address claim on `bus` as the configuration names it.
    public static func i2c(_ bus: String, address: UInt8, alternatives: [UInt8] = [], key: String = "address", what: String) -> DeviceClaim {
        DeviceClaim(.i2cAddress(bus: BusName.i2cShort(bus), address: address, alternatives: alternatives.filter { $0 != address }), key: key, what: what)
    }

    /// A GPIO line claim.
    public static func line(_ line: UInt32, of chip: String, role: String = "", key: String, what: String) -> DeviceClaim {
        DeviceClaim(.gpioLine(chip: chip, line: line), role: role, key: key, what: what)
    }

    /// The device node this claim needs (`/dev/spidev0.0`, `/dev/i2c-1`, a chip's path), and what
    /// kind it is, for doctor.
    var node: (path: String, kind: String)? {
        switch resource {
        case .spiBus(let bus): (BusName.spiPath(bus), "SPI")
        case .i2cAddress(let bus, _, _): (BusName.i2cPath(bus), "I2C")
        case .gpioLine(let chip, _): chip.hasPrefix("/dev/") ? (chip, "GPIO") : nil
        case .file(let path, _): (path, "file")
        }
    }
}
