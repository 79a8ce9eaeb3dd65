@testable import HeadwayRender
import HeadwaySurfaces
import Testing

/// What idle outputs still show: a display's last result and unseen-failure mark, a chain's one
/// dim LED, GPIO LEDs' last LED — and nothing at all without notices.
@Suite("Notices on idle outputs")
struct NoticeTests {
    static func idle(_ notices: Notices, brightness: Double = 1) -> ProgressStyleConfiguration {
        ProgressStyleConfiguration(snapshot: .idle(at: 100), appearance: Appearance(brightness: brightness), notices: notices)
    }

    static let result = LastResult(outcome: .failed, label: "Nightly backup", endedAt: "03:12")

    @Test func withoutNoticesAnIdleOutputIsDark() {
        var bitmap = Bitmap(width: 128, height: 64)
        BarScreenStyle().render(Self.idle(.none), into: &bitmap)
        var frame = LEDFrame(count: 24)
        LEDIndicatorStyle(layout: .ring()).render(Self.idle(.none), into: &frame)
        var levels = LineLevels(count: 8)
        BarGraphStyle().render(Self.idle(.none), into: &levels)
        #expect(bitmap.isBlank && (0..<24).allSatisfy { frame[$0] == .black } && levels.values.allSatisfy { !$0 })
    }

    @Test func theLastResultIsSmallAndCentredOnEveryDisplaySize() {
        for (width, height) in [(128, 64), (128, 32), (64, 48), (128, 128), (127, 63)] {
            var bitmap = Bitmap(width: width, height: height)
            BarScreenStyle().render(Self.idle(Notices(lastResult: Self.result)), into: &bitmap)
            var grey = Greymap(width: width, height: height)
            RingScreenStyle().render(Self.idle(Notices(lastResult: Self.result)), into: &grey)
            let lit = bitmap.litCount()
            #expect(lit > 60 && lit < width * height / 6, "\(width)x\(height): \(lit) pixels")
            #expect(bitmap.litCount(in: PixelRect(x: 0, y: 0, width: width, height: max(0, (height - 24) / 2))) == 0, "\(width)x\(height): nothing above the middle band")
            #expect(!grey.isBlank)
        }
    }

    @Test func unseenFailuresAreABoxedMarkInTheCorner() {
        var bitmap = Bitmap(width: 128, height: 64)
        BarScreenStyle().render(Self.idle(Notices(unseenFailures: 3)), into: &bitmap)
        let corner = PixelRect(x: 104, y: 0, width: 24, height: 10)
        #expect(bitmap.litCount(in: corner) == bitmap.litCount() && bitmap.litCount() > 10, "only the corner is lit")
        #expect(bitmap[127, 0] && bitmap[127, 9], "boxed")
    }

    @Test func chainsAndGPIOLEDsMarkTheirLastLEDEvenWhenDark() {
        var frame = LEDFrame(count: 24)
        LEDIndicatorStyle(layout: .ring()).render(Self.idle(Notices(unseenFailures: 1), brightness: 0), into: &frame)
        #expect((0..<23).allSatisfy { frame[$0] == .black } && frame[23] != .black && frame[23].red > frame[23].green)
        var bar = LineLevels(count: 8)
        BarGraphStyle().render(Self.idle(Notices(unseenFailures: 2)), into: &bar)
        #expect(bar.values == [false, false, false, false, false, false, false, true])
        var status = LineLevels(count: 1)
        StatusLEDStyle().render(Self.idle(Notices(unseenFailures: 1)), into: &status)
        #expect(status.values == [true])
    }
}
