import Headway
@testable import HeadwayService
import Testing

/// `quiet-hours:` for every output and an output's own, and a display's `care:`, read as written
/// and every mistake refused with its line, key and fix.
@Suite("Configuration of quiet hours and display care")
struct QuietHoursConfigurationTests {
    static let twoOutputs = """
        quiet-hours:
          from: "22:00"
          to: "7:00"
          brightness: 10%
          wake: 2m
        outputs:
          - name: strip
            driver: ws2812
            bus: spi0.0
            count: 8
          - name: oled
            driver: ssd1306
            bus: i2c-1
            quiet-hours:
              brightness: dark
              failures: hide
            care:
              shift: 2
              shift-every: 5m
              dim-after: never
              last-result: 10m
        """

    @Test func theSharedHoursAndAnOutputsOwnAreRead() throws {
        let configuration = try ConfigurationLoader.parse(Self.twoOutputs, source: "t.yaml")
        let shared = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!, brightness: 0.1, marksFailures: true, wake: 120)
        #expect(configuration.quietHours == shared)
        #expect(configuration.outputs[0].quietHours == .inherited && configuration.outputs[0].care == .standard)
        var own = shared
        (own.brightness, own.marksFailures) = (0, false)
        #expect(configuration.outputs[1].quietHours == .own(own), "an output's own hours start from the shared ones")
        let care = configuration.outputs[1].care
        #expect(care.display.shift == 2 && care.display.shiftInterval == .seconds(300) && care.display.dimAfter == nil && care.lastResult == 600)
        #expect(care.display.dimmedBrightness == DisplayCare.standard.dimmedBrightness)
    }

    @Test func careIsOnByDefaultAndOffWhenAsked() throws {
        let plain = try ConfigurationLoader.parse("outputs:\n  - name: oled\n    driver: sh1106\n    bus: i2c-1\n", source: "t.yaml")
        #expect(plain.outputs[0].care == .standard && plain.quietHours == nil)
        let off = try ConfigurationLoader.parse("outputs:\n  - name: oled\n    driver: sh1106\n    bus: i2c-1\n    care: off\n    quiet-hours: off\n", source: "t.yaml")
        #expect(off.outputs[0].care == .off && off.outputs[0].quietHours == .off)
    }

    static let mistakes: [(String, Int, String, String)] = [
        ("quiet-hours:\n  from: 22\n  to: \"07:00\"\n", 2, "quiet-hours.from", "\"22\" is not a time of day like 22:00 or 7:30"),
        ("quiet-hours:\n  from: \"22:00\"\n", 2, "quiet-hours.to", "missing: when quiet hours end, like \"07:00\""),
        ("quiet-hours:\n  from: \"7:00\"\n  to: \"07:00\"\n", 3, "quiet-hours.to", "is the same time as from"),
        ("quiet-hours:\n  from: \"22:00\"\n  to: \"07:00\"\n  brightness: 150%\n", 4, "quiet-hours.brightness", "\"150%\" is not a share like 25% or 0.25, or dark"),
        ("quiet-hours:\n  from: \"22:00\"\n  to: \"07:00\"\n  wake: 2 hours\n", 4, "quiet-hours.wake", "\"2 hours\" is not a duration like 90, 90s, 5m or 1h30m"),
        ("quiet-hours:\n  from: \"22:00\"\n  to: \"07:00\"\n  failures: show\n", 4, "quiet-hours.failures", "\"show\" is not one of mark, hide"),
        ("quiet-hours:\n  from: \"22:00\"\n  to: \"07:00\"\n  until: \"08:00\"\n", 4, "quiet-hours.until", "from, to, brightness, failures, wake"),
        ("quiet-hours: off\n", 1, "quiet-hours", "must be a mapping (from, to, brightness, failures, wake)"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: i2c-1\n    quiet-hours:\n      brightness: dark\n", 6, "outputs[0].quiet-hours.from",
         "missing: when quiet hours begin"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: i2c-1\n    care:\n      shift: 9\n", 6, "outputs[0].care.shift", "9 is out of range (0…4)"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: i2c-1\n    care:\n      shift-every: 1s\n", 6, "outputs[0].care.shift-every", "1s is out of range (10s…"),
        ("outputs:\n  - name: oled\n    driver: ssd1306\n    bus: i2c-1\n    care: yes\n", 5, "outputs[0].care", "must be a mapping (shift, shift-every, dim-after, dim-to, last-result) or off"),
        ("outputs:\n  - name: strip\n    driver: ws2812\n    bus: spi0.0\n    count: 8\n    care: off\n", 6, "outputs[0].care", "care"),
    ]

    @Test(arguments: mistakes)
    func mistakesAreRefusedWithTheirFix(yaml: String, line: Int, key: String, message: String) {
        expectRefusal(yaml, line: line, key: key, says: message)
    }

    @Test func doctorSaysWhenQuietHoursAreInForce() throws {
        let configuration = try ConfigurationLoader.parse(Self.twoOutputs, source: "t.yaml")
        let night = Doctor.quietHours(configuration, at: LocalTime(hour: 23, minute: 15))
        #expect(night.map(\.summary) == [
            "quiet hours in force now (23:15) until 07:00: strip capped at 10 %, failures marked",
            "quiet hours in force now (23:15) until 07:00: oled dark",
        ])
        #expect(night.allSatisfy { $0.status == .advice && $0.fix == "change quiet-hours: in the configuration to move the hours" })
        let day = Doctor.quietHours(configuration, at: LocalTime(hour: 12, minute: 0))
        #expect(day.map(\.summary) == [
            "quiet hours 22:00–07:00, at 10 %, failures marked on strip; not in force now (12:00)",
            "quiet hours 22:00–07:00, dark on oled; not in force now (12:00)",
        ])
        #expect(day.allSatisfy { $0.status == .pass })
    }
}
