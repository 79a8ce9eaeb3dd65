import HeadwayCore
@testable import HeadwayRender
import Testing

@Suite("LED styles")
struct LEDStyleTests {
    let look = Appearance.standard

    @Test func leadingLEDIsBlendedInLinearLight() {
        // 42.5 % of 60 LEDs: 25 full, the 26th half covered.
        let frame = Fixture.led(Fixture.active(0.425), count: 60, style: .strip)
        let tint = look.tintLight, track = look.trackLight
        #expect(frame[0] == tint && frame[24] == tint)
        let half = frame[25]
        #expect(abs(half.blue - (tint.blue + track.blue) / 2) < 1e-6)
        #expect(abs(half.green - (tint.green + track.green) / 2) < 1e-6)
        #expect(frame[26] == track && frame[59] == track)
    }

    @Test func ringStartsWhereToldAndRunsBothWays() {
        let clockwise = Fixture.led(Fixture.active(0.25), count: 24, style: .ring(start: 6, clockwise: true))
        let anticlockwise = Fixture.led(Fixture.active(0.25), count: 24, style: .ring(start: 6, clockwise: false))
        let lit = { (frame: LEDFrame) in Set((0..<24).filter { frame[$0] != self.look.trackLight }) }
        #expect(lit(clockwise) == Set(6...11))
        #expect(lit(anticlockwise) == Set([6, 5, 4, 3, 2, 1]))
        #expect(LEDLayout.ring(start: 2, clockwise: false).index(ofPosition: 3, count: 24) == 23)
    }

    @Test func hiddenTrackAndBrightness() {
        let hidden = Appearance(track: nil, brightness: 0.5)
        let frame = Fixture.led(Fixture.active(0.5), count: 10, style: .strip, appearance: hidden)
        #expect(frame[9] == .black)
        #expect(frame[0] == look.tintLight.scaled(by: 0.5))
    }

    @Test func idleAndPendingAreDark() {
        let frame = Fixture.led(.idle(at: 5), count: 12, style: .ring())
        #expect(frame.pixels.allSatisfy { $0 == .black })
    }

    @Test func cometMovesSmoothlyAroundTheRing() {
        // The light's centre of mass advances steadily: no jumps from one LED to the next.
        var previous: Double?
        for step in 0..<30 {
            let frame = Fixture.led(Fixture.active(nil, elapsed: Double(step) * 0.01), count: 24, style: .ring())
            let weights = frame.pixels.map { Double($0.blue) }
            let brightest = weights.indices.max { weights[$0] < weights[$1] }!
            if let previous { #expect(abs(Double(brightest) - previous) <= 1) }
            previous = Double(brightest)
        }
    }

    @Test func stalledLooksDifferentAndDoesNotMove() {
        let active = Fixture.led(Fixture.active(0.5), count: 20, style: .strip)
        let stalledA = Fixture.led(Fixture.stalled(0.5, phaseElapsed: 1.5), count: 20, style: .strip)
        let stalledB = Fixture.led(Fixture.stalled(0.5, phaseElapsed: 1.6), count: 20, style: .strip)
        #expect(active != stalledA)
        #expect(stalledA[0].red > stalledA[0].blue, "a stalled fill takes the stalled (amber) colour")
        let lit = { (frame: LEDFrame) in (0..<20).filter { frame[$0] != self.look.trackLight } }
        #expect(lit(stalledA) == lit(stalledB), "breathing changes brightness, never the extent")
    }

    /// Queued: the track and the first LED breathing at the start line; nothing along the chain.
    /// Stale: the fill in the stale grey, not the stalled amber, not moving.
    @Test func queuedWaitsAtTheStartAndStaleIsGrey() {
        let queued = Fixture.led(Fixture.queued(), count: 24, style: .ring(start: 3))
        #expect((0..<24).filter { queued[$0] != look.trackLight } == [3])
        #expect(queued[3].blue > look.trackLight.blue)
        let staleA = Fixture.led(Fixture.stale(0.5, phaseElapsed: 1), count: 20, style: .strip)
        let staleB = Fixture.led(Fixture.stale(0.5, phaseElapsed: 2), count: 20, style: .strip)
        #expect(abs(staleA[0].red - staleA[0].blue) < 1e-6, "grey, neither the tint nor amber")
        let lit = { (frame: LEDFrame) in (0..<20).filter { frame[$0] != self.look.trackLight } }
        #expect(lit(staleA) == Array(0..<10) && lit(staleA) == lit(staleB))
    }

    @Test func crossFadeFromIndeterminate() {
        var snapshot = Fixture.active(0.5, elapsed: 3)
        snapshot.determinateFor = 0.25
        let halfway = Fixture.led(snapshot, count: 24, style: .ring())
        snapshot.determinateFor = 1
        let settled = Fixture.led(snapshot, count: 24, style: .ring())
        #expect(halfway != settled)
    }

    @Test func successWashesAndFadesOut() {
        let washed = Fixture.led(Fixture.finished(.succeeded, fraction: 1, phaseElapsed: 1, left: 2), count: 24, style: .ring())
        #expect(washed.pixels.allSatisfy { $0.isClose(to: LinearColour(look.success)) })
        let fading = Fixture.led(Fixture.finished(.succeeded, fraction: 1, phaseElapsed: 2.6, left: 0.4), count: 24, style: .ring())
        #expect(fading[0].isClose(to: LinearColour(look.success).scaled(by: 0.5)))
    }

    @Test(arguments: [
        ("strip60-fill-42", Fixture.active(0.425), 60, LEDIndicatorStyle.strip),
        ("ring24-fill-30-start6-anticlockwise", Fixture.active(0.3), 24, .ring(start: 6, clockwise: false)),
        ("ring24-comet", Fixture.active(nil, elapsed: 0.4), 24, .ring()),
        ("strip60-sweep", Fixture.active(nil, elapsed: 0.6), 60, .strip),
        ("strip60-stalled", Fixture.stalled(0.5), 60, .strip),
        ("ring24-stalled-indeterminate", Fixture.stalled(nil), 24, .ring()),
        ("ring24-success", Fixture.finished(.succeeded, fraction: 1, phaseElapsed: 0.4), 24, .ring()),
        ("strip60-failure", Fixture.finished(.failed, fraction: 0.3, phaseElapsed: 0.1), 60, .strip),
        ("strip60-cancelled", Fixture.finished(.cancelled, fraction: 0.6), 60, .strip),
        ("ring24-countdown", Fixture.countdown(0.75, left: 50), 24, .ring()),
    ])
    func goldenFrames(name: String, snapshot: ProgressSnapshot, count: Int, style: LEDIndicatorStyle) {
        Golden.check(name, Golden.text(of: Fixture.led(snapshot, count: count, style: style)))
    }
}

extension LinearColour {
    func isClose(to other: LinearColour) -> Bool {
        abs(red - other.red) < 1e-5 && abs(green - other.green) < 1e-5 && abs(blue - other.blue) < 1e-5
    }
}
