import Headway

/// WS2812 (and SK6812) LEDs on an SPI bus's MOSI: each LED bit is a few SPI bits at a clock the
/// encoding's timing windows allow (WS2812Strip).
struct WS2812Family: DeviceFamily {
    let drivers = ["ws2812"]
    let shorthandHelp = "ringN, stripN or panelWxH (WS2812 on spi0.0, e.g. ring24, strip60, panel32x8: a matrix wired in columns, serpentine)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(DeviceSection.ledKeys + ["bus", "encoding", "speed-hz", "order", "matrix"])
        let encoding = try section.choice("encoding", [("3bit", WS2812Encoding.threeBit), ("4bit", .fourBit), ("8bit", .eightBit)]) ?? .threeBit
        let order = try section.choice("order", ColourOrder.allCases.map { ($0.rawValue, $0) }) ?? .grb
        let speed = try section.int("speed-hz", 100_000...40_000_000).map(UInt32.init)
        let count = try section.ledCount()
        return WS2812Settings(
            bus: try section.bus(display: false, "an SPI bus (header, spi0.0); the LEDs' data goes to its MOSI"),
            chain: WS2812Strip.Configuration(count: count, order: order, encoding: encoding, speedHz: speed), layout: try section.layout(count: count),
            matrix: try section.chainMatrix(count: count))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        for (prefix, layout) in [("ring", "ring"), ("strip", "strip")] {
            guard name.hasPrefix(prefix), let count = Int(name.dropFirst(prefix.count)), (1...4096).contains(count) else { continue }
            return [("name", prefix), ("driver", "ws2812"), ("bus", "spi0.0"), ("count", "\(count)"), ("layout", layout)]
        }
        if name.hasPrefix("panel") {
            let size = name.dropFirst(5).split(separator: "x").compactMap { Int($0) }
            guard size.count == 2, (1...256).contains(size[0]), (1...256).contains(size[1]), size[0] * size[1] <= 4096 else {
                throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(DisplayText.sanitised(name))\": write panelWxH, a WS2812 matrix of W×H LEDs (at most 4096)")
            }
            return [("name", "panel"), ("driver", "ws2812"), ("bus", "spi0.0"), ("count", "\(size[0] * size[1])"),
                    ("matrix", "{width: \(size[0]), height: \(size[1]), lines: columns, wiring: serpentine}")]
        }
        return nil
    }
}

/// A WS2812 chain as configured.
package struct WS2812Settings: DeviceSettings {
    package let driver = "ws2812"
    /// The SPI bus, as the configuration names it.
    package var bus: String
    /// Count, colour order, encoding and speed.
    package var chain: WS2812Strip.Configuration
    package var layout: LEDLayout
    /// The chain laid out as a matrix, drawn as a picture (nil: a strip or ring).
    package var matrix: ChainMatrixLayout?
    package let framesPerSecond = 50.0

    package var claims: [DeviceClaim] { [.spi(bus, what: "ws2812")] }
    package var ledCount: Int? { chain.count }

    package func frameBytes(spiClock: SPIClockModel) -> Int? { chain.frameBytes(atHz: spiClock.effectiveSpeed(forRequested: chain.speedHz)) }

    package func findings(_ machine: DoctorMachine) -> [DoctorFinding] {
        var findings = [
            DoctorFinding("level-shifter", .advice, "WS2812 LEDs powered at 5 V may not read the Pi's 3.3 V data reliably (flicker, wrong colours)",
                          fix: "put a 74AHCT125 (or similar) level shifter on the data line")
        ]
        guard let model = machine.model, let firmware = machine.firmware, let steady = model.steadySPIClock else { return findings }
        let missing = steady.filter { firmware.value($0.key) != $0.value }
        let lines = steady.map { "\($0.key)=\($0.value)" }.joined(separator: " and ")
        if missing.isEmpty {
            findings.append(DoctorFinding("spi-clock", .pass, "the SPI clock is steady for WS2812 (\(lines))"))
        } else {
            findings.append(DoctorFinding("spi-clock", .fail, "on a \(model.rawValue) the SPI clock follows the core clock, and WS2812 data sent over SPI falls apart when it scales (LEDs all white or random)",
                                          fix: "add " + missing.map { "`\($0.key)=\($0.value)`" }.joined(separator: " and ") + " to \(machine.configFile), then reboot"))
        }
        return findings
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .chain(try WS2812Strip(bus: try buses.spi(bus, clock: spiClock), configuration: chain), layout: layout, matrix: matrix, clock: buses.clock)
    }
}
