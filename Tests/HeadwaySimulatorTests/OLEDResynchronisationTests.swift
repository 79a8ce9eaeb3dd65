import HeadwayCore
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

/// A display that loses power without the driver seeing a failed write — re-plugged while nothing
/// was sent, or a brown-out between two frames — comes back by itself.
@Suite("OLED resynchronisation")
struct OLEDResynchronisationTests {
    typealias Rig = OLEDDriverTests.Rig
    static let module = OLEDDriverTests.Module(controller: .ssd1306, width: 128, height: 64)

    static func picture(_ text: String) -> Bitmap {
        var bitmap = Bitmap(width: 128, height: 64)
        bitmap.draw(text, x: 4, y: 20, font: .fixed5x7, scale: 2)
        return bitmap
    }

    /// Regression: an idle service sends nothing, so a display unplugged and plugged back while
    /// dark stayed dark when the next job came (the demo with `--unplug 0.5:0.5`).
    @Test func aDisplayReplugedWhileDarkComesBackWithTheNextPicture() throws {
        let rig = try Rig(Self.module)
        try rig.driver.show(.bitmap(Bitmap(width: 128, height: 64)))  // idle: blank
        rig.bus.inject(.disappear(address: 0x3C, until: 1))
        rig.clock.set(to: 2)
        try rig.driver.show(.bitmap(Self.picture("Build")))
        #expect(rig.chip.picture == Self.picture("Build"))
        #expect(rig.chip.protocolErrors.isEmpty)
    }

    /// A power cut between two frames (no write failed) is repaired by the periodic
    /// resynchronisation, at most `interval` seconds later, even on a picture that stands still.
    @Test func aBrownOutBetweenFramesIsRepairedWithinTheInterval() throws {
        let rig = try Rig(Self.module)
        try rig.driver.show(.bitmap(Self.picture("Build 1")))
        rig.clock.set(to: 5)
        rig.bus.inject(.disappear(address: 0x3C, until: 5.01))
        rig.clock.set(to: 5.05)
        try rig.driver.show(.bitmap(Self.picture("Build 2")))  // lands on a display that just powered up: dark
        #expect(rig.chip.picture != Self.picture("Build 2"))
        var time = 5.05
        while time < 31 {
            time += 0.5
            rig.clock.set(to: time)
            try rig.driver.show(.bitmap(Self.picture("Build 2")))
        }
        #expect(rig.chip.picture == Self.picture("Build 2"), "resynchronised within 30 s")
    }

    /// Without resynchronisation the same brown-out leaves the glass wrong: the test above can fail.
    @Test func withoutResynchronisationTheGlassStaysWrong() throws {
        let rig = try Rig(Self.module, resynchronisation: .onErrorsOnly)
        try rig.driver.show(.bitmap(Self.picture("Build 1")))
        rig.bus.inject(.disappear(address: 0x3C, until: 5.01))
        rig.clock.set(to: 5.05)
        for step in 0..<60 {
            rig.clock.set(to: 5.05 + Double(step))
            try rig.driver.show(.bitmap(Self.picture("Build 2")))
        }
        #expect(rig.chip.picture != Self.picture("Build 2"))
    }

    /// A picture that changes all the time is never resent whole before the interval is up.
    @Test func resynchronisationCostsOneFullFramePerInterval() throws {
        let rig = try Rig(Self.module)
        var full = 0
        for step in 0..<600 {
            rig.clock.set(to: Double(step) * 0.1)
            try rig.driver.show(.bitmap(Self.picture("\(step)")))
            rig.bus.endFrame()
            if let frame = rig.bus.statistics.frames.last, frame.bytes > 1024 { full += 1 }
        }
        #expect(full == 2, "the first frame and one resynchronisation in 60 s at 30 s intervals, got \(full)")
    }
}
