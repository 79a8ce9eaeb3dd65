import Foundation
import Headway
@testable import HeadwayService
import Testing

@Suite("Configuration files and board presets")
struct ConfigurationTests {
    /// The keys of the liveness and overview work: focus, state directory, the alive-without-
    /// reports timing, and the looks of ended, overdue and the percentage.
    @Test func focusStateAndLooksAreRead() throws {
        let yaml = """
            focus: oldest
            state-directory: /var/lib/headway-test
            timings:
              alive-without-reports: 7200
            appearance:
              ended: "#102030"
              overdue: "#a000c0"
              percent: false
            outputs:
              - name: a
                driver: leds0
                count: 8

            """
        let configuration = try ConfigurationLoader.parse(yaml, source: "test.yaml")
        #expect(configuration.focus == .oldest && configuration.stateDirectory == "/var/lib/headway-test")
        #expect(configuration.policy.aliveWithoutReports == 7200)
        #expect(configuration.appearance.ended == Colour(red: 0x10, green: 0x20, blue: 0x30))
        #expect(configuration.appearance.overdue == Colour(red: 0xA0, green: 0, blue: 0xC0))
        #expect(!configuration.appearance.showsPercent)
        #expect(try ConfigurationLoader.parse("outputs:\n  - name: a\n    driver: leds0\n    count: 8\n", source: "t").focus == .urgent, "urgent by default")
    }

    @Test(arguments: [
        ("focus: loudest\n", "focus", "newest, oldest"),
        ("state-directory: state\n", "state-directory", "absolute path"),
        ("timings:\n  alive-without-reports: 5\n", "timings.alive-without-reports", "out of range"),
        ("appearance:\n  percent: maybe\n", "appearance.percent", "true or false"),
    ])
    func badNewKeysSayWhatToFix(yaml: String, key: String, message: String) {
        #expect {
            _ = try ConfigurationLoader.parse(yaml + "outputs:\n  - name: a\n    driver: leds0\n    count: 8\n", source: "test.yaml")
        } throws: { error in
            let error = error as! ConfigurationError
            return error.line == 1 || error.line == 2 ? error.key == key && error.description.contains(message) : false
        }
    }

    @Test(arguments: [
        ("outputs: []\n", 1, "outputs", "nothing to drive: list outputs, or HATs"),
        ("outputs:\n  - name: a\n    driver: ws2812\n    bus: spi0.0\n    count: 0\n", 5, "outputs[0].count", "out of range"),
        ("outputs:\n  - name: a\n    driver: neon\n", 3, "outputs[0].driver", "not a driver"),
        ("outputs:\n  - name: a\n    driver: ssd1306\n    bus: i2c-1\n    size: 100x100\n", 5, "outputs[0].size", "128x64"),
        ("outputs:\n  - name: a\n    driver: ws2812\n    bus: spi0.0\n    count: 8\n    colour: red\n", 6, "outputs[0].colour", "unknown key"),
        ("appearance:\n  tint: blue\noutputs:\n  - name: a\n    driver: leds0\n    count: 8\n", 2, "appearance.tint", "#rrggbb"),
        ("outputs:\n  - name: a\n    driver: leds0\n    count: 8\n  - name: a\n    driver: leds0\n    count: 8\n", 5, "outputs[1].name", "used twice"),
        ("outputs: [\n", 1, nil, "the [ opened on line 1 is never closed; add ]"),
        ("outputs: []\n---\noutputs: []\n", 2, nil, "a second document (after ---)"),
        ("outputs: " + String(repeating: "[", count: 70) + "\n", 1, nil, "nested more than 64 levels deep"),
        // Regression: a duplicate key printed the whole file with no line number.
        ("outputs:\n  - name: a\n    driver: leds0\n    count: 8\n    count: 9\n", 5, nil, "\"count\" appears more than once in the same mapping (lines 4 and 5)"),
        // Regression: a ring's start beyond its LEDs was accepted.
        ("outputs:\n  - name: r\n    driver: ws2812\n    bus: spi0.0\n    count: 24\n    layout: ring\n    start: 30\n", 7, "outputs[0].start", "out of range (0…23)"),
        // Regression: one SPI bus or GPIO line given to two outputs was accepted.
        ("outputs:\n  - name: a\n    driver: ws2812\n    bus: /dev/spidev0.0\n    count: 8\n  - name: b\n    driver: apa102\n    bus: spi0.0\n    count: 8\n", 6, "outputs[1].bus", "output b needs SPI bus spi0.0, which is already used by output a (line 2)"),
        ("outputs:\n  - name: bar\n    driver: gpio-leds\n    lines: [5, 6, 17]\nbuttons:\n  - line: 17\n", 6, "buttons[0].line", "button 1 needs GPIO line 17 of auto, which is already used by output bar"),
        ("outputs:\n  - name: a\n    driver: ssd1306\n    bus: i2c-1\n  - name: b\n    driver: sh1106\n    bus: /dev/i2c-1\n", 5, "outputs[1].address", "0x3C on i2c-1, which is already used by output a"),
        ("board: \"x\\e[31m\"\noutputs:\n  - name: a\n    driver: leds0\n    count: 8\n", 1, "board", "control characters"),
        ("outputs:\n  - name: \"ring\\u200B\"\n    driver: leds0\n    count: 8\n", 2, "outputs[0].name", "invisible characters (U+200B ZERO WIDTH SPACE after \"ring\")"),
    ] as [(String, Int, String?, String)])
    func mistakesCiteLineAndKey(yaml: String, line: Int, key: String?, message: String) {
        expectRefusal(yaml, line: line, key: key, says: message)
    }

    /// Regression: 371 bytes of nested aliases used as mapping keys cost 36 s of CPU. Keys that are
    /// collections are refused, and aliases may repeat at most 10 000 nodes in all, so a "billion
    /// laughs" is refused at the alias that passes the limit, at once.
    @Test func aliasBombsAreRefusedAtOnce() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { yaml += "a\(level): &a\(level) {? *a\(level - 1) : 1, ? [*a\(level - 1), *a\(level - 1)] : 2}\n" }
        var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { laughs += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n" }
        let start = ContinuousClock.now
        for (bomb, line, message) in [(yaml, 2, "explicit keys (? ) are not read"), (laughs, 5, "repeat more than 10000 nodes")] {
            #expect {
                _ = try ConfigurationLoader.parse(bomb + "outputs:\n  - name: a\n    driver: leds0\n    count: 8\n", source: "bomb.yaml")
            } throws: { error in
                let error = error as! ConfigurationError
                return error.line == line && error.description.contains(message)
            }
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    /// Where `&` and `*` are text, not YAML anchors, the file is taken; anchors and aliases are
    /// read, and an alias without its anchor is refused with its line.
    @Test func ampersandsAndStarsInTextAreFine() throws {
        let yaml = "socket-group: Tom & Jerry * 2 # a *comment* &too\nappearance:\n  tint: \"#ff0000\"\noutputs:\n  - name: \"*quoted*\"\n    driver: leds0\n    path: '&/dev/leds0'\n    count: 8\n"
        let configuration = try ConfigurationLoader.parse(yaml, source: "ok.yaml")
        #expect(configuration.socketGroup == "Tom & Jerry * 2" && configuration.outputs.first?.name == "*quoted*")
        #expect(refusalLine("a:\n  - *x\n") == 2)
        #expect(refusalLine("a: [1, &y 2]\nb: *y\n") == nil)
        #expect(refusalLine("a: |\n  *not an alias\n  &nor this\nb: 2\n") == nil)
        #expect(refusalLine("a: !!str &x text\n") == 1)
        #expect(refusalLine("outputs:\n  - name: a|b\n    count: *n\n") == 3)
        #expect(refusalLine("outputs:\n  - name: a>b\n    count: *n\n") == 3)
    }

    /// The line the YAML is refused at; nil when it is taken.
    private func refusalLine(_ yaml: String) -> Int? {
        do {
            _ = try ConfigurationLoader.compose(yaml, source: "anchors.yaml")
            return nil
        } catch {
            return error.line ?? -1
        }
    }

    /// Regression: an invalid-UTF-8 file was reported as "cannot read the file (does it exist…)".
    @Test func unreadableFilesSayWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let latin1 = folder.appendingPathComponent("latin1.yaml")
        try Data("board: caf\u{E9}\n".utf8.prefix(9) + [0xE9, 0x0A, 0x6F, 0x3A]).write(to: latin1)
        #expect { _ = try ConfigurationLoader.load(path: latin1.path) } throws: {
            let error = $0 as! ConfigurationError
            return error.line == 1 && error.message.contains("not UTF-8 text: byte 9")
        }
        #expect { _ = try ConfigurationLoader.load(path: folder.appendingPathComponent("missing.yaml").path) } throws: {
            ($0 as! ConfigurationError).message.contains("no such file")
        }
        #expect { _ = try ConfigurationLoader.load(path: folder.path) } throws: {
            ($0 as! ConfigurationError).message.contains("a folder")
        }
    }
}
