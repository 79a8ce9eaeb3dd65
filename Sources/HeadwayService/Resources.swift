import Headway

/// Hardware a configuration hands out, each to one user only: an SPI bus drives one chain, an I2C
/// address one display, a GPIO line one output or button, a kernel LED device one strip.
enum Resources {
    /// Refuses a configuration that gives one resource to two outputs or buttons, naming both.
    static func checkSharing(outputs: [OutputConfiguration], buttons: [ButtonConfiguration], source: String) throws(ConfigurationError) {
        // A HAT's items carry the line of the `hats:` entry: said once, by the HAT's name.
        var owners: [String: (who: String, line: Int?)] = [:]
        func claim(_ resource: String, by who: String, hat: String?, line: Int, key: String) throws(ConfigurationError) {
            if let first = owners[resource] {
                throw ConfigurationError(
                    file: source, line: line, key: key,
                    "\(who) needs \(resource), which is already used by \(first.who)\(first.line.map { " (line \($0))" } ?? ""); each bus, address and GPIO line serves one output or button")
            }
            owners[resource] = (who, hat == nil ? line : nil)
        }
        for (index, output) in outputs.enumerated() {
            let who = "output \(output.name)" + (output.hat.map { " (HAT \($0))" } ?? "")
            let key = "outputs[\(index)]"
            switch output.device {
            case .ws2812(let bus, _, _, _, _, _), .apa102(let bus, _, _):
                try claim("SPI bus \(spiName(bus))", by: who, hat: output.hat, line: output.line, key: key + ".bus")
            case .oled(let link, let configuration, _):
                if case .i2c(let bus, _, _) = link {
                    try claim("I2C address \(hexByte(configuration.address)) on \(i2cName(bus))", by: who, hat: output.hat, line: output.line, key: key + ".address")
                } else {
                    try claim("SPI bus \(spiName(link.bus))", by: who, hat: output.hat, line: output.line, key: key + ".bus")
                }
                let (chip, lines) = link.lines
                for (offset, role) in lines {
                    try claim("GPIO line \(offset) of \(chip)", by: who, hat: output.hat, line: output.line, key: key + (role == "D/C" ? ".dc" : ".reset"))
                }
            case .leds0(let path, _, _, _):
                try claim(path, by: who, hat: output.hat, line: output.line, key: key + ".path")
            case .apa102GPIO(let chip, let data, let clock, _):
                try claim("GPIO line \(data) of \(chip)", by: who, hat: output.hat, line: output.line, key: key + ".data")
                try claim("GPIO line \(clock) of \(chip)", by: who, hat: output.hat, line: output.line, key: key + ".clock")
            case .gpioLEDs(let chip, let lines, _):
                for line in lines { try claim("GPIO line \(line) of \(chip)", by: who, hat: output.hat, line: output.line, key: key + ".lines") }
            }
        }
        for (index, button) in buttons.enumerated() {
            try claim("GPIO line \(button.line) of \(button.chip)", by: "button \(index + 1)" + (button.hat.map { " (HAT \($0))" } ?? ""), hat: button.hat, line: button.fileLine, key: "buttons[\(index)].line")
        }
    }

    /// `spi0.0` for `/dev/spidev0.0` or `spi0.0`.
    static func spiName(_ bus: String) -> String {
        bus.hasPrefix("/dev/spidev") ? "spi" + bus.dropFirst("/dev/spidev".count) : bus
    }

    /// `i2c-1` for `/dev/i2c-1` or `i2c-1`.
    static func i2cName(_ bus: String) -> String {
        bus.hasPrefix("/dev/") ? String(bus.dropFirst("/dev/".count)) : bus
    }
}
