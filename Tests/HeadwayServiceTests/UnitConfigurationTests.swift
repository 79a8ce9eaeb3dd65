import Testing
@testable import HeadwayService

/// `watch: units:` and an output's `countdown:` in the configuration file.
@Suite("Watched units in the configuration")
struct UnitConfigurationTests {
    static let ring = """
        outputs:
          - name: ring
            driver: ws2812
            bus: /dev/spidev0.0
            count: 24

        """

    @Test func unitsAndACountdownAreRead() throws {
        let yaml = """
            outputs:
              - name: ring
                driver: ws2812
                bus: /dev/spidev0.0
                count: 24
                countdown: backup.timer
              - name: oled
                driver: ssd1306
                bus: /dev/i2c-1
                countdown: {timer: nightly.timer, within: 5m}
            watch:
              units: [backup.service, "encode@big.service", nightly.timer]
            """
        let configuration = try ConfigurationLoader.parse(yaml, source: "test.yaml")
        #expect(configuration.watchedUnits == ["backup.service", "encode@big.service", "nightly.timer"])
        #expect(configuration.outputs[0].countdown == TimerCountdown(timer: "backup.timer", within: 900))
        #expect(configuration.outputs[1].countdown == TimerCountdown(timer: "nightly.timer", within: 300))
        #expect(configuration.followedUnits == ["backup.service", "encode@big.service", "nightly.timer", "backup.timer"])
    }

    static let mistakes: [(yaml: String, line: Int, key: String, message: String)] = [
        (ring + "watch:\n  units: [backup.service, nightly encode.service]\n", 7, "watch.units[1]",
         "\"nightly encode.service\" is not a systemd unit name: it has a space, and only letters, digits and : - _ . \\ @ may be used"),
        (ring + "watch:\n  units: [backup]\n", 7, "watch.units[0]", "\"backup\" names no unit type; watch a service (backup.service) or a timer (backup.timer)"),
        (ring + "watch:\n  units: [home.mount]\n", 7, "watch.units[0]", "\"home.mount\" is a mount unit; only a service (backup.service) or a timer (backup.timer) can be watched"),
        (ring + "watch:\n  units: [a.service, a.service]\n", 7, "watch.units[1]", "a.service is listed twice"),
        (ring + "watch:\n  units: backup.service\n", 7, "watch.units", "must be a list of unit names"),
        (ring + "watch:\n  unit: [backup.service]\n", 7, "watch.unit", "unknown key; the keys here are units"),
        (ring + "watch: [backup.service]\n", 6, "watch", "must be a mapping with units:"),
        (ring.replacingOccurrences(of: "count: 24", with: "count: 24\n    countdown: backup.service"), 6, "outputs[0].countdown",
         "\"backup.service\" is a service unit; only a timer (backup.timer) can be counted down to"),
        (ring.replacingOccurrences(of: "count: 24", with: "count: 24\n    countdown: {timer: backup.timer, within: 2s}"), 6, "outputs[0].countdown.within",
         "2s is out of range"),
    ]

    @Test(arguments: mistakes)
    func mistakesAreRefusedWithTheirLineAndFix(_ mistake: (yaml: String, line: Int, key: String, message: String)) {
        expectRefusal(mistake.yaml, line: mistake.line, key: mistake.key, says: mistake.message)
    }
}
