import Headway

/// Adafruit's HT16K33 backpacks on I2C: the bicolour 24-bar bargraph, 8x8 (one colour or
/// bicolour) and 16x8 matrices, the 4-digit 7-segment and the 4-character 14-segment displays.
struct HT16K33Family: DeviceFamily {
    let drivers = ["ht16k33"]
    static let layouts = HT16K33Backpack.allCases.map { ($0.rawValue, $0) } + [("matrix8x8-bicolor", .matrix8x8Bicolour)]

    var shorthandHelp: String {
        "ht16k33-LAYOUT (an HT16K33 backpack at 0x70 on i2c-1: \(HT16K33Backpack.allCases.map(\.rawValue).joined(separator: ", ")))"
    }

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(["bus", "address", "layout", "rotation"])
        let backpack = try section.matrixLayout(Self.layouts, chip: "HT16K33")
        let bus = try section.bus(display: true, "an I2C bus (header, i2c-1)")
        if OLEDFamily.isSPIBus(bus) {
            throw section.error("bus", "the HT16K33 is on I2C, not SPI; use bus: header (GPIO 2 and 3) or an I2C bus such as i2c-1")
        }
        let address = try section.i2cAddress(in: HT16K33Display.addresses, default: 0x70, chip: "HT16K33", pins: "1110 A2 A1 A0: its A0–A2 jumpers")
        let isSegments = backpack == .segments4 || backpack == .alnum4
        let rotation = try section.matrixRotation(turns: !isSegments, what: "a segment display")
        return HT16K33Settings(bus: bus, configuration: .init(backpack: backpack, address: address, rotation: rotation))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("ht16k33-") else { return nil }
        let layout = String(name.dropFirst(8))
        guard Self.layouts.contains(where: { $0.0 == layout }) else {
            throw ConfigurationError(file: "--device", line: nil, key: nil, "device \"\(DisplayText.sanitised(name))\": the HT16K33 backpacks are \(HT16K33Backpack.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return [("name", layout), ("driver", "ht16k33"), ("bus", "i2c-1"), ("layout", layout)]
    }
}

/// An HT16K33 backpack as configured.
package struct HT16K33Settings: DeviceSettings {
    package let driver = "ht16k33"
    /// The I2C bus, as the configuration names it.
    package var bus: String
    package var configuration: HT16K33Display.Configuration
    /// 25 frames/s: a scrolling label moves a pixel at a time; an unchanged frame sends nothing.
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] {
        [.i2c(bus, address: configuration.address, alternatives: Array(HT16K33Display.addresses), what: "ht16k33 \(configuration.backpack.rawValue)")]
    }

    package func findings(_ machine: DoctorMachine) -> [DoctorFinding] {
        // learn.adafruit.com "Matrix and 7-Segment LED Backpack with the Raspberry Pi", Hooking
        // Everything Up: powered from 3.3 V the I2C lines stay at 3.3 V; powered from 5 V the
        // backpack's 10 kΩ pull-ups go to 5 V, safe with one such device on the bus.
        [DoctorFinding("ht16k33-supply", .advice,
                       "HT16K33 backpacks: powered from 3.3 V their I2C lines stay at the Pi's level (red, yellow and green LEDs are bright enough); from 5 V their 10 kΩ pull-ups go to 5 V, which the Pi tolerates for one such backpack on the bus",
                       fix: "power red, yellow and green backpacks from 3.3 V (pin 1); with blue or white ones at 5 V and more than one on the bus, put a level shifter on SDA and SCL; a backpack's Vi2c or IO pin goes to 3.3 V")]
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .matrix(try HT16K33Display(on: buses, bus: bus, configuration: configuration))
    }
}
