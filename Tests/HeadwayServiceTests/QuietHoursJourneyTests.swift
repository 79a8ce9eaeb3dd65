import Foundation
import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySimulator
import Testing

/// A build light in a bedroom, night after night, on a manual clock and a wall clock in Berlin's
/// time zone (daylight saving ends on 25 October 2026 at 01:00 UTC, begins on 29 March at 01:00
/// UTC): quiet hours from 22:00 to 07:00, dark, failures marked; a ring and an OLED.
@Suite("Quiet hours, night after night")
struct QuietHoursJourneyTests {
    /// Berlin: UTC+2 from 29 March 01:00 UTC to 25 October 01:00 UTC 2026, UTC+1 otherwise.
    static let berlin: @Sendable (Double) -> LocalTime = { seconds in
        let summer = (1_774_746_000.0..<1_792_890_000.0).contains(seconds)
        let local = Int(seconds.rounded(.down)) + (summer ? 7200 : 3600)
        let day = ((local % 86_400) + 86_400) % 86_400
        return LocalTime(hour: day / 3600, minute: day % 3600 / 60, second: day % 60)
    }

    final class Bedroom {
        let clock = ManualClock()
        /// Seconds since 1970 when the manual clock reads 0.
        let epoch: Double
        let ring: SimulatedLEDChain
        let oled: SimulatedOLED
        let core: ServiceCore

        init(epoch: Double, quiet: QuietHours?, care: OutputCare = OutputCare(lastResult: 600)) {
            self.epoch = epoch
            ring = try! .ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
            oled = SimulatedOLED(name: "oled", configuration: try! OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: clock))
            let clock = self.clock
            core = ServiceCore(
                devices: ServiceDevices(outputs: [
                    ServiceOutput(name: "ring", medium: .leds(LEDOutput(ring.driver, layout: .ring())), framesPerSecond: 1, quietHours: quiet),
                    ServiceOutput(
                        name: "oled", medium: .display(DisplayOutput(oled.driver, care: care.display)), framesPerSecond: 1, quietHours: quiet, care: care),
                ], buttons: []),
                clock: clock, wallClock: { epoch + clock.now }, localTime: QuietHoursJourneyTests.berlin,
                durations: DurationStore(folder: nil, logger: .standardError(label: "test")))
        }

        @discardableResult
        func send(_ request: Request) -> Reply? {
            Reply.parse(core.handle(line: request.line, from: Peer(connection: 1, credentials: nil)).reply)
        }

        /// Lets time pass to `utc` (seconds since 1970), ticking only when the core asks to, as
        /// the service's loop does.
        func wait(until utc: Double) {
            while let next = core.nextWakeup(), next <= utc - epoch {
                clock.set(to: max(clock.now, next))
                _ = core.tick()
            }
            clock.set(to: max(clock.now, utc - epoch))
        }

        /// Lets time pass to `utc` while `job` reports every twenty seconds, as a living job does,
        /// its value rising by one each time.
        func run(_ job: String, from value: Double, until utc: Double) -> Double {
            var value = value
            while epoch + clock.now + 20 < utc {
                wait(until: epoch + clock.now + 20)
                value += 1
                send(.update(job: job, value: value, total: nil, label: nil))
            }
            wait(until: utc)
            return value
        }

        var quietNote: QuietNote? {
            guard case .jobs(_, _, let quiet, _)? = send(.status) else { return nil }
            return quiet
        }

        var ringIsDark: Bool { ring.levels.allSatisfy { $0 == .off } }
        /// Only the last LED lit, red: the mark of a failure nobody has seen.
        var ringShowsOnlyTheMark: Bool {
            ring.levels.dropLast().allSatisfy { $0 == .off } && ring.levels.last.map { $0.red > 0 && $0.green == 0 && $0.blue == 0 } == true
        }
        var contrast: UInt8 { oled.chip.registers.contrast }
    }

    /// 24 October 2026, 17:00 UTC: 19:00 in Berlin (summer time).
    static let evening = 1_792_861_200.0
    static let hours = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!, brightness: 0, marksFailures: true, wake: 60)

    @Test func aJobRunsIntoTheNightFailsAndTheMorningSeesIt() throws {
        let room = Bedroom(epoch: Self.evening, quiet: Self.hours)
        room.wait(until: Self.evening)
        // A step every 20 s for four hours: 730 of 1000 by 23:00.
        room.send(.begin(job: "backup", label: "Nightly backup", total: 1000))
        room.send(.update(job: "backup", value: 10, total: nil, label: nil))
        room.wait(until: Self.evening + 10)
        #expect(!room.ringIsDark && room.oled.chip.isDisplayOn && room.quietNote == nil)
        let full = room.contrast

        // 21:59 it still shows; at 22:00 the outputs go dark while the job runs on.
        var value = room.run("backup", from: 10, until: Self.evening + 3 * 3600 - 30)
        #expect(!room.ringIsDark && room.oled.chip.isDisplayOn)
        value = room.run("backup", from: value, until: Self.evening + 3 * 3600 + 2)
        #expect(room.ringIsDark && !room.oled.chip.isDisplayOn, "dark at 22:00, the job still running")
        #expect(room.quietNote == QuietNote(until: "07:00", brightness: 0))
        guard case .jobs(let jobs, _, _, _)? = room.send(.status) else { Issue.record("no status"); return }
        #expect(jobs.first?.phase == "active")

        // 23:00 it fails: only the mark shows — the ring's last LED, a box on the display, dim.
        _ = room.run("backup", from: value, until: Self.evening + 4 * 3600)
        room.send(.finish(job: "backup", outcome: .failed))
        room.wait(until: Self.evening + 4 * 3600 + 10)
        #expect(room.ringShowsOnlyTheMark, "\(room.ring.levels)")
        #expect(room.oled.chip.isDisplayOn && room.contrast < full / 4)
        #expect(room.oled.picture.litCount(in: PixelRect(x: 100, y: 0, width: 28, height: 12)) == room.oled.picture.litCount())

        // 23:30 a press lights everything for a minute; then dark again but for the mark.
        room.wait(until: Self.evening + 4.5 * 3600)
        #expect(room.core.press(.shortPress, at: room.clock.now) == [])
        room.wait(until: Self.evening + 4.5 * 3600 + 1)
        #expect(room.quietNote?.woken == true && room.contrast == full)
        room.wait(until: Self.evening + 4.5 * 3600 + 62)
        #expect(room.quietNote?.woken == false && room.contrast < full / 4 && room.ringShowsOnlyTheMark)

        // Summer time ends at 01:00 UTC (03:00 → 02:00): 07:00 is 06:00 UTC, not 05:00.
        let morning = Self.evening + 13 * 3600  // 06:00 UTC
        room.wait(until: morning - 30 * 60)
        #expect(room.quietNote != nil, "06:30 in winter time is still night")
        room.wait(until: morning + 30)
        #expect(room.quietNote == nil)
        #expect(room.ringShowsOnlyTheMark, "the morning sees what happened at night")
        #expect(room.oled.chip.isDisplayOn && room.oled.picture.litCount() > 0)

        // The next job clears the mark.
        room.wait(until: morning + 3600)
        room.send(.begin(job: "deploy", label: "Deploy", total: nil))
        room.send(.finish(job: "deploy", outcome: .succeeded))
        room.wait(until: morning + 3600 + 5)
        #expect(room.ringIsDark && !room.oled.chip.isDisplayOn)
    }

    @Test func capsRatherThanDarkness() throws {
        let dim = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!, brightness: 0.1)
        let room = Bedroom(epoch: Self.evening, quiet: dim)
        room.wait(until: Self.evening)
        room.send(.begin(job: "render", label: "Render", total: nil))
        room.wait(until: Self.evening + 10)
        let full = room.contrast
        let bright = room.ring.levels.map { Int($0.red) + Int($0.green) + Int($0.blue) }.max() ?? 0
        room.wait(until: Self.evening + 3 * 3600 + 5)
        #expect(room.send(.status).map { if case .jobs(let jobs, _, _, _) = $0 { jobs.count } else { 0 } } == 1, "a render with no total runs on")
        let capped = room.ring.levels.map { Int($0.red) + Int($0.green) + Int($0.blue) }.max() ?? 0
        #expect(room.oled.chip.isDisplayOn && room.contrast < full / 5, "\(room.contrast) of \(full)")
        #expect(capped > 0 && capped < bright / 3, "the spinner goes on, dim: \(capped) of \(bright)")
        #expect(room.quietNote == QuietNote(until: "07:00", brightness: 0.1))
    }

    @Test func springForwardEndsTheNightAtSevenSummerTime() {
        // 28 March 2026, 21:30 UTC: 22:30 in Berlin, winter time; summer time starts at 01:00 UTC.
        let night = 1_774_733_400.0
        let room = Bedroom(epoch: night, quiet: Self.hours)
        room.wait(until: night)
        #expect(room.quietNote != nil)
        room.wait(until: night + 7.5 * 3600 + 60)   // 05:01 UTC: 07:01 summer time
        #expect(room.quietNote == nil)
                let room2 = Bedroom(epoch: night, quiet: Self.hours)
        room2.wait(until: night + 7.5 * 3600 - 60)  // 04:59 UTC: 06:59 summer time
        #expect(room2.quietNote != nil)
    }

    @Test func theLastResultStaysDimThenTheDisplaySleepsAndANewJobWakesIt() throws {
        let room = Bedroom(epoch: Self.evening, quiet: Self.hours)
        room.wait(until: Self.evening)
        room.send(.begin(job: "build", label: "Build #7", total: 10))
        room.wait(until: Self.evening + 10)
        let full = room.contrast
        room.send(.finish(job: "build", outcome: .succeeded))
        room.wait(until: Self.evening + 20)
        #expect(room.oled.chip.isDisplayOn && room.contrast < full / 2, "the result, dim, after the signal")
        #expect(room.oled.picture.litCount() > 40)
        room.wait(until: Self.evening + 10 + 3 + 600 + 5)
        #expect(!room.oled.chip.isDisplayOn, "dark once the last result's ten minutes are over")
        room.send(.begin(job: "next", label: "Next", total: 10))
        room.wait(until: Self.evening + 10 + 3 + 600 + 5 + 2.1)
        #expect(room.oled.chip.isDisplayOn && room.contrast == full, "a job that starts wakes the display at once, at full light")
    }
}
