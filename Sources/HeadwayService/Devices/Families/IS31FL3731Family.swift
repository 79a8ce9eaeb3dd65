import Headway

/// IS31FL3731 boards on I2C: Pimoroni's Scroll pHAT HD and LED SHIM, Adafruit's 16x9 CharliePlex.
struct IS31FL3731Family: DeviceFamily {
    let drivers = ["is31fl3731"]
    static let layouts = IS31FL3731Board.allCases.map { ($0.rawValue, $0) }

    var shorthandHelp: String {
        "is31fl3731-LAYOUT (an IS31FL3731 board on i2c-1: \(IS31FL3731Board.allCases.map(\.rawValue).joined(separator: ", ")))"
    }

    /// Where each board answers as it comes (Pimoroni's libraries: Scroll pHAT HD 0x74, LED SHIM
    /// 0x75; Adafruit's CharliePlex 0x74).
    static func defaultAddress(_ board: IS31FL3731Board) -> UInt8 { board == .ledSHIM ? 0x75 : 0x74 }

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(["bus", "address", "layout", "rotation", "gamma", "dithering"])
        let board = try section.matrixLayout(Self.layouts, chip: "IS31FL3731")
        let bus = try section.bus(display: true, "an I2C bus (header, i2c-1)")
        if OLEDFamily.isSPIBus(bus) {
            throw section.error("bus", "the IS31FL3731 is on I2C, not SPI; use bus: header (GPIO 2 and 3) or an I2C bus such as i2c-1")
        }
        let address = try section.i2cAddress(in: IS31FL3731Matrix.addresses, default: Self.defaultAddress(board), chip: "IS31FL3731", pins: "11101 AD: its AD pin to GND, SCL, SDA or VCC")
        return IS31FL3731Settings(bus: bus, configuration: .init(board: board, address: address, rotation: try section.matrixRotation(what: "")))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("is31fl3731-") else { return nil }
        let layout = String(name.dropFirst(11))
        guard Self.layouts.contains(where: { $0.0 == layout }) else {
            throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(DisplayText.sanitised(name))\": the IS31FL3731 boards are \(IS31FL3731Board.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return [("name", layout), ("driver", "is31fl3731"), ("bus", "i2c-1"), ("layout", layout)]
    }
}

/// An IS31FL3731 board as configured.
package struct IS31FL3731Settings: DeviceSettings {
    package let driver = "is31fl3731"
    /// The I2C bus, as the configuration names it.
    package var bus: String
    package var configuration: IS31FL3731Matrix.Configuration
    /// 25 frames/s; an update writes the changed PWM bytes and flips frames, about 1 ms of a
    /// 400 kHz bus for a bar's step.
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] {
        [.i2c(bus, address: configuration.address, alternatives: Array(IS31FL3731Matrix.addresses), what: "is31fl3731 \(configuration.board.rawValue)")]
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .matrix(try IS31FL3731Matrix(on: buses, bus: bus, configuration: configuration))
    }
}
