import Foundation
import Headway
@testable import HeadwayService
import Testing

/// OLED outputs in a configuration: every controller and bus read as written, and every mistake
/// refused with its line, key and fix.
@Suite("Configuration of displays")
struct DisplayConfigurationTests {
    static func output(_ lines: String) -> String { "outputs:\n  - name: oled\n" + lines.split(separator: "\n").map { "    \($0)\n" }.joined() }

    @Test func everyControllerReadsWithItsDefaultSizeOnI2C() throws {
        for controller in OLEDController.allCases {
            let configuration = try ConfigurationLoader.parse(Self.output("driver: \(controller.rawValue)\nbus: i2c-1"), source: "t.yaml")
            guard let settings = configuration.outputs[0].device as? OLEDSettings, settings.link == .i2c(bus: "i2c-1", chip: "auto", reset: nil), !settings.ring else {
                Issue.record("\(controller): \(configuration.outputs[0].device)"); continue
            }
            let oled = settings.configuration
            #expect(oled.controller == controller && oled.module == controller.variant.modules[0] && oled.address == 0x3C)
        }
    }

    @Test func aDisplayOnSPIWithHeaderPinsAndARotation() throws {
        let yaml = "board: raspberry-pi-5\n" + Self.output("driver: ssd1327\nbus: header-ce1\ndc: pin 18\nreset: 27\nsize: 96x96\nrotation: 270\nspeed-hz: 4000000\nstyle: ring")
        let configuration = try ConfigurationLoader.parse(yaml, source: "t.yaml")
        guard let settings = configuration.outputs[0].device as? OLEDSettings, settings.ring,
            settings.link == .spi(bus: "/dev/spidev0.1", chip: "pinctrl-rp1", dataCommand: 24, reset: 27, speedHz: 4_000_000)
        else {
            Issue.record("\(configuration.outputs[0].device)"); return
        }
        let oled = settings.configuration
        #expect(oled.rotation == .threeQuarters && oled.module.size == "96x96")
        #expect(oled.width == 96 && oled.height == 96)
        let tall = try ConfigurationLoader.parse(Self.output("driver: sh1107\nbus: i2c-1\nsize: 64x128\nrotation: 90"), source: "t.yaml")
        guard let sideways = (tall.outputs[0].device as? OLEDSettings)?.configuration else { Issue.record("not a display"); return }
        #expect(sideways.width == 128 && sideways.height == 64, "a quarter turn makes the tall glass a landscape picture")
        let rotated = try ConfigurationLoader.parse(Self.output("driver: sh1106\nbus: i2c-1\nrotated: true"), source: "t.yaml")
        guard let turned = (rotated.outputs[0].device as? OLEDSettings)?.configuration else { Issue.record("not a display"); return }
        #expect(turned.rotation == .half, "rotated: true is a half turn")
    }

    @Test(arguments: [
        ("driver: ssd1306\nbus: i2c-1\nsize: 128x128", 5, "outputs[0].size",
         "ssd1306 modules come in 128x64, 128x32, 64x48, not 128x128; 128x128 modules are driven by sh1107 or ssd1327 (16 grey levels): set driver: accordingly"),
        ("driver: sh1106\nbus: i2c-1\nsize: 96x96", 5, "outputs[0].size", "96x96 modules are driven by ssd1327 (16 grey levels)"),
        ("driver: ssd1327\nbus: i2c-1\nsize: 128x64", 5, "outputs[0].size", "ssd1327 modules come in 128x128, 96x96, not 128x64; 128x64 modules are driven by ssd1306 or sh1106"),
        ("driver: ssd1306\nbus: spi0.0", 4, "outputs[0].dc", "missing: a display on SPI needs its D/C line (dc: 24, or dc: pin 18)"),
        ("driver: sh1106\nbus: spi0.0\ndc: 24\naddress: 0x3c", 6, "outputs[0].address", "an SPI display has no address (that is I2C)"),
        ("driver: sh1106\nbus: i2c-1\ndc: 24", 5, "outputs[0].dc", "is for a display on SPI, but bus i2c-1 is I2C; remove dc, or set bus: to an SPI bus"),
        ("driver: ssd1306\nbus: i2c-1\naddress: 0x78", 5, "outputs[0].address", "0x78 is the 8-bit form (the address shifted left, with the write bit) of 0x3C; write address: 0x3c"),
        ("driver: ssd1306\nbus: i2c-1\naddress: 0x27", 5, "outputs[0].address", "ssd1306 answers at 0x3C or 0x3D (its SA0 pin), not 0x27"),
        ("driver: ssd1306\nbus: i2c-1\nrotation: 90", 5, "outputs[0].rotation", "ssd1306 modules turn by 180° only (rotation: 180)"),
        ("driver: sh1107\nbus: i2c-1\nrotation: 45", 5, "outputs[0].rotation", "\"45\" is not one of 0, 90, 180, 270"),
        ("driver: sh1106\nbus: spi0.0\ndc: pin 6", 5, "outputs[0].dc", "header pin 6 is ground, not a GPIO line"),
        ("driver: sh1106\nbus: spi0.0\ndc: 24\nspeed-hz: 10000000", 6, "outputs[0].speed-hz", "sh1106 takes at most 4000000 Hz on SPI"),
        ("driver: ssd1306\nbus: i2c-1\nrotated: true\nrotation: 180", 5, "outputs[0].rotated", "give rotation: or rotated:, not both"),
        ("driver: ssd1351\nbus: i2c-1", 3, "outputs[0].driver", "\"ssd1351\" is not a driver; one of ws2812, apa102, apa102-gpio, leds0, ssd1306, sh1106, ssd1309, ssd1305, ssd1315, sh1107, ssd1327, st7789, st7735, ili9341, gpio-leds, ht16k33, is31fl3731, max7219"),
    ] as [(String, Int, String, String)])
    func mistakesAreRefusedWithTheirFix(lines: String, line: Int, key: String, message: String) {
        expectRefusal(Self.output(lines), line: line, key: key, says: message)
    }

    /// A D/C line that a button already uses is refused, naming both.
    @Test func aDataCommandLineAButtonUsesIsRefused() {
        let yaml = "hats: [waveshare-oled-hat]\nbuttons:\n  - line: 24\n"
        #expect {
            _ = try ConfigurationLoader.parse(yaml, source: "clash.yaml")
        } throws: { error in
            (error as! ConfigurationError).message == "button 9 needs GPIO line 24 of auto, which is already used by output oled-hat (HAT waveshare-oled-hat); each bus, address and GPIO line serves one output or button"
        }
    }
}
