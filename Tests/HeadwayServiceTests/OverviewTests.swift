import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySimulator
import Testing

/// Several jobs at once: which one each single-job output shows, the sign that others run, and a
/// strip's segments that keep their place.
@Suite("Overview of several jobs")
struct OverviewTests {
    final class Rig {
        let clock = ManualClock()
        let ring: SimulatedLEDChain
        let strip: SimulatedLEDChain
        let oled: SimulatedOLED
        let core: ServiceCore

        init(focus: Focus) {
            ring = try! .ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
            strip = try! .ws2812(name: "strip", count: 60, layout: .strip, bus: VirtualSPIBus(clock: clock))
            oled = SimulatedOLED(name: "oled", configuration: try! OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: clock))
            core = ServiceCore(
                devices: ServiceDevices(
                    outputs: [
                        ServiceOutput(name: "ring", medium: .leds(LEDOutput(ring.driver, layout: .ring())), framesPerSecond: 50),
                        ServiceOutput(name: "strip", medium: .leds(LEDOutput(strip.driver)), framesPerSecond: 50),
                        ServiceOutput(name: "oled", medium: .display(DisplayOutput(oled.driver)), framesPerSecond: 20),
                    ], buttons: []),
                settings: ServiceSettings(policy: LifecyclePolicy(grace: 1, stallAfter: 30, linger: 3), focus: focus), clock: clock)
        }

        func send(_ request: Request) {
            let peer = Peer(connection: 1, credentials: PeerCredentials(pid: 1, uid: 1000, gid: 1000))
            _ = core.handle(line: request.line, from: peer)
        }

        func wait(until time: Seconds) {
            clock.set(to: max(clock.now, time))
            _ = core.tick()
        }

        /// The job each single-job output shows.
        var shown: [String?] { core.outputs.filter { $0.name != "strip" }.map { $0.layout.focused } }

        /// The strip's lit runs, as LED ranges.
        var stripRuns: [Range<Int>] {
            var runs: [Range<Int>] = []
            var start: Int?
            for (index, level) in (strip.levels + [.off]).enumerated() {
                if level != .off, start == nil { start = index }
                if level == .off, let first = start {
                    runs.append(first..<index)
                    start = nil
                }
            }
            return runs
        }
    }

    @Test func newestFocusFollowsTheNewestJob() {
        let rig = Rig(focus: .newest)
        rig.send(.begin(job: "a", label: "A", total: 10))
        rig.send(.begin(job: "b", label: "B", total: 10))
        rig.wait(until: 2)
        #expect(rig.shown == ["b", "b"])
    }

    /// The oldest job keeps the display until it ends; a new one does not take it.
    @Test func oldestFocusIsStable() {
        let rig = Rig(focus: .oldest)
        rig.send(.begin(job: "a", label: "A", total: 10))
        rig.wait(until: 2)
        rig.send(.begin(job: "b", label: "B", total: 10))
        rig.wait(until: 4)
        #expect(rig.shown == ["a", "a"])
        rig.send(.finish(job: "a", outcome: .succeeded))
        rig.wait(until: 8)
        #expect(rig.shown == ["b", "b"])
    }

    /// Urgent (the default): a failure being signalled takes the display, then a stalled job, and
    /// otherwise the one shown keeps it.
    @Test func urgentFocusShowsWhatNeedsAPerson() {
        let rig = Rig(focus: .urgent)
        rig.send(.begin(job: "quiet", label: "Q", total: 10))
        rig.send(.update(job: "quiet", value: 1, total: 10, label: nil))
        rig.send(.begin(job: "busy", label: "B", total: 10))
        rig.wait(until: 2)
        #expect(rig.shown == ["busy", "busy"])
        for second in stride(from: 5.0, through: 35, by: 5) {
            rig.send(.update(job: "busy", value: second / 5, total: 10, label: nil))
            rig.wait(until: second)
        }
        #expect(rig.shown == ["quiet", "quiet"], "stalled 34 s: it needs a look")
        rig.send(.begin(job: "doomed", label: "D", total: nil))
        rig.wait(until: 37)
        rig.send(.finish(job: "doomed", outcome: .failed))
        rig.wait(until: 38)
        #expect(rig.shown == ["doomed", "doomed"], "a failure first")
    }

    /// However many jobs run, the one that needs a person is found: the oldest of 200 stalls.
    @Test func urgentFocusFindsAStallAmongManyJobs() {
        let rig = Rig(focus: .urgent)
        rig.send(.begin(job: "old", label: "Old", total: 10))
        rig.send(.update(job: "old", value: 1, total: 10, label: nil))
        for index in 0..<200 { rig.send(.begin(job: "quiet-\(index)", label: nil, total: nil)) }
        rig.wait(until: 2)
        #expect(rig.shown == ["quiet-199", "quiet-199"])
        rig.wait(until: 31)
        #expect(rig.shown == ["old", "old"], "stalled: it needs a look")
    }

    /// Regression: the OLED and the ring showed the newest job with no sign that others run.
    @Test func singleJobOutputsShowThatOthersRun() {
        let alone = Rig(focus: .newest)
        alone.send(.begin(job: "a", label: "Build", total: 10))
        alone.send(.update(job: "a", value: 5, total: 10, label: nil))
        alone.wait(until: 3)
        let with = Rig(focus: .newest)
        for job in ["x", "y", "a"] {
            with.send(.begin(job: job, label: "Build", total: 10))
            with.send(.update(job: job, value: 5, total: 10, label: nil))
        }
        with.wait(until: 3)
        #expect(with.core.outputs.first { $0.name == "oled" }?.layout.focused == "a")
        // The same job drawn alone and with two others: the display adds "+2", the ring a marker.
        #expect(with.oled.picture != alone.oled.picture && with.oled.picture.litCount() > alone.oled.picture.litCount())
        let markers = zip(alone.ring.levels, with.ring.levels).filter { $0 != $1 }
        #expect(markers.count == 1, "one LED marks the others: \(markers)")
    }

    /// Regression: the strip's segments had no gap and moved as jobs came and went.
    @Test func stripSegmentsKeepTheirPlaceWithAGap() {
        let rig = Rig(focus: .newest)
        for job in ["a", "b", "c"] {
            rig.send(.begin(job: job, label: job, total: 10))
            rig.send(.update(job: job, value: 10, total: 10, label: nil))
        }
        rig.wait(until: 3)
        #expect(rig.stripRuns == [0..<19, 20..<39, 40..<60], "three segments, one dark LED between")
        rig.send(.finish(job: "a", outcome: .cancelled))
        rig.wait(until: 8)
        #expect(rig.stripRuns == [20..<39, 40..<60], "b and c stay where they were")
        rig.send(.begin(job: "d", label: "d", total: 10))
        rig.send(.update(job: "d", value: 10, total: 10, label: nil))
        rig.wait(until: 10)
        #expect(rig.stripRuns == [0..<19, 20..<39, 40..<60], "the new job takes the free segment")
        #expect(rig.core.outputs.first { $0.name == "strip" }?.layout.slots == ["d", "b", "c"])
    }
}
