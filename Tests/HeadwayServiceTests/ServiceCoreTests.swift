import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySimulator
import Testing

/// The service core with virtual devices and a manual clock.
@Suite("Service core")
struct ServiceCoreTests {
    final class Fixture {
        let clock = ManualClock()
        let strip: SimulatedLEDChain
        let oled: SimulatedOLED
        let core: ServiceCore

        init(policy: LifecyclePolicy = LifecyclePolicy(grace: 1, stallAfter: 5, linger: 2, loseAfter: 20)) {
            strip = try! .ws2812(name: "strip", count: 60, layout: .strip, bus: VirtualSPIBus(clock: clock))
            oled = SimulatedOLED(name: "oled", configuration: try! OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: clock))
            core = ServiceCore(
                devices: ServiceDevices(
                    outputs: [
                        ServiceOutput(name: "strip", medium: .leds(LEDOutput(strip.driver)), framesPerSecond: 50),
                        ServiceOutput(name: "oled", medium: .display(DisplayOutput(oled.driver)), framesPerSecond: 20),
                    ], buttons: []),
                settings: ServiceSettings(policy: policy), clock: clock)
        }

        @discardableResult
        func send(_ request: Request, from connection: Int = 1, uid: UInt32 = 1000) -> (Reply?, [JobEvent]) {
            let peer = Peer(connection: connection, credentials: PeerCredentials(pid: 4242, uid: uid, gid: uid))
            let (line, events) = core.handle(line: request.line, from: peer)
            return (Reply.parse(line), events)
        }

        func advance(to time: Seconds) {
            while let next = core.nextWakeup(), next <= time {
                clock.set(to: max(clock.now, next))
                _ = core.tick()
            }
            clock.set(to: time)
            _ = core.tick()
        }
    }

    @Test func idleServiceNeverWakesUp() {
        let fixture = Fixture()
        _ = fixture.core.tick()
        #expect(fixture.core.nextWakeup() == nil)
        fixture.send(.begin(job: "a", label: nil, total: nil))
        // Pending in its grace delay: the next wake-up is when it becomes visible, not a frame loop.
        #expect(fixture.core.nextWakeup() == 1)
        fixture.advance(to: 1.5)
        #expect(fixture.core.nextWakeup()! <= 1.5 + 1.0 / 50 + 1e-9)
        fixture.send(.finish(job: "a", outcome: .succeeded))
        fixture.advance(to: 4)
        #expect(fixture.core.registry.count == 0)
        #expect(fixture.core.nextWakeup() == nil, "after the linger and one idle frame the service sleeps")
        #expect(fixture.strip.levels.allSatisfy { $0 == .off })
        #expect(fixture.oled.picture.litCount() == 0)
    }

    @Test func severalJobsShareTheStripAndTheNewestHasTheDisplay() {
        let fixture = Fixture()
        fixture.send(.begin(job: "old", label: "Old", total: 10))
        fixture.send(.update(job: "old", value: 10, total: nil, label: nil))
        fixture.advance(to: 0.5)
        fixture.send(.begin(job: "new", label: "New", total: 10))
        fixture.advance(to: 3)
        let levels = fixture.strip.levels
        // Old job: 99 % of the first 30 LEDs lit; new job: nothing yet in the second 30.
        #expect(levels[0] != .off && levels[28] != .off)
        #expect(levels[31] == levels[59], "the new job's segment is all track")
        #expect(levels[0] != levels[31])
    }

    @Test func stallAndLossAreReported() {
        let fixture = Fixture()
        fixture.send(.subscribe(job: nil), from: 7)
        fixture.send(.begin(job: "s", label: nil, total: 100))
        fixture.send(.update(job: "s", value: 10, total: nil, label: nil))
        fixture.advance(to: 7)
        guard case .jobs(let jobs, _, _, _)? = fixture.send(.status).0 else { Issue.record("no status"); return }
        #expect(jobs.first?.phase == "stalled")
        var lost: [JobEvent] = []
        while fixture.clock.now < 25 {
            fixture.clock.advance(by: 1)
            lost += fixture.core.tick().events
        }
        #expect(lost == [JobEvent(.lost, job: "s")])
        #expect(fixture.core.subscribers(for: "s") == [7])
    }

    @Test func buttonPausesAndRequestsCancelFromTheSubscriber() {
        let fixture = Fixture()
        fixture.send(.begin(job: "b", label: nil, total: nil))
        fixture.advance(to: 2)
        // Nothing runs this job that could stop it: a short press cannot pause it.
        #expect(fixture.core.button(.shortPress) == [])
        guard case .error(let refusal)? = fixture.send(.pause(job: "b")).0 else { Issue.record("the pause was taken"); return }
        #expect(refusal.code == .notControllable && refusal.field == "job")
        // Its controller (headway run) can: the press pauses, and the controller is told.
        fixture.send(.subscribe(job: "b", controls: true), from: 3)
        #expect(fixture.core.button(.shortPress) == [JobEvent(.paused, job: "b")])
        #expect(fixture.core.registry["b"]?.job.pausedAt != nil)
        #expect(fixture.core.button(.shortPress) == [JobEvent(.resumed, job: "b")])
        // With a subscriber a long press asks it to cancel; without one the service cancels itself.
        #expect(fixture.core.button(.longPress) == [JobEvent(.cancelRequested, job: "b")])
        _ = fixture.core.disconnected(3)
        #expect(fixture.core.button(.longPress) == [JobEvent(.finished, job: "b", outcome: .cancelled)])
    }

    @Test func errorsAreAnsweredAndTheServiceGoesOn() {
        let fixture = Fixture()
        let (line, _) = fixture.core.handle(line: "{oops", from: Peer(connection: 1, credentials: nil))
        #expect(line.contains("\"ok\":false") && line.contains(#""code":"malformed""#))
        let (reply, _) = fixture.send(.update(job: "ghost", value: 1, total: nil, label: nil))
        guard case .error(let refusal)? = reply else { Issue.record("an update of no job was taken"); return }
        #expect(refusal.code == .noSuchJob && refusal.field == "job")
        // The simulator's own operations are not the service's.
        let (press, _) = fixture.core.handle(line: #"{"v":1,"op":"press","long":false}"#, from: Peer(connection: 1, credentials: nil))
        guard case .error(let unknown)? = Reply.parse(press) else { Issue.record("press was taken: \(press)"); return }
        #expect(unknown.code == .unknownOperation && unknown.field == "op")
        #expect(fixture.send(.begin(job: "fine", label: nil, total: 3)).0 == .ok)
    }

    /// A `status` that would be longer than a client reads lists the newest jobs that fit and
    /// counts the rest as omitted: never a line the client must refuse.
    @Test func aStatusTooLongForAClientIsCutWithACount() throws {
        let jobs = (0..<2000).map { JobStatus(job: "job-\($0)", label: String(repeating: "\"", count: 1500), phase: "active", percent: nil, value: nil, total: nil, etaSeconds: nil) }
        let line = ServiceCore.fitting(.jobs(jobs, omitted: 7, quiet: nil))
        #expect(line.utf8.count <= WireProtocol.maxReplyBytes)
        let reply = try JSONValue.parse(line)
        guard case .array(let listed)? = reply["jobs"] else { Issue.record("no jobs: \(line.prefix(200))"); return }
        #expect(!listed.isEmpty && listed.last?["job"]?.string == "job-1999", "the newest stay")
        #expect(reply["omitted"]?.number == Double(2000 - listed.count + 7), "every job is listed or counted")
    }
}
