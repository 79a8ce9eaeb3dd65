import Foundation
import Headway
@testable import HeadwayService
import Testing

@Suite("Configuration files and board presets")
struct ConfigurationTests {
    static let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Boards")

    @Test(arguments: ["simulator", "raspberry-pi-4", "raspberry-pi-5"])
    func presetsLoad(name: String) throws {
        let configuration = try ConfigurationLoader.load(path: Self.presets.appendingPathComponent(name + ".yaml").path)
        #expect(!configuration.outputs.isEmpty)
        #expect(configuration.buttons.count == 1)
    }

    @Test func piPresetsHaveARingOnSPI0AnOLEDOnI2C1AndAButton() throws {
        for name in ["raspberry-pi-4", "raspberry-pi-5"] {
            let configuration = try ConfigurationLoader.load(path: Self.presets.appendingPathComponent(name + ".yaml").path)
            #expect(configuration.outputs.contains { if case .ws2812(let bus, 24, let layout, _, _, _) = $0.device { bus == "/dev/spidev0.0" && layout.isRing } else { false } })
            #expect(configuration.outputs.contains { if case .oled(let bus, _, _) = $0.device { bus == "/dev/i2c-1" } else { false } })
        }
    }

    @Test(arguments: [
        ("outputs: []\n", 1, "outputs", "at least one output"),
        ("outputs:\n  - name: a\n    driver: ws2812\n    bus: spi0.0\n    count: 0\n", 5, "outputs[0].count", "out of range"),
        ("outputs:\n  - name: a\n    driver: neon\n", 3, "outputs[0].driver", "not a driver"),
        ("outputs:\n  - name: a\n    driver: ssd1306\n    bus: i2c-1\n    size: 100x100\n", 5, "outputs[0].size", "128x64"),
        ("outputs:\n  - name: a\n    driver: ws2812\n    bus: spi0.0\n    count: 8\n    colour: red\n", 6, "outputs[0].colour", "unknown key"),
        ("appearance:\n  tint: blue\noutputs:\n  - name: a\n    driver: leds0\n    count: 8\n", 2, "appearance.tint", "#rrggbb"),
        ("outputs:\n  - name: a\n    driver: leds0\n    count: 8\n  - name: a\n    driver: leds0\n    count: 8\n", 5, "outputs[1].name", "used twice"),
        ("outputs: [\n", 2, nil, "not valid YAML"),
    ] as [(String, Int, String?, String)])
    func mistakesCiteLineAndKey(yaml: String, line: Int, key: String?, message: String) {
        #expect {
            _ = try ConfigurationLoader.parse(yaml, source: "test.yaml")
        } throws: { error in
            let error = error as! ConfigurationError
            return error.file == "test.yaml" && error.line == line && error.key == key && error.description.contains(message)
        }
    }
}
