import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySurfaces
import Testing

/// A build light's OLED left on for days, on the manual clock, with the standard care and the
/// last result kept up for five minutes: three builds of twenty minutes a day.
@Suite("Display care, day after day")
struct DisplayCareJourneyTests {
    typealias Room = QuietHoursJourneyTests.Bedroom

    /// 24 October 2026, 07:00 UTC: 09:00 in Berlin.
    static let morning = 1_792_825_200.0

    /// The top-left corner of what is lit, to follow the picture as it moves.
    static func corner(of picture: Bitmap) -> (x: Int, y: Int)? {
        var corner: (x: Int, y: Int)?
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture[x, y] {
                corner = (min(corner?.x ?? x, x), corner?.y ?? y)
            }
        }
        return corner
    }

    @Test func threeDaysOfBuildsLeaveTheGlassDarkMostOfTheTime() throws {
        let room = Room(epoch: Self.morning, quiet: nil, care: OutputCare(lastResult: 300))
        var minutesLit = 0, minutes = 0
        /// Lets time pass minute by minute, counting the minutes the panel is on.
        func idle(until utc: Double) {
            while room.epoch + room.clock.now + 60 <= utc {
                room.wait(until: room.epoch + room.clock.now + 60)
                minutes += 1
                if room.oled.chip.isDisplayOn { minutesLit += 1 }
            }
            room.wait(until: utc)
        }
        for day in 0..<3 {
            for hour in [0.0, 3, 6] {
                let start = Self.morning + Double(day) * 86_400 + hour * 3600
                idle(until: start)
                #expect(!room.oled.chip.isDisplayOn, "asleep between builds")
                room.send(.begin(job: "build", label: "Build \(day)-\(Int(hour))", total: 60))
                room.wait(until: start + 2 + 1.1)
                #expect(room.oled.chip.isDisplayOn && room.contrast == 0xFF, "a build wakes the display at once, at full light")

                // Twenty minutes of progress: the picture visits every place of its orbit.
                var corners: Set<[Int]> = []
                for minute in 1...20 {
                    room.send(.update(job: "build", value: Double(minute * 3), total: nil, label: nil))
                    for _ in 0..<3 {
                        room.wait(until: room.epoch + room.clock.now + 20)
                        if let corner = Self.corner(of: room.oled.picture) { corners.insert([corner.x, corner.y]) }
                    }
                    minutes += 1
                    minutesLit += 1
                }
                #expect(corners.count == 4, "the picture stood at \(corners.sorted { $0.lexicographicallyPrecedes($1) })")

                let failed = day == 1 && hour == 6
                room.send(.finish(job: "build", outcome: failed ? .failed : .succeeded))
                let end = room.epoch + room.clock.now
                room.wait(until: end + 10)
                #expect(room.oled.chip.isDisplayOn && room.contrast < 0xFF / 2 && room.oled.picture.litCount() > 0, "the result, dim")
                idle(until: end + 2 + 300 + 10)
                #expect(!room.oled.chip.isDisplayOn, "dark once the result's five minutes are over")
            }
        }
        idle(until: Self.morning + 3 * 86_400)
        // 3 × 3 builds of 20 minutes and their results of 5 minutes: 225 minutes of 4,320.
        #expect(minutesLit <= 240, "\(minutesLit) of \(minutes) minutes lit")
    }
}
