import Foundation
import HeadwayProtocol
import Testing

/// Quiet hours and display care in real time, through the programs: `headway-sim serve` in a
/// time zone of its own (UTC+5:30, so the hours are read off local time, not UTC), quiet hours
/// around now, and the client, the button and doctor as a user meets them at night.
extension EndToEnd {
    @Suite("quiet hours and display care, in real time")
    struct QuietHoursEndToEndTests {
        /// A time zone whose offset no machine's clock happens to share.
        static let zone = "IST-5:30"

        /// "HH:MM" in that zone, `minutes` from now.
        static func localTime(minutesFromNow minutes: Int) -> String {
            let seconds = Int(Date().timeIntervalSince1970) + 5 * 3600 + 1800 + minutes * 60
            let minuteOfDay = (seconds / 60) % 1440
            return String(format: "%02d:%02d", minuteOfDay / 60, minuteOfDay % 60)
        }

        static func ringLit(_ service: SimulatedService, _ name: String) throws -> [(Int, Int, Int)] {
            try ppmPixels(service.snapshot(name).appendingPathComponent("ring.ppm")).filter { $0 != (0, 0, 0) }
        }

        @Test func aNightWithAJobThatFails() throws {
            let (from, to) = (Self.localTime(minutesFromNow: -1), Self.localTime(minutesFromNow: 60))
            let service = try SimulatedService(
                stallAfter: 60, linger: 1, loseAfter: 120, extra: "quiet-hours:\n  from: \"\(from)\"\n  to: \"\(to)\"\n  wake: 5s\n", environment: ["TZ": Self.zone])

            let status = try service.headway(["status"])
            #expect(status.stdout.contains("quiet hours until \(to): outputs dark, failures marked"), "\(status.stdout)")

            // A job begun at night runs on, with every output dark.
            try service.headway(["--job", "backup", "begin", "--label", "Nightly backup", "--total", "10"])
            try service.headway(["--job", "backup", "set", "3"])
            #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first?.shown == true })
            #expect(try Self.ringLit(service, "dark").isEmpty)
            #expect(try !EndToEnd.DisplayJourneyTests.isLit(EndToEnd.DisplayJourneyTests.picture(service.snapshot("dark-oled"), "oled")))

            // The button lights everything for its five seconds, then the night goes on.
            _ = try service.press(long: false)
            #expect(try BackgroundProcess.eventually(within: 2) { try !Self.ringLit(service, "woken").isEmpty }, "a press lights the job")
            #expect(try service.headway(["status"]).stdout.contains("(lit by a press)"))
            #expect(try BackgroundProcess.eventually(within: 8) { try Self.ringLit(service, "dark-again").isEmpty })
            #expect(try service.status().first?.phase == "active", "the job never read as gone")

            // It fails: the ring's last LED marks it, dim and red, until somebody sees it.
            try service.headway(["--job", "backup", "fail"])
            #expect(try BackgroundProcess.eventually(within: 4) {
                let lit = try Self.ringLit(service, "marked")
                return lit.count == 1 && lit[0].0 > 0 && lit[0].1 == 0 && lit[0].2 == 0
            }, "one dim red LED")

            // Doctor says the dark outputs are the hours', not a fault.
            let doctor = try SimulatedService.run(Binaries.url("headwayd"), ["doctor", "--config", service.config.path], environment: ["TZ": Self.zone])
            #expect(doctor.stdout.contains("quiet hours in force now") && doctor.stdout.contains("until \(to): ring, strip, oled, bar, stick dark, failures marked"), "\(doctor.stdout)")
        }

        /// The top-left corner of what a 128x64 PBM snapshot shows lit.
        static func corner(_ pbm: Data) -> (x: Int, y: Int)? {
            let raster = Array(pbm.suffix(16 * 64))
            var corner: (x: Int, y: Int)?
            for y in 0..<64 {
                for x in 0..<128 where raster[y * 16 + x / 8] & (0x80 >> (x % 8)) != 0 {
                    corner = (min(corner?.x ?? x, x), corner?.y ?? y)
                }
            }
            return corner
        }

        @Test func anOLEDMovesItsPictureKeepsTheResultDimThenSleeps() throws {
            let service = try SimulatedService.serving("""
                board: raspberry-pi-4
                outputs:
                  - name: oled
                    driver: ssd1306
                    bus: i2c-1
                    care:
                      shift-every: 10s
                      last-result: 5s
                timings:
                  grace: 0.3
                  linger: 1

                """)
            func oled(_ name: String) throws -> Data { try Data(contentsOf: service.snapshot(name).appendingPathComponent("oled.pbm")) }
            try service.headway(["--job", "render", "begin", "--label", "Render", "--total", "10"])
            try service.headway(["--job", "render", "set", "4"])
            var first: (x: Int, y: Int)?
            #expect(try BackgroundProcess.eventually(within: 3) { first = Self.corner(try oled("shown")); return first != nil })
            var moved: (x: Int, y: Int)?
            #expect(try BackgroundProcess.eventually(within: 12) {
                moved = Self.corner(try oled("moved"))
                return moved.map { $0.x != first?.x || $0.y != first?.y } ?? false
            }, "the picture moves within ten seconds")
            if let first, let moved { #expect(abs(moved.x - first.x) + abs(moved.y - first.y) == 1, "a pixel at a time: \(first) → \(moved)") }

            try service.headway(["--job", "render", "done"])
            #expect(try BackgroundProcess.eventually(within: 3) { try service.status().isEmpty })
            #expect(Self.corner(try oled("result")) != nil, "the last result stays up")
            #expect(try BackgroundProcess.eventually(within: 8) { Self.corner(try oled("asleep")) == nil }, "then the display goes dark")
        }
    }
}
