import Foundation
import Headway
@testable import HeadwayService
import Testing

/// Colour TFT outputs in a configuration, their presets and doctor's checks: every module read as
/// written, every mistake refused with its line, key and fix, each HAT wired as its maker says, and
/// a kernel display driver on the bus found and named.
@Suite("Configuration of colour TFTs")
struct TFTConfigurationTests {
    static func output(_ lines: String) -> String { "outputs:\n  - name: tft\n" + lines.split(separator: "\n").map { "    \($0)\n" }.joined() }

    static func settings(_ yaml: String) throws -> TFTSettings {
        let configuration = try ConfigurationLoader.parse(yaml, source: "t.yaml")
        return try #require(configuration.outputs[0].device as? TFTSettings)
    }

    @Test func aModuleBySizeWithItsLinesRotationAndClock() throws {
        let tft = try Self.settings("board: raspberry-pi-4\n" + Self.output(
            "driver: st7789\nbus: header-ce1\ndc: 9\nbacklight: 13\nsize: 320x240\nrotation: 90\nspeed-hz: 40000000\nstyle: ring"))
        #expect(tft.configuration.module == .displayHATMini && tft.configuration.rotation == .quarter)
        #expect(tft.configuration.width == 240 && tft.configuration.height == 320, "a quarter turn makes the landscape glass a portrait picture")
        #expect(tft.bus == "/dev/spidev0.1" && tft.chip == "pinctrl-bcm2711" && tft.dataCommand == 9 && tft.reset == nil)
        #expect(tft.backlight == .line(13, activeLow: false) && tft.speedHz == 40_000_000 && tft.ring)
        #expect(tft.claims.map(\.name) == ["SPI bus spi0.1", "GPIO line 9 of pinctrl-bcm2711", "GPIO line 13 of pinctrl-bcm2711"])
    }

    @Test func eachDriverTakesItsModulesAndTheControllersFastestClockByDefault() throws {
        let st7735 = try Self.settings(Self.output("driver: st7735\nbus: spi0.0\ndc: 25\nreset: 27\nsize: 128x128"))
        #expect(st7735.configuration.module == .waveshare144 && st7735.speedHz == 15_151_515 && st7735.reset == 27)
        let mini = try Self.settings(Self.output("driver: st7735\nbus: spi0.0\ndc: 25\nsize: 160x80"))
        #expect(mini.configuration.module == .st7735rMini160x80 && mini.configuration.width == 160 && mini.configuration.height == 80,
                "a 160x80 module, sold upright as 80x160, is shown as written")
        let pitft = try Self.settings(Self.output("driver: ili9341\nbus: spi0.0\ndc: 25\nmodule: pitft-28\npixel-format: rgb666"))
        #expect(pitft.configuration.module == .piTFT28 && pitft.speedHz == 10_000_000 && pitft.configuration.pixelFormat == .rgb666)
        let dimmed = try Self.settings(Self.output("driver: st7789\nbus: spi0.1\ndc: 9\nmodule: display-hat-mini\nbacklight: 13\nbacklight-pwm: pwmchip0/pwm1"))
        #expect(dimmed.backlight == .pwm("pwmchip0/1", frequencyHz: 1000))
        #expect(dimmed.claims.contains { $0.resource == .file("/sys/class/pwm/pwmchip0", madeBy: $0.resource.madeBy) && $0.key == "backlight-pwm" })
        let panel = try Self.settings(Self.output("driver: st7735\nbus: spi0.0\ndc: 25\nmodule: st7735r-black-tab\ninvert: true\ncolour-order: bgr"))
        #expect(panel.configuration.inverted && panel.configuration.orientation.madctl & 0x08 != 0)
    }

    @Test(arguments: [
        ("driver: st7789\nbus: spi0.0\ndc: 25\nsize: 128x64", 6, "outputs[0].size",
         "ST7789 modules come in 320x240, 240x135, 240x240, not 128x64; 128x64 modules are driven by ssd1306 (an OLED) or sh1106 (an OLED) or ssd1309 (an OLED) or ssd1305 (an OLED) or ssd1315 (an OLED): set driver: accordingly"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nsize: 128x128", 6, "outputs[0].size", "128x128 modules are driven by st7735 or sh1107 (an OLED) or ssd1327 (an OLED)"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nsize: 240x240\nrotation: 45", 7, "outputs[0].rotation", "\"45\" is not one of 0, 90, 180, 270"),
        ("driver: ili9341\nbus: spi0.0\ndc: 25\nsize: 320x240\nspeed-hz: 64000000", 7, "outputs[0].speed-hz",
         "the Adafruit PiTFT 2.2\"/2.8\"'s ILI9341 takes at most 10000000 Hz (its datasheet's serial write cycle); leave speed-hz out for that"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nmodule: waveshare-lcd-144", 6, "outputs[0].module",
         "the Waveshare 1.44\" LCD HAT carries an ST7735S, not an ST7789: set driver: st7735"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nmodule: display-hat", 6, "outputs[0].module", "\"display-hat\" is not a module Headway knows; one of display-hat-mini, mini-pitft-114"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nmodule: mini-pitft-13\nsize: 240x135", 7, "outputs[0].size", "the Adafruit Mini PiTFT 1.3\" is 240x240, not 240x135; leave size out"),
        ("driver: st7789\nbus: spi0.0\nsize: 240x240", 4, "outputs[0].dc", "missing: a TFT on SPI needs its D/C line (dc: 25, or dc: pin 22)"),
        ("driver: st7789\nbus: i2c-1\ndc: 25\nsize: 240x240", 4, "outputs[0].bus", "ST7789 modules are on SPI, not i2c-1"),
        ("driver: st7789\nbus: spi0.0\ndc: 25", 3, "outputs[0].size", "missing: ST7789 modules come in 320x240, 240x135, 240x240; give size:"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nsize: 240x240\nbacklight-pwm: gpio13", 7, "outputs[0].backlight-pwm", "\"gpio13\" is not a PWM channel; write pwmchipN/M"),
        ("driver: st7789\nbus: spi0.0\ndc: 25\nsize: 240x240\naddress: 0x3c", 7, "outputs[0].address", "unknown key"),
    ] as [(String, Int, String, String)])
    func mistakesAreRefusedWithTheirFix(lines: String, line: Int, key: String, message: String) {
        expectRefusal(Self.output(lines), line: line, key: key, says: message)
    }

    /// A D/C line that a button already uses, and an SPI bus another output drives, are refused.
    @Test func aHeldLineOrBusIsRefusedNamingBoth() {
        #expect {
            _ = try ConfigurationLoader.parse("hats: [pimoroni-display-hat-mini]\nbuttons:\n  - line: 9\n", source: "clash.yaml")
        } throws: { error in
            (error as! ConfigurationError).message.contains("needs GPIO line 9 of auto, which is already used by output display (HAT pimoroni-display-hat-mini)")
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse("hats: [adafruit-mini-pitft-1in3]\n" + "outputs:\n  - name: ring\n    driver: ws2812\n    bus: spi0.0\n    count: 12\n", source: "bus.yaml")
        }
    }

    @Test func theHatsAreWiredAsTheirMakersSay() throws {
        func hat(_ name: String) throws -> (TFTSettings, ServiceConfiguration) {
            let configuration = try Presets.configuration(board: "raspberry-pi-4", hats: [name])
            return (try #require(configuration.outputs[0].device as? TFTSettings), configuration)
        }
        // Pimoroni's displayhatmini-python: CE1, D/C 9, backlight 13; A 5, B 6, X 16, Y 24; LED 17, 27, 22 lit low.
        let (mini, miniConfiguration) = try hat("pimoroni-display-hat-mini")
        #expect(mini.configuration.module == .displayHATMini && mini.bus == "/dev/spidev0.1" && mini.dataCommand == 9 && mini.reset == nil)
        #expect(mini.backlight == .line(13, activeLow: false) && miniConfiguration.buttons.map(\.line) == [5, 6, 16, 24])
        let led = try #require(miniConfiguration.outputs[1].device as? GPIOLEDsSettings)
        #expect(led.lines == [17, 27, 22] && led.activeLow && led.rgb)
        // Adafruit's RGB_Display examples: CE0, D/C 25, backlight 22; buttons 23 and 24.
        for name in ["adafruit-mini-pitft-1in14", "adafruit-mini-pitft-1in3"] {
            let (pitft, configuration) = try hat(name)
            #expect(pitft.bus == "/dev/spidev0.0" && pitft.dataCommand == 25 && pitft.backlight == .line(22, activeLow: false))
            #expect(configuration.buttons.map(\.line) == [23, 24])
        }
        // Waveshare's demos: CE0, D/C 25, RES# 27, backlight 24; keys 21, 20, 16 and the joystick.
        for name in ["waveshare-lcd-hat-1in3", "waveshare-lcd-hat-1in44"] {
            let (lcd, configuration) = try hat(name)
            #expect(lcd.dataCommand == 25 && lcd.reset == 27 && lcd.backlight == .line(24, activeLow: false))
            #expect(configuration.buttons.map(\.line) == [21, 20, 16, 6, 19, 5, 26, 13])
        }
        let (pitft, buttons) = try hat("adafruit-pitft-2in8")
        #expect(pitft.configuration.controller == .ili9341 && pitft.backlight == .none && buttons.buttons.map(\.line) == [17, 22, 23, 27])
    }

    @Test func doctorFindsAKernelDisplayDriverOnTheBusAndNamesTheOverlay() throws {
        let hat = try Presets.configuration(board: "raspberry-pi-4", hats: ["adafruit-mini-pitft-1in14"])
        let taken = try DoctorTests.Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=spi=on\ndtoverlay=minipitft114,rotate=90\n",
                                            devices: ["/dev/gpiochip0"])
        defer { taken.remove() }
        let link = taken.root.appendingPathComponent("sys/bus/spi/devices/spi0.0")
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.appendingPathComponent("driver").path, withDestinationPath: "../../../bus/spi/drivers/fb_st7789v")
        let findings = taken.doctor(hat)
        let overlay = findings.first { $0.check == "tft-overlay" }
        #expect(overlay?.status == .fail && overlay?.summary.contains("dtoverlay=minipitft114") == true, "\(findings)")
        #expect(overlay?.fix == "remove the `dtoverlay=minipitft114` line (keep `dtparam=spi=on`), then reboot")
        let driver = findings.first { $0.check == "tft-spi" }
        #expect(driver?.summary == "display: spi0.0 is held by the kernel driver fb_st7789v, not spidev", "\(findings)")

        let clean = try DoctorTests.Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=spi=on\n", devices: ["/dev/gpiochip0", "/dev/spidev0.0"])
        defer { clean.remove() }
        let good = clean.doctor(hat, probe: DoctorTests.RecordedProbe(chips: [DoctorDisplayTests.bcm2711]))
        #expect(good.filter { $0.status == .fail }.isEmpty, "\(good)")
        #expect(good.contains { $0.check == "gpio-chip" && $0.summary.contains("25") && $0.summary.contains("23") }, "D/C, backlight and buttons checked")
    }

    @Test func doctorAsksForThePWMOverlayOfADimmedBacklight() throws {
        let yaml = "board: raspberry-pi-4\n" + Self.output("driver: st7789\nbus: header-ce1\ndc: 9\nmodule: display-hat-mini\nbacklight: 13\nbacklight-pwm: pwmchip0/1")
        let configuration = try ConfigurationLoader.parse(yaml, source: "t.yaml")
        let machine = try DoctorTests.Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "dtparam=spi=on\n", devices: ["/dev/spidev0.1"])
        defer { machine.remove() }
        let findings = machine.doctor(configuration)
        #expect(findings.contains { $0.check == "backlight-pwm" && $0.status == .fail && $0.fix?.hasPrefix("add `dtoverlay=pwm,pin=13,func=4`") == true }, "\(findings)")
        #expect(findings.contains { $0.check == "device-node" && $0.status == .fail && $0.summary == "tft: /sys/class/pwm/pwmchip0 does not exist" })
    }
}

extension DeviceClaim.Resource {
    /// What makes a file claim's file, for comparing claims.
    var madeBy: String {
        if case .file(_, let madeBy) = self { return madeBy }
        return ""
    }
}
