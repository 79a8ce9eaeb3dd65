import Foundation
import Headway
@testable import HeadwayService
import Testing

/// The board and HAT presets of Boards/: each read, checked against its maker's pinout as written
/// in its file, and combined the way people combine them.
@Suite("Board and HAT presets")
struct PresetTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Boards")
    static let boards = ["raspberry-pi-3", "raspberry-pi-4", "raspberry-pi-5", "raspberry-pi-cm4", "raspberry-pi-zero-2-w"]
    static let hats = [
        "adafruit-7segment", "adafruit-8x8-matrix", "adafruit-bicolour-bargraph", "adafruit-mini-pitft-1in14", "adafruit-mini-pitft-1in3",
        "adafruit-oled-bonnet", "adafruit-oled-bonnet-2in23", "adafruit-pioled", "adafruit-pitft-2in8", "button-gpio17", "max7219-4in1",
        "pimoroni-blinkt", "pimoroni-display-hat-mini", "pimoroni-led-shim", "pimoroni-scroll-phat-hd", "respeaker-2-mics", "seeed-grove-oled-1in12",
        "sh1107-128x128", "ssd1306-128x64", "ssd1306-spi", "ssd1309-2in42", "waveshare-lcd-hat-1in3", "waveshare-lcd-hat-1in44", "waveshare-oled-hat",
        "ws2812-matrix-32x8", "ws2812-matrix-8x8", "ws2812-ring",
    ]

    /// The presets built into the programs are the files in Boards/ (Scripts/embed-boards writes
    /// them), so `--board NAME --hat NAME` finds them from any directory.
    @Test func builtInPresetsAreTheFilesInBoards() throws {
        var keys: [String] = []
        for kind in ["", "boards/", "hats/"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(kind).path).filter { $0.hasSuffix(".yaml") }
            keys += files.map { kind + String($0.dropLast(5)) }
        }
        #expect(Set(keys) == Set(Presets.embedded.keys), "run Scripts/embed-boards")
        for key in keys {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(key + ".yaml"), encoding: .utf8)
            let normalised = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacing(#/\s+$/#, with: "") }
                .joined(separator: "\n").trimmingCharacters(in: .newlines)
            #expect(Presets.embedded[key] == normalised, "\(key).yaml: run Scripts/embed-boards")
        }
        #expect(Presets.names(.board) == Self.boards)
        #expect(Presets.names(.hat) == Self.hats)
    }

    @Test(arguments: boards)
    func everyBoardIsRead(name: String) throws {
        let board = try Presets.board(named: name)
        #expect(!board.models.isEmpty && board.i2cBus == "/dev/i2c-1" && board.spiBus == "/dev/spidev0")
        #expect(board.configTxt == "/boot/firmware/config.txt")
        #expect(["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"].contains(board.gpioChip), "the labels GpiodChip looks for")
        // The SPI clock model is the one the board's core clock calls for (RaspberryPiModel).
        for model in board.models {
            switch model.steadySPIClock?.first?.value {
            case "250": #expect(board.spiClock == .raspberryPi3)
            case "500": #expect(board.spiClock == .raspberryPi4)
            default: #expect(board.spiClock == .exact)
            }
        }
    }

    /// Every HAT on every board loads, with every `header` resolved to the board's chip and buses.
    @Test(arguments: boards)
    func everyHatFitsEveryBoard(board: String) throws {
        let preset = try Presets.board(named: board)
        for hat in Self.hats {
            // A button drives nothing by itself: it comes with something to show.
            let configuration = try Presets.configuration(board: board, hats: hat == "button-gpio17" ? ["ws2812-ring", hat] : [hat])
            #expect(configuration.spiClock == preset.spiClock)
            for output in configuration.outputs {
                for claim in output.device.claims {
                    switch claim.resource {
                    case .spiBus(let bus): #expect(bus.hasPrefix("spi0."), "\(hat)")
                    case .i2cAddress(let bus, _, _): #expect(bus == "i2c-1", "\(hat)")
                    case .gpioLine(let chip, _): #expect(chip == preset.gpioChip, "\(hat)")
                    case .file: Issue.record("no HAT uses /dev/leds0")
                    }
                }
                #expect(output.hat != nil)
            }
            #expect(configuration.buttons.allSatisfy { $0.chip == preset.gpioChip && $0.activeLow && $0.bias == .pullUp })
        }
    }

    /// Each HAT as its maker's pinout has it.
    @Test func hatsAreWiredAsTheirMakersSay() throws {
        func only(_ hat: String, on board: String = "raspberry-pi-5") throws -> ServiceConfiguration { try Presets.configuration(board: board, hats: [hat]) }
        let blinkt = try only("pimoroni-blinkt")
        guard let stick = blinkt.outputs[0].device as? APA102GPIOSettings, stick.chip == "pinctrl-rp1", stick.data == 23, stick.clock == 24, stick.count == 8 else {
            Issue.record("\(blinkt.outputs)"); return
        }
        let pioled = try only("adafruit-pioled")
        guard let small = Self.oled(pioled.outputs[0], onI2C: "/dev/i2c-1") else { Issue.record("\(pioled.outputs)"); return }
        #expect(small.width == 128 && small.height == 32 && small.address == 0x3C && small.controller == .ssd1306)
        let bonnet = try only("adafruit-oled-bonnet", on: "raspberry-pi-4")
        guard let large = (bonnet.outputs[0].device as? OLEDSettings)?.configuration else { Issue.record("\(bonnet.outputs)"); return }
        #expect(large.height == 64 && large.address == 0x3C)
        #expect(bonnet.buttons.map(\.line) == [5, 6, 4, 17, 22, 27, 23] && bonnet.buttons.allSatisfy { $0.chip == "pinctrl-bcm2711" })
        let respeaker = try only("respeaker-2-mics")
        guard let leds = respeaker.outputs[0].device as? APA102Settings, leds.bus == "/dev/spidev0.1", leds.count == 3 else { Issue.record("\(respeaker.outputs)"); return }
        #expect(respeaker.buttons.map(\.line) == [17])
        let ring = try only("ws2812-ring", on: "raspberry-pi-3")
        guard let chain = ring.outputs[0].device as? WS2812Settings, chain.bus == "/dev/spidev0.0", chain.chain.count == 24, chain.chain.order == .grb, chain.layout.isRing else {
            Issue.record("\(ring.outputs)"); return
        }
        #expect(ring.spiClock == .raspberryPi3 && ring.outputs[0].pipeline.budget != nil)
        let oled = try only("ssd1306-128x64")
        guard let generic = Self.oled(oled.outputs[0], onI2C: "/dev/i2c-1") else { Issue.record("\(oled.outputs)"); return }
        #expect(generic.width == 128 && generic.height == 64 && generic.address == 0x3C)
    }

    /// The display modules, as their makers wire them (docs/oled-controllers.md §8).
    @Test func displayModulesAreWiredAsTheirMakersSay() throws {
        func display(_ hat: String) throws -> (DisplayLink, OLEDConfiguration, [ButtonConfiguration]) {
            let configuration = try Presets.configuration(board: "raspberry-pi-4", hats: [hat])
            guard let oled = configuration.outputs[0].device as? OLEDSettings else { throw ConfigurationError(file: hat, line: nil, key: nil, "not a display") }
            return (oled.link, oled.configuration, configuration.buttons)
        }
        // Waveshare 1.3" OLED HAT: SH1106 on SPI0 CE0, D/C GPIO 24, reset 25; KEY1-3 21/20/16,
        // joystick up/down/left/right/press 6/19/5/26/13, to ground.
        let (hatLink, hatOLED, keys) = try display("waveshare-oled-hat")
        #expect(hatLink == .spi(bus: "/dev/spidev0.0", chip: "pinctrl-bcm2711", dataCommand: 24, reset: 25, speedHz: 4_000_000))
        #expect(hatOLED.controller == .sh1106 && hatOLED.module.size == "128x64")
        #expect(keys.map(\.line) == [21, 20, 16, 6, 19, 5, 26, 13] && keys.allSatisfy { $0.activeLow && $0.bias == .pullUp })
        // Adafruit 2.23" bonnet: SSD1305 128x32 at 0x3C, reset on GPIO 4.
        let (bonnetLink, bonnet, _) = try display("adafruit-oled-bonnet-2in23")
        #expect(bonnetLink == .i2c(bus: "/dev/i2c-1", chip: "pinctrl-bcm2711", reset: 4))
        #expect(bonnet.controller == .ssd1305 && bonnet.module.size == "128x32" && bonnet.address == 0x3C)
        let (_, square, _) = try display("sh1107-128x128")
        #expect(square.controller == .sh1107 && square.module.size == "128x128" && square.address == 0x3C)
        let (_, grove, _) = try display("seeed-grove-oled-1in12")
        #expect(grove.controller == .ssd1327 && grove.module.size == "96x96" && grove.address == 0x3C)
        // Waveshare's 2.42" SSD1309 wiring: DC GPIO 25, RES GPIO 27, CE0.
        let (wideLink, wide, _) = try display("ssd1309-2in42")
        #expect(wideLink == .spi(bus: "/dev/spidev0.0", chip: "pinctrl-bcm2711", dataCommand: 25, reset: 27, speedHz: 10_000_000) && wide.controller == .ssd1309)
        // luma.oled's documented wiring of a 7-pin SSD1306: DC GPIO 24, RST GPIO 25, CE0.
        let (spiLink, spi, _) = try display("ssd1306-spi")
        #expect(spiLink == .spi(bus: "/dev/spidev0.0", chip: "pinctrl-bcm2711", dataCommand: 24, reset: 25, speedHz: 10_000_000) && spi.controller == .ssd1306)
    }

    /// HATs that want the same pin are refused, naming both (the Bonnet's joystick and Blinkt!'s
    /// clock share GPIO 23; the ReSpeaker's button is on GPIO 17).
    @Test func hatsThatShareAPinAreRefusedNamingBoth() {
        #expect {
            _ = try Presets.configuration(board: "raspberry-pi-5", hats: ["pimoroni-blinkt", "adafruit-oled-bonnet"])
        } throws: { error in
            "\(error)" == "--board raspberry-pi-5 --hat pimoroni-blinkt --hat adafruit-oled-bonnet: buttons[6].line: button 7 (HAT adafruit-oled-bonnet) needs GPIO line 23 of pinctrl-rp1, which is already used by output blinkt (HAT pimoroni-blinkt); each bus, address and GPIO line serves one output or button"
        }
        #expect(throws: ConfigurationError.self) { try Presets.configuration(board: "raspberry-pi-4", hats: ["respeaker-2-mics", "button-gpio17"]) }
        #expect(throws: ConfigurationError.self) { try Presets.configuration(board: "raspberry-pi-4", hats: ["adafruit-pioled", "ssd1306-128x64"]) }
        // Wired to different pins and buses, they go together.
        let together = try? Presets.configuration(board: "raspberry-pi-4", hats: ["pimoroni-blinkt", "adafruit-pioled", "ws2812-ring", "button-gpio17"])
        #expect(together?.outputs.map(\.name) == ["blinkt", "pioled", "ring"])
    }

    /// A configuration file combines a board, HATs and outputs of its own; `header` works there too.
    @Test func aFileCombinesABoardHatsAndItsOwnOutputs() throws {
        let configuration = try ConfigurationLoader.parse("""
            board: raspberry-pi-5
            hats: [pimoroni-blinkt]
            outputs:
              - name: status
                driver: gpio-leds
                lines: [5]
              - name: strip
                driver: apa102
                bus: header-ce1
                count: 30
            """, source: "mine.yaml")
        #expect(configuration.outputs.map(\.name) == ["blinkt", "status", "strip"])
        guard let status = configuration.outputs[1].device as? GPIOLEDsSettings, status.chip == "pinctrl-rp1", status.lines == [5], !status.activeLow,
            let strip = configuration.outputs[2].device as? APA102Settings, strip.bus == "/dev/spidev0.1", strip.count == 30
        else {
            Issue.record("\(configuration.outputs)"); return
        }
        #expect(configuration.board?.title == "Raspberry Pi 5" && configuration.hats == ["Pimoroni Blinkt!"])
    }

    @Test(arguments: [
        ("board: Raspberry Pi 5\noutputs:\n  - name: a\n    driver: leds0\n    count: 8\n", 1, "board", "\"Raspberry Pi 5\" is not a board preset; the boards are raspberry-pi-3, raspberry-pi-4, raspberry-pi-5, raspberry-pi-cm4, raspberry-pi-zero-2-w"),
        ("board: raspberry-pi-4\nhats: [blinkt]\n", 2, "hats", "\"blinkt\" is not a HAT preset; the HATs are adafruit-7segment, adafruit-8x8-matrix, adafruit-bicolour-bargraph, adafruit-mini-pitft-1in14, adafruit-mini-pitft-1in3, adafruit-oled-bonnet, "),
        ("hats: pimoroni-blinkt\n", 1, "hats", "must be a list of HAT presets"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: header-ce2\n", 4, "outputs[0].bus", "header-ce2 is not a header bus; use header (I2C), or header-ce0 or header-ce1 for a display on SPI"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: header-ce1\n", 4, "outputs[0].dc", "missing: a display on SPI needs its D/C line"),
    ] as [(String, Int, String, String)])
    func presetMistakesAreExplained(yaml: String, line: Int, key: String, message: String) {
        expectRefusal(yaml, line: line, key: key, says: message)
    }

    /// Without a board, `header` means what it means on every 40-pin Pi, and the chip is found
    /// by label when the service starts.
    @Test func withoutABoardTheHeaderIsTheUsualOne() throws {
        let configuration = try ConfigurationLoader.parse("hats: [adafruit-pioled]\noutputs:\n  - name: ring\n    driver: ws2812\n    bus: header\n    count: 12\n", source: "plain.yaml")
        guard Self.oled(configuration.outputs[0], onI2C: "/dev/i2c-1") != nil, let ring = configuration.outputs[1].device as? WS2812Settings,
            ring.bus == "/dev/spidev0.0", ring.chain.count == 12
        else {
            Issue.record("\(configuration.outputs)"); return
        }
        #expect(configuration.spiClock == .exact)
        let button = try ConfigurationLoader.parse("hats: [button-gpio17]\noutputs:\n  - name: a\n    driver: leds0\n    count: 8\n", source: "b.yaml").buttons[0]
        #expect(button.chip == "auto")
    }

    /// The CLI's options: a board alone drives nothing (but doctor may check it), a HAT needs a board.
    @Test func optionsSayWhatIsMissing() throws {
        let alone = ConfigurationChoice(board: "raspberry-pi-4", hats: [], config: nil)
        #expect(throws: ConfigurationError.self) { try alone.load(fallback: Presets.simulatorRig) }
        #expect(try alone.load(fallback: Presets.simulatorRig, boardAlone: true).outputs.isEmpty)
        #expect(ConfigurationChoice(board: nil, hats: ["pimoroni-blinkt"], config: nil).problem?.hasPrefix("--hat needs the board it sits on") == true)
        #expect(ConfigurationChoice(board: "raspberry-pi-4", hats: [], config: "x.yaml").problem != nil)
        #expect(try ConfigurationChoice(board: nil, hats: [], config: nil).load(fallback: Presets.simulatorRig).outputs.count == 5)
    }

    /// docs/configuration.md's example, every key in it, is a configuration that loads.
    @Test func theDocumentedExampleLoads() throws {
        let text = try String(contentsOf: Self.folder.deletingLastPathComponent().appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```yaml\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let configuration = try ConfigurationLoader.parse(String(text[start.upperBound..<end.lowerBound]), source: "docs/configuration.md")
        #expect(configuration.board?.name == "raspberry-pi-5" && configuration.hats == ["ReSpeaker 2-Mics Pi HAT"])
        #expect(configuration.outputs.count == 13 && configuration.buttons.count == 2)
    }

    /// The module of an OLED output on I2C bus `bus` without a reset line, drawn as a bar.
    static func oled(_ output: OutputConfiguration, onI2C bus: String) -> OLEDConfiguration? {
        guard let settings = output.device as? OLEDSettings, case .i2c(bus, _, nil) = settings.link, !settings.ring else { return nil }
        return settings.configuration
    }
}
