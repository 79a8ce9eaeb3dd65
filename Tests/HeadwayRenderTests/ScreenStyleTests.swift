import HeadwayCore
import HeadwayRender
import Testing

@Suite("Display styles")
struct ScreenStyleTests {
    @Test func barFillMatchesFraction() {
        for percent in [0, 1, 33, 50, 99] {
            let bitmap = Fixture.bitmap(Fixture.active(Double(percent) / 100), style: BarScreenStyle())
            let inner = PixelRect(x: 2, y: 32, width: 124, height: 8)
            #expect(bitmap.litCount(in: inner) == 124 * percent / 100 * 8, "\(percent) %")
        }
    }

    @Test func longLabelsAreCutWithEllipsis() {
        let label = "Rendering the extremely long final sequence of the animation"
        for (width, height) in [(128, 64), (128, 32)] {
            var snapshot = Fixture.active(0.5)
            snapshot.label = label
            for style in [BarScreenStyle() as any DisplayStyle, RingScreenStyle()] {
                var bitmap = Bitmap(width: width, height: height)
                style.render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
                #expect(bitmap.litCount() > 0)
            }
        }
        let font = BitmapFont.fixed5x7
        #expect(font.truncated(label, toFit: 128) == "Rendering the extremely …")
        #expect(font.truncated("short", toFit: 128) == "short")
        #expect(font.truncated("tab\there", toFit: 128) == "tabhere")
        #expect(font.truncated("naïve → Zürich ✓", toFit: 128) == "naïve → Zürich ✓", "Latin-1 and a few symbols are in the font")
        #expect(font.truncated("nai\u{308}ve", toFit: 128) == "nai\u{308}ve", "a decomposed ï draws as its letter")
        #expect(font.truncated("日本", toFit: 128) == "??")
        // Regression: non-ASCII letters were drawn as "?".
        for character in "éüßñÅ→←✓✗…€" {
            #expect(font.contains(character) && font.rows(for: character) != font.rows(for: "?"), "\(character)")
        }
        #expect(font.rows(for: "é") != font.rows(for: "e"))
    }

    @Test func truncationNeverOverflows() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABC0123456789/-_.:é✓")
        for _ in 0..<500 {
            let length = Int.random(in: 0...60, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let width = Int.random(in: 0...128, using: &generator)
            let cut = BitmapFont.fixed5x7.truncated(text, toFit: width)
            #expect(BitmapFont.fixed5x7.width(of: cut) <= width)
            #expect(cut.hasSuffix("…") == (text.count * 5 > width && width >= 5))
        }
    }

    /// The percentage is optional: hidden by the job (`begin --no-percent`) or by the appearance,
    /// the screens draw the same bar without it.
    @Test func thePercentageCanBeHidden() {
        var quiet = Fixture.active(0.42)
        quiet.showsPercent = false
        func check(_ style: some DisplayStyle) {
            let shown = Fixture.bitmap(Fixture.active(0.42), style: style)
            let hiddenByJob = Fixture.bitmap(quiet, style: style)
            let hiddenByAppearance = Fixture.bitmap(Fixture.active(0.42), style: style, appearance: Appearance(showsPercent: false))
            #expect(hiddenByJob.litCount() < shown.litCount(), "\(type(of: style))")
            #expect(hiddenByJob == hiddenByAppearance, "\(type(of: style))")
        }
        check(BarScreenStyle())
        check(RingScreenStyle())
    }

    @Test func hiddenTrackDrawsNoOutline() {
        let withTrack = Fixture.bitmap(Fixture.active(0.2), style: BarScreenStyle())
        let without = Fixture.bitmap(Fixture.active(0.2), style: BarScreenStyle(), appearance: Appearance(track: nil))
        #expect(withTrack[127, 35] && !without[127, 35])
    }

    @Test func stalledBarIsHatchedNotSolid() {
        let stalled = Fixture.bitmap(Fixture.stalled(0.5), style: BarScreenStyle())
        let inner = PixelRect(x: 2, y: 32, width: 62, height: 8)
        #expect(stalled.litCount(in: inner) == 62 * 8 / 2)
    }

    /// Nothing moves on a queued or stale job's screen: time passing changes no pixel but the text.
    @Test func queuedAndStaleScreensAreStill() {
        for style in [BarScreenStyle() as any DisplayStyle, RingScreenStyle()] {
            var queued = Fixture.queued(), later = Fixture.queued()
            later.elapsed += 0.7
            #expect(Fixture.bitmap(queued, style: style) == Fixture.bitmap(later, style: style))
            queued.phase = .active
            #expect(Fixture.bitmap(queued, style: style) != Fixture.bitmap(later, style: style), "an active indeterminate job moves")
            var stale = Fixture.stale(nil), staleLater = Fixture.stale(nil)
            staleLater.elapsed += 0.7
            #expect(Fixture.bitmap(stale, style: style) == Fixture.bitmap(staleLater, style: style))
            stale.phase = .active
            #expect(Fixture.bitmap(stale, style: style) != Fixture.bitmap(staleLater, style: style))
        }
    }

    @Test func hiddenJobsDrawNothing() {
        #expect(Fixture.bitmap(.idle(at: 0), style: BarScreenStyle()).litCount() == 0)
        #expect(Fixture.bitmap(.idle(at: 0), style: RingScreenStyle()).litCount() == 0)
    }

    @Test(arguments: [
        ("bar-128x64", Fixture.active(0.35), 128, 64, false),
        ("bar-128x32", Fixture.active(0.63, label: "Backup /home to NAS nightly", total: 1, eta: 6), 128, 32, false),
        ("bar-128x64-indeterminate", Fixture.active(nil, label: "Waiting for runner", elapsed: 10), 128, 64, false),
        ("bar-128x32-indeterminate", Fixture.active(nil, label: "Waiting for runner", elapsed: 10), 128, 32, false),
        ("bar-128x64-stalled", Fixture.stalled(0.5), 128, 64, false),
        ("bar-128x64-countdown", Fixture.countdown(0.25, left: 150), 128, 64, false),
        ("ring-128x64", Fixture.active(0.42, label: "Render"), 128, 64, true),
        ("ring-128x32", Fixture.active(0.7, label: "Print", total: 1, eta: 5), 128, 32, true),
        ("ring-128x64-spinner", Fixture.active(nil, label: "Queued", elapsed: 0.5), 128, 64, true),
        ("ring-128x64-stalled", Fixture.stalled(0.3), 128, 64, true),
        ("bar-128x64-queued", Fixture.queued(), 128, 64, false),
        ("bar-128x32-stale", Fixture.stale(5.0 / 12), 128, 32, false),
        ("ring-128x64-queued", Fixture.queued(), 128, 64, true),
        ("ring-128x64-stale", Fixture.stale(5.0 / 12), 128, 64, true),
        ("finished-128x64-success", Fixture.finished(.succeeded, fraction: 1), 128, 64, false),
        ("finished-128x32-failed", Fixture.finished(.failed, fraction: 0.4), 128, 32, false),
        ("finished-128x64-cancelled", Fixture.finished(.cancelled, fraction: 0.4), 128, 64, true),
    ])
    func goldenFrames(name: String, snapshot: ProgressSnapshot, width: Int, height: Int, ring: Bool) {
        let bitmap = ring
            ? Fixture.bitmap(snapshot, width: width, height: height, style: RingScreenStyle())
            : Fixture.bitmap(snapshot, width: width, height: height, style: BarScreenStyle())
        Golden.check(name, Golden.text(of: bitmap))
    }
}
