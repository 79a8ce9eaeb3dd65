import Headway

/// APA102 (DotStar) LEDs on an SPI bus: clock and data lines, any speed up to the chips' limit.
struct APA102Family: DeviceFamily {
    let drivers = ["apa102"]
    let shorthandHelp = "apa102-N (an APA102 strip on spi0.0)"

    func read(_ section: DeviceSection) throws(ConfigurationError) -> any DeviceSettings {
        try section.allowOnly(DeviceSection.ledKeys + ["bus", "matrix"])
        let count = try section.ledCount()
        return APA102Settings(
            bus: try section.bus(display: false, "an SPI bus (header, spi0.0): data to MOSI, clock to SCLK"), count: count, layout: try section.layout(count: count),
            matrix: try section.chainMatrix(count: count))
    }

    func section(forShorthand name: String) throws(ConfigurationError) -> [(key: String, value: String)]? {
        guard name.hasPrefix("apa102-"), let count = Int(name.dropFirst(7)), (1...4096).contains(count) else { return nil }
        return [("name", "strip"), ("driver", "apa102"), ("bus", "spi0.0"), ("count", "\(count)")]
    }
}

/// An APA102 chain on SPI as configured.
package struct APA102Settings: DeviceSettings {
    package let driver = "apa102"
    package var bus: String
    package var count: Int
    package var layout: LEDLayout
    /// The chain laid out as a matrix, drawn as a picture (nil: a strip or ring).
    package var matrix: ChainMatrixLayout?
    package let framesPerSecond = 50.0

    package var claims: [DeviceClaim] { [.spi(bus, what: "apa102")] }
    package var ledCount: Int? { count }

    package func frameBytes(spiClock: SPIClockModel) -> Int? { APA102Encoder(count: count).frameLength }

    package func build(on buses: any Buses, spiClock: SPIClockModel) throws(DeviceError) -> DeviceDriver {
        .chain(try APA102Strip(bus: try buses.spi(bus, clock: spiClock), count: count), layout: layout, matrix: matrix, clock: buses.clock)
    }
}
