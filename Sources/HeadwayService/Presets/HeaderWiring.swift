import Headway

/// Resolves `header` in outputs and buttons: `chip: header` (or `auto`) is the header's GPIO chip,
/// `bus: header` its I2C bus for a display or SPI0 CE0 for an LED chain, `bus: header-ce0` and
/// `header-ce1` SPI0 CE0 and CE1 (for a display on SPI too). With a board the board says which; without one, the chip is found at start by the
/// labels every Raspberry Pi uses, and the buses are the ones every 40-pin Pi has.
struct HeaderWiring {
    let board: BoardPreset?
    let source: String

    private var chip: String { board?.gpioChip ?? "auto" }

    private func bus(_ token: String, display: Bool, _ output: OutputConfiguration) throws(ConfigurationError) -> String {
        let standard = BoardPreset(name: "", title: "", models: [], spiClock: .exact, gpioChip: "", i2cBus: "/dev/i2c-1", spiBus: "/dev/spidev0", configTxt: "")
        guard let bus = (board ?? standard).headerBus(token, display: display) else {
            throw ConfigurationError(file: source, line: output.line, key: "outputs.\(output.name).bus",
                                     "\(token) is not a header bus; use \(display ? "header (I2C), or header-ce0 or header-ce1 for a display on SPI" : "header (SPI0 CE0) or header-ce1 (SPI0 CE1)")")
        }
        return bus
    }

    private func isHeaderBus(_ text: String) -> Bool { text == "header" || text.hasPrefix("header-") }
    private func isHeaderChip(_ text: String) -> Bool { text == "header" || text == "auto" }

    func resolve(_ output: OutputConfiguration) throws(ConfigurationError) -> OutputConfiguration {
        var output = output
        switch output.device {
        case .ws2812(let bus, let count, let layout, let encoding, let speed, let order) where isHeaderBus(bus):
            output.device = .ws2812(bus: try self.bus(bus, display: false, output), count: count, layout: layout, encoding: encoding, speedHz: speed, order: order)
        case .apa102(let bus, let count, let layout) where isHeaderBus(bus):
            output.device = .apa102(bus: try self.bus(bus, display: false, output), count: count, layout: layout)
        case .oled(.i2c(let bus, let label, let reset), let configuration, let ring) where isHeaderBus(bus) || isHeaderChip(label):
            let i2cBus = isHeaderBus(bus) ? try self.bus(bus, display: true, output) : bus
            output.device = .oled(link: .i2c(bus: i2cBus, chip: isHeaderChip(label) ? chip : label, reset: reset), configuration: configuration, ring: ring)
        case .oled(.spi(let bus, let label, let dataCommand, let reset, let speed), let configuration, let ring) where isHeaderBus(bus) || isHeaderChip(label):
            let spiBus = isHeaderBus(bus) ? try self.bus(bus, display: false, output) : bus
            output.device = .oled(
                link: .spi(bus: spiBus, chip: isHeaderChip(label) ? chip : label, dataCommand: dataCommand, reset: reset, speedHz: speed),
                configuration: configuration, ring: ring)
        case .apa102GPIO(let label, let data, let clock, let count) where isHeaderChip(label):
            output.device = .apa102GPIO(chip: chip, data: data, clock: clock, count: count)
        case .gpioLEDs(let label, let lines, let activeLow) where isHeaderChip(label):
            output.device = .gpioLEDs(chip: chip, lines: lines, activeLow: activeLow)
        default: break
        }
        return output
    }

    func resolve(_ button: ButtonConfiguration) -> ButtonConfiguration {
        var button = button
        if isHeaderChip(button.chip) { button.chip = chip }
        return button
    }
}
