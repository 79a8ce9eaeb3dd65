import Headway

/// APA102 LEDs clocked on two GPIO lines (Pimoroni's Blinkt!: data on GPIO 23, clock on 24).
struct APA102GPIOFamily: DeviceFamily {
    let drivers = ["apa102-gpio"]
    let shorthandHelp = "blinkt (8 APA102s clocked on GPIO 23 and 24)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(DeviceSection.ledKeys + ["chip", "data", "clock"])
        guard let data = try section.line("data") else { throw section.error("data", "missing: the GPIO line the LEDs' data is on (data: 23)") }
        guard let clock = try section.line("clock") else { throw section.error("clock", "missing: the GPIO line the LEDs' clock is on (clock: 24)") }
        let count = try section.ledCount()
        return APA102GPIOSettings(chip: try section.chip(), data: data, clock: clock, count: count, layout: try section.layout(count: count))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        name == "blinkt" ? [("name", "stick"), ("driver", "apa102-gpio"), ("data", "23"), ("clock", "24"), ("count", "8")] : nil
    }
}

/// APA102s on two GPIO lines as configured.
package struct APA102GPIOSettings: DeviceSettings {
    package let driver = "apa102-gpio"
    package var chip: String
    package var data: UInt32
    package var clock: UInt32
    package var count: Int
    package var layout: LEDLayout
    /// Every bit is two line changes: a frame of 8 LEDs is a few hundred calls.
    package let framesPerSecond = 25.0

    package var claims: [DeviceClaim] {
        [.line(data, of: chip, role: "data", key: "data", what: "apa102-gpio"), .line(clock, of: chip, role: "clock", key: "clock", what: "apa102-gpio")]
    }

    package var ledCount: Int? { count }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .leds(try APA102BitBang(chip: try buses.gpio(chip), data: data, clock: clock, count: count), layout: layout)
    }
}
