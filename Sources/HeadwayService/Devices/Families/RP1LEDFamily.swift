import Headway

/// WS2812s behind the Raspberry Pi 5's kernel driver: the ws2812-pio overlay drives them from the
/// RP1's PIO and makes `/dev/leds0`, which takes whole frames.
struct RP1LEDFamily: DeviceFamily {
    let drivers = ["leds0"]
    let shorthandHelp = "leds0-N (a ring on the Pi 5's /dev/leds0)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(DeviceSection.ledKeys + ["path", "rgbw", "matrix"])
        let count = try section.ledCount()
        return RP1LEDSettings(path: try section.string("path") ?? "/dev/leds0", count: count, layout: try section.layout(count: count), rgbw: try section.bool("rgbw") ?? false,
            matrix: try section.chainMatrix(count: count))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("leds0-"), let count = Int(name.dropFirst(6)), (1...4096).contains(count) else { return nil }
        return [("name", "ring"), ("driver", "leds0"), ("count", "\(count)"), ("layout", "ring")]
    }
}

/// LEDs on `/dev/leds0` as configured.
package struct RP1LEDSettings: DeviceSettings {
    package let driver = "leds0"
    package var path: String
    package var count: Int
    package var layout: LEDLayout
    package var rgbw: Bool
    /// The chain laid out as a matrix, drawn as a picture (nil: a strip or ring).
    package var matrix: ChainMatrixLayout?
    package let framesPerSecond = 50.0

    package var claims: [DeviceClaim] {
        [DeviceClaim(.file(path, madeBy: "the Raspberry Pi 5's ws2812-pio overlay makes it (dtoverlay=ws2812-pio in config.txt, then reboot)"), key: "path", what: "leds0")]
    }

    package var ledCount: Int? { count }

    package func findings(_ machine: DoctorMachine) -> [DoctorFinding] {
        guard let model = machine.model, let firmware = machine.firmware else { return [] }
        if model.isPi5Family, !firmware.hasOverlay("ws2812-pio") {
            return [DoctorFinding("ws2812-pio", .fail, "\(machine.output): \(path) comes from the ws2812-pio overlay, which \(machine.configFile) does not load",
                                  fix: "add `dtoverlay=ws2812-pio,gpio=18,num_leds=\(count)` to \(machine.configFile) (the GPIO the data line is on), then reboot")]
        }
        if !model.isPi5Family {
            return [DoctorFinding("ws2812-pio", .fail, "\(machine.output): \(path) (the ws2812-pio overlay) exists only on a Raspberry Pi 5 or 500, this is a \(model.rawValue)",
                                  fix: "drive the LEDs over SPI instead: driver: ws2812, bus: /dev/spidev0.0 (data on GPIO 10)")]
        }
        return []
    }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .chain(try RP1LEDStrip(file: try buses.ledDevice(path), count: count, rgbw: rgbw), layout: layout, matrix: matrix, clock: buses.clock)
    }
}
