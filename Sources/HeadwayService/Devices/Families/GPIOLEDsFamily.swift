import Headway

/// Plain LEDs on GPIO lines: a bar graph, or one status LED.
struct GPIOLEDsFamily: DeviceFamily {
    let drivers = ["gpio-leds"]
    let shorthandHelp = "barN (N GPIO LEDs on lines 4 up, 1…16)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(["chip", "lines", "active-low"])
        let node = try section.required("lines")
        guard let list = node.sequence, !list.isEmpty, list.count <= 64 else { throw section.error("lines", "must be a list of 1…64 line numbers") }
        var lines: [UInt32] = []
        for item in list { lines.append(UInt32(try section.reader.int(item, "\(section.key).lines", 0...511))) }
        return GPIOLEDsSettings(chip: try section.chip(), lines: lines, activeLow: try section.bool("active-low") ?? false)
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("bar"), let count = Int(name.dropFirst(3)), (1...16).contains(count) else { return nil }
        return [("name", "bar"), ("driver", "gpio-leds"), ("lines", "[" + (0..<count).map { "\($0 + 4)" }.joined(separator: ", ") + "]")]
    }
}

/// GPIO LEDs as configured.
package struct GPIOLEDsSettings: DeviceSettings {
    package let driver = "gpio-leds"
    package var chip: String
    package var lines: [UInt32]
    package var activeLow: Bool
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] { lines.map { .line($0, of: chip, key: "lines", what: "gpio-leds") } }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .lights(try GPIOLEDs(chip: try buses.gpio(chip), offsets: lines, activeLow: activeLow))
    }
}
