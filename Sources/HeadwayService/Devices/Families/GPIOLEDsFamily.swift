import Headway

/// Plain LEDs on GPIO lines: a bar graph, one status LED, or an RGB status LED (`colours: rgb`,
/// its red, green and blue lines in that order).
struct GPIOLEDsFamily: DeviceFamily {
    let drivers = ["gpio-leds"]
    let shorthandHelp = "barN (N GPIO LEDs on lines 4 up, 1…16)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(["chip", "lines", "active-low", "colours"])
        let node = try section.required("lines")
        guard let list = node.sequence, !list.isEmpty, list.count <= 64 else { throw section.error("lines", "must be a list of 1…64 line numbers") }
        var lines: [UInt32] = []
        for item in list { lines.append(UInt32(try section.reader.int(item, "\(section.key).lines", 0...511))) }
        let rgb = try section.choice("colours", [("rgb", true), ("single", false)]) ?? false
        if rgb, lines.count != 3 {
            throw section.error("lines", "an RGB LED (colours: rgb) has three lines, red, green and blue, not \(lines.count)")
        }
        return GPIOLEDsSettings(chip: try section.chip(), lines: lines, activeLow: try section.bool("active-low") ?? false, rgb: rgb)
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
    /// One RGB LED: its red, green and blue lines.
    package var rgb = false
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] { lines.map { .line($0, of: chip, key: "lines", what: "gpio-leds") } }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .lights(try GPIOLEDs(chip: try buses.gpio(chip), offsets: lines, activeLow: activeLow), style: rgb ? RGBStatusLEDStyle() : nil)
    }
}
