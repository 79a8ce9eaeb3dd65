import Headway

/// Chains of MAX7219 LED drivers on SPI: FC-16 8x8 blocks (the 4-in-1 32x8 module) and 8-digit
/// 7-segment modules.
struct MAX7219Family: DeviceFamily {
    let drivers = ["max7219"]
    static let layouts = MAX7219Layout.allCases.map { ($0.rawValue, $0) }
    /// spidev's default bufsiz (4096 bytes) in words of two: a longer chain cannot take one word
    /// each in one message.
    static let longestChain = 2048

    let shorthandHelp = "max7219-fc16-N or max7219-segments8-N (N MAX7219s on spi0.0, e.g. max7219-fc16-4, the 4-in-1 32x8)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(["bus", "layout", "chain", "rotation", "speed-hz"])
        let layout = try section.matrixLayout(Self.layouts, chip: "MAX7219")
        let bus = try section.bus(display: false, "an SPI bus (header, spi0.0): DIN to MOSI, CLK to SCLK, CS to CE0")
        if !OLEDFamily.isSPIBus(bus) {
            throw section.error("bus", "the MAX7219 is on SPI, not I2C; use bus: header (SPI0 CE0) or an SPI bus such as spi0.0")
        }
        let devices = try section.int("chain", 1...100_000) ?? (layout == .fc16 ? 4 : 1)
        guard devices <= Self.longestChain else {
            throw section.error("chain", "a chain of \(devices) MAX7219s needs \(2 * devices)-byte messages (a word each, all latched at once), more than spidev takes by default (4096 bytes: \(Self.longestChain) devices); split it over two chip selects")
        }
        let speed = try section.int("speed-hz", 10_000...100_000_000).map(UInt32.init) ?? MAX7219Chain.defaultSpeedHz
        guard speed <= MAX7219Chain.maxClockHz else {
            throw section.error("speed-hz", "the MAX7219 takes at most 10 MHz (CLK period ≥ 100 ns); leave speed-hz out for 1 MHz")
        }
        let rotation = try section.matrixRotation(turns: layout == .fc16, what: "a segment display")
        return MAX7219Settings(bus: bus, configuration: .init(layout: layout, devices: devices, rotation: rotation, speedHz: speed))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("max7219-") else { return nil }
        let parts = name.dropFirst(8).split(separator: "-")
        guard parts.count == 2, let layout = MAX7219Layout(rawValue: String(parts[0])), let count = Int(parts[1]), (1...64).contains(count) else {
            throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(DisplayText.sanitised(name))\": write max7219-fc16-N or max7219-segments8-N, N devices (1…64)")
        }
        return [("name", layout.rawValue), ("driver", "max7219"), ("bus", "spi0.0"), ("layout", layout.rawValue), ("chain", "\(count)")]
    }
}

/// A MAX7219 chain as configured.
package struct MAX7219Settings: DeviceSettings {
    package let driver = "max7219"
    /// The SPI bus, as the configuration names it.
    package var bus: String
    package var configuration: MAX7219Chain.Configuration
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] { [.spi(bus, what: "max7219 \(configuration.layout.rawValue) x\(configuration.devices)")] }

    /// Every message holds a word per device: spidev's bufsiz must take it.
    package func frameBytes(spiClock: SPIClockModel) -> Int? { configuration.messageBytes }

    package func findings(_ machine: DoctorMachine) -> [DoctorFinding] {
        // MAX7219 datasheet, Electrical Characteristics: V+ 4.0–5.5 V and up to 330 mA a device with
        // every segment lit (p. 2); a logic high at DIN, CLK and LOAD is at least 3.5 V (p. 3).
        let devices = configuration.devices
        return [
            DoctorFinding("max7219-logic", .advice, "the MAX7219 reads a logic high from 3.5 V (its datasheet's VIH at 5 V): the Pi's 3.3 V SPI is below that, and most modules still work",
                          fix: "if the LEDs show garbage, put a 74AHCT125 (or similar) level shifter on DIN, CLK and CS"),
            DoctorFinding("max7219-supply", .advice, "\(machine.output): \(devices) MAX7219\(devices == 1 ? "" : "s") at 5 V may draw up to \(devices * 330) mA with every LED lit",
                          fix: devices * 330 > 1000 ? "power the modules from a 5 V supply of their own (grounds joined), not the Pi's header" : nil),
        ]
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .matrix(try MAX7219Chain(on: buses, bus: bus, clock: spiClock, configuration: configuration))
    }
}
