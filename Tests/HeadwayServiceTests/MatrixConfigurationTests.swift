import Foundation
import Headway
@testable import HeadwayService
import Testing

/// LED matrix chips and chains laid out as matrices in a configuration: each read as written,
/// every mistake refused with its line, key and fix, and what doctor says of them.
@Suite("Configuration of LED matrices")
struct MatrixConfigurationTests {
    static func output(_ lines: String) -> String { "outputs:\n  - name: matrix\n" + lines.split(separator: "\n").map { "    \($0)\n" }.joined() }

    static func settings<T>(_ lines: String, as type: T.Type) throws -> T? {
        try ConfigurationLoader.parse(Self.output(lines), source: "t.yaml").outputs[0].device as? T
    }

    @Test func eachChipReadsAsWritten() throws {
        let bargraph = try #require(try Self.settings("driver: ht16k33\nbus: header\nlayout: bargraph24\naddress: 0x72\nrotation: 180", as: HT16K33Settings.self))
        #expect(bargraph.bus == "/dev/i2c-1" || bargraph.bus == "i2c-1")
        #expect(bargraph.configuration == .init(backpack: .bargraph24, address: 0x72, rotation: .half))
        #expect(bargraph.claims.first?.resource == .i2cAddress(bus: "i2c-1", address: 0x72, alternatives: [0x70, 0x71, 0x73, 0x74, 0x75, 0x76, 0x77]))
        let bicolour = try #require(try Self.settings("driver: ht16k33\nbus: i2c-1\nlayout: matrix8x8-bicolor", as: HT16K33Settings.self))
        #expect(bicolour.configuration.backpack == .matrix8x8Bicolour && bicolour.configuration.address == 0x70)
        let shim = try #require(try Self.settings("driver: is31fl3731\nbus: i2c-1\nlayout: led-shim\ngamma: 2.2", as: IS31FL3731Settings.self))
        #expect(shim.configuration.address == 0x75, "the LED SHIM comes at 0x75")
        let scroll = try #require(try Self.settings("driver: is31fl3731\nbus: i2c-1\nlayout: scroll-phat-hd\nrotation: 180", as: IS31FL3731Settings.self))
        #expect(scroll.configuration == .init(board: .scrollPHATHD, address: 0x74, rotation: .half))
        let fc16 = try #require(try Self.settings("driver: max7219\nbus: header\nlayout: fc16\nrotation: 180", as: MAX7219Settings.self))
        #expect(fc16.configuration == .init(layout: .fc16, devices: 4, rotation: .half))
        #expect(fc16.frameBytes(spiClock: .exact) == 8)
        let digits = try #require(try Self.settings("driver: max7219\nbus: spi0.1\nlayout: segments8\nchain: 2\nspeed-hz: 5000000", as: MAX7219Settings.self))
        #expect(digits.configuration == .init(layout: .segments8, devices: 2, speedHz: 5_000_000))
    }

    @Test func aChainLaidOutAsAMatrix() throws {
        let panel = try #require(try Self.settings(
            "driver: ws2812\nbus: spi0.0\ncount: 512\ncurrent-budget-ma: 2500\nmatrix:\n  width: 32\n  height: 8\n  start: bottom-right\n  lines: columns\n  wiring: serpentine\n  panels: 1x2\n  panel-start: bottom-left\n  rotation: 90",
            as: WS2812Settings.self))
        let layout = try #require(panel.matrix)
        #expect(layout.width == 32 && layout.height == 8 && layout.panelsAcross == 1 && layout.panelsDown == 2)
        #expect(layout.wiring == .init(start: .bottomRight, lines: .columns, serpentine: true))
        #expect(layout.panelWiring == .init(start: .bottomLeft, lines: .rows, serpentine: false))
        #expect(layout.rotation == .quarter && layout.faceSize == (16, 32))
        #expect(panel.ledCount == 512, "the current budget and doctor count every LED")
        let plain = try #require(try Self.settings("driver: ws2812\nbus: spi0.0\ncount: 24\nlayout: ring", as: WS2812Settings.self))
        #expect(plain.matrix == nil)
        for driver in ["apa102\nbus: spi0.0", "leds0"] {
            let configuration = try ConfigurationLoader.parse(Self.output("driver: \(driver)\ncount: 64\nmatrix: {width: 8, height: 8}"), source: "t.yaml")
            let matrix = (configuration.outputs[0].device as? APA102Settings)?.matrix ?? (configuration.outputs[0].device as? RP1LEDSettings)?.matrix
            #expect(matrix?.ledCount == 64, "\(driver)")
        }
    }

    @Test(arguments: [
        ("driver: ht16k33\nbus: i2c-1", 3, "outputs[0].layout", "missing: the module the HT16K33 is on (bargraph24, matrix8x8, matrix8x8-bicolour, matrix16x8, segments4, alnum4"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: scroll-phat-hd", 5, "outputs[0].layout", "scroll-phat-hd is a layout of the IS31FL3731, not of the HT16K33: set driver: is31fl3731"),
        ("driver: is31fl3731\nbus: i2c-1\nlayout: fc16", 5, "outputs[0].layout", "fc16 is a layout of the MAX7219, not of the IS31FL3731: set driver: max7219"),
        ("driver: max7219\nbus: spi0.0\nlayout: bargraph24", 5, "outputs[0].layout", "bargraph24 is a layout of the HT16K33, not of the MAX7219: set driver: ht16k33"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: matrix32x8", 5, "outputs[0].layout", "\"matrix32x8\" is not a layout of the HT16K33; use one of bargraph24"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: matrix8x8\naddress: 0x3c", 6, "outputs[0].address", "the HT16K33 answers at 0x70–0x77 (1110 A2 A1 A0: its A0–A2 jumpers), not 0x3C"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: matrix8x8\naddress: 0xe0", 6, "outputs[0].address", "0xE0 is the 8-bit form (the address shifted left, with the write bit) of 0x70; write address: 0x70"),
        ("driver: is31fl3731\nbus: i2c-1\nlayout: led-shim\naddress: 0x70", 6, "outputs[0].address", "the IS31FL3731 answers at 0x74–0x77 (11101 AD: its AD pin to GND, SCL, SDA or VCC), not 0x70"),
        ("driver: ht16k33\nbus: spi0.0\nlayout: matrix8x8", 4, "outputs[0].bus", "the HT16K33 is on I2C, not SPI"),
        ("driver: max7219\nbus: i2c-1\nlayout: fc16", 4, "outputs[0].bus", "the MAX7219 is on SPI, not I2C"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: segments4\nrotation: 90", 6, "outputs[0].rotation", "a segment display reads only one way up; leave rotation out"),
        ("driver: max7219\nbus: spi0.0\nlayout: fc16\nchain: 3000", 6, "outputs[0].chain", "a chain of 3000 MAX7219s needs 6000-byte messages"),
        ("driver: max7219\nbus: spi0.0\nlayout: fc16\nspeed-hz: 20000000", 6, "outputs[0].speed-hz", "the MAX7219 takes at most 10 MHz"),
        ("driver: ht16k33\nbus: i2c-1\nlayout: matrix8x8\ngamma: 2", 6, "outputs[0].gamma", "unknown key"),
        ("driver: ws2812\nbus: spi0.0\ncount: 200\nmatrix: {width: 32, height: 8}", 6, "outputs[0].matrix", "32x8 is 256 LEDs, more than the chain's count: 200; set count: 256"),
        ("driver: ws2812\nbus: spi0.0\ncount: 256\nlayout: ring\nmatrix: {width: 32, height: 8}", 6, "outputs[0].layout", "is for a strip or a ring; a chain with matrix: is drawn as a picture"),
        ("driver: ws2812\nbus: spi0.0\ncount: 64\nmatrix: {width: 8}", 6, "outputs[0].matrix.height", "missing: the LEDs of one panel down"),
        ("driver: ws2812\nbus: spi0.0\ncount: 64\nmatrix: {width: 8, height: 8, start: middle}", 6, "outputs[0].matrix.start", "\"middle\" is not one of top-left, top-right, bottom-left, bottom-right"),
        ("driver: ws2812\nbus: spi0.0\ncount: 64\nmatrix: {width: 8, height: 8, panels: 2}", 6, "outputs[0].matrix.panels", "\"2\" is not ACROSSxDOWN"),
        ("driver: ws2812\nbus: spi0.0\ncount: 64\nmatrix: 8x8", 6, "outputs[0].matrix", "must be a mapping (width, height, start, lines, wiring, rotation, panels…)"),
    ] as [(String, Int, String, String)])
    func mistakesAreRefusedWithTheirFix(lines: String, line: Int, key: String, message: String) {
        expectRefusal(Self.output(lines), line: line, key: key, says: message)
    }

    /// Two backpacks at one address are refused, naming both.
    @Test func twoChipsAtOneAddressAreRefused() {
        let yaml = "outputs:\n  - name: a\n    driver: ht16k33\n    bus: i2c-1\n    layout: bargraph24\n  - name: b\n    driver: ht16k33\n    bus: i2c-1\n    layout: segments4\n"
        #expect {
            _ = try ConfigurationLoader.parse(yaml, source: "t.yaml")
        } throws: { ($0 as? ConfigurationError)?.message.contains("I2C address 0x70 on i2c-1") == true }
    }

    @Test func shorthandsNameEveryModule() throws {
        for (shorthand, driver) in [("ht16k33-bargraph24", "ht16k33"), ("ht16k33-alnum4", "ht16k33"), ("is31fl3731-led-shim", "is31fl3731"), ("max7219-fc16-4", "max7219"), ("panel32x8", "ws2812")] {
            let configuration = try DeviceCatalogue.configuration(shorthand: shorthand)
            #expect(configuration.outputs[0].device.driver == driver, "\(shorthand)")
        }
        #expect(throws: ConfigurationError.self) { try DeviceCatalogue.configuration(shorthand: "ht16k33-matrix9x9") }
        #expect(throws: ConfigurationError.self) { try DeviceCatalogue.configuration(shorthand: "max7219-fc16-0") }
    }

    /// Doctor knows each chip's addresses: a backpack strapped elsewhere is found there, and each
    /// chip's supply needs are said.
    @Test func doctorFindsABackpackStrappedElsewhereAndSaysWhatItNeeds() throws {
        let machine = try DoctorTests.Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: DoctorTests.pi4Config, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let yaml = "board: raspberry-pi-4\n" + Self.output("driver: ht16k33\nbus: header\nlayout: bargraph24")
            + "  - name: matrix\n    driver: max7219\n    bus: header\n    layout: fc16\n    chain: 4\n".replacingOccurrences(of: "name: matrix", with: "name: row")
        let configuration = try ConfigurationLoader.parse(yaml, source: "t.yaml")
        let findings = machine.doctor(configuration, probe: DoctorTests.RecordedProbe(chips: [], answers: [0x73: .acknowledged]))
        let moved = try #require(findings.first { $0.check == "i2c-address" })
        #expect(moved.status == .fail && moved.fix == "set `address: 0x73` for matrix (the module is wired for 0x73)")
        #expect(findings.contains { $0.check == "ht16k33-supply" && $0.status == .advice })
        #expect(findings.contains { $0.check == "max7219-logic" && $0.status == .advice })
        #expect(findings.contains { $0.check == "max7219-supply" && $0.summary == "row: 4 MAX7219s at 5 V may draw up to 1320 mA with every LED lit" && $0.fix != nil })
    }

    /// A 32x8 WS2812 panel at full white draws over 15 A: doctor says so, and the budget's dimming.
    @Test func doctorWeighsAPanelsCurrent() throws {
        let machine = try DoctorTests.Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: DoctorTests.pi4Config, devices: ["/dev/spidev0.0"])
        defer { machine.remove() }
        let bare = try ConfigurationLoader.parse(Self.output("driver: ws2812\nbus: spi0.0\ncount: 256\nmatrix: {width: 32, height: 8}"), source: "t.yaml")
        let power = try #require(machine.doctor(bare).first { $0.check == "power" })
        #expect(power.summary == "matrix: 256 LEDs could draw 15360 mA at full white, with no current-budget-ma set")
        let preset = try Presets.configuration(board: "raspberry-pi-4", hats: ["ws2812-matrix-32x8"])
        let budget = try #require(machine.doctor(preset).first { $0.check == "power" })
        #expect(budget.summary.hasPrefix("panel: 256 LEDs could draw 15360 mA at full white; frames are dimmed to"))
    }
}

extension MatrixConfigurationTests {
    /// The matrix presets, as their makers wire them.
    @Test func presetsAreWiredAsTheirMakersSay() throws {
        func device<T>(_ hat: String, as type: T.Type) throws -> T? { try Presets.configuration(board: "raspberry-pi-5", hats: [hat]).outputs[0].device as? T }
        #expect(try device("adafruit-bicolour-bargraph", as: HT16K33Settings.self)?.configuration == .init(backpack: .bargraph24, address: 0x70))
        #expect(try device("adafruit-8x8-matrix", as: HT16K33Settings.self)?.configuration == .init(backpack: .matrix8x8, address: 0x70))
        #expect(try device("adafruit-7segment", as: HT16K33Settings.self)?.configuration == .init(backpack: .segments4, address: 0x70))
        #expect(try device("pimoroni-scroll-phat-hd", as: IS31FL3731Settings.self)?.configuration == .init(board: .scrollPHATHD, address: 0x74))
        #expect(try device("pimoroni-led-shim", as: IS31FL3731Settings.self)?.configuration == .init(board: .ledSHIM, address: 0x75))
        let row = try #require(try device("max7219-4in1", as: MAX7219Settings.self))
        #expect(row.configuration == .init(layout: .fc16, devices: 4) && row.bus == "/dev/spidev0.0")
        let small = try #require(try device("ws2812-matrix-8x8", as: WS2812Settings.self)?.matrix)
        #expect(small.ledCount == 64 && small.wiring == .init(start: .topLeft, lines: .rows, serpentine: false))
        let wide = try #require(try device("ws2812-matrix-32x8", as: WS2812Settings.self)?.matrix)
        #expect(wide.faceSize == (32, 8) && wide.wiring == .init(start: .topLeft, lines: .columns, serpentine: true))
        // The Scroll pHAT HD and the LED SHIM sit together on one bus, at their two addresses.
        #expect(try Presets.configuration(board: "raspberry-pi-4", hats: ["pimoroni-scroll-phat-hd", "pimoroni-led-shim"]).outputs.count == 2)
    }
}
