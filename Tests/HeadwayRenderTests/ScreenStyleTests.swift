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

    /// A long label is drawn cut where a word ends, with "…": the picture holds exactly that text
    /// where the label goes, and nothing of the label after it.
    @Test func longLabelsAreCutWithEllipsis() {
        let label = "Rendering the extremely long final sequence of the animation"
        let font = BitmapFont.fixed5x7
        for (width, height) in [(128, 64), (128, 32)] {
            var snapshot = Fixture.active(0.5)
            snapshot.label = label
            for style in [BarScreenStyle() as any DisplayStyle, RingScreenStyle()] {
                var bitmap = Bitmap(width: width, height: height)
                style.render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
                // The cut the style asks the font for fits some room; the picture shows one of the
                // label's word-ends and "…", drawn whole, followed by dark glass.
                let cuts = (1...label.count).map { font.truncated(label, toFit: $0 * font.cellWidth) }.filter { $0.hasSuffix("…") }
                let drawn = Set(cuts).compactMap { text in Self.locate(text, in: bitmap, font: font).map { (text, $0) } }
                    .max { $0.0.count < $1.0.count }
                guard let (text, place) = drawn else {
                    Issue.record("\(width)x\(height) \(type(of: style)): no cut of the label is drawn")
                    continue
                }
                let kept = String(text.dropLast())
                #expect(text.count > 8 && label.hasPrefix(kept + " "), "\(width)x\(height) \(type(of: style)): cut within a word: \(text)")
                let after = PixelRect(x: place.x + font.width(of: text), y: place.y, width: min(font.cellWidth, width - place.x - font.width(of: text)), height: font.cellHeight)
                #expect(after.width <= 0 || bitmap.litCount(in: after) == 0, "\(width)x\(height) \(type(of: style)): more drawn after \(text)")
            }
        }
        #expect(font.truncated(label, toFit: 128) == "Rendering the extremely…")
        #expect(font.truncated("Rendering the extremely long", toFit: 50) == "Rendering…", "a word cut only when no word ends in the second half")
        #expect(font.truncated("/var/lib/headway/a-very-long-path", toFit: 60) == "/var/lib/he…", "a path has no word to end at")
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

    /// Where `text` is drawn in `bitmap`: the top-left corner of a box the size of the text that
    /// holds exactly the font's drawing of it (and nothing else), if there is one.
    static func locate(_ text: String, in bitmap: Bitmap, font: BitmapFont) -> (x: Int, y: Int)? {
        let textWidth = font.width(of: text)
        guard textWidth <= bitmap.width else { return nil }
        var alone = Bitmap(width: textWidth, height: font.cellHeight)
        alone.draw(text, x: 0, y: 0, font: font)
        for y in 0...(bitmap.height - font.cellHeight) {
            for x in 0...(bitmap.width - textWidth) {
                var same = true
                scan: for dy in 0..<font.cellHeight {
                    for dx in 0..<textWidth where alone[dx, dy] != bitmap[x + dx, y + dy] {
                        same = false
                        break scan
                    }
                }
                if same { return (x, y) }
            }
        }
        return nil
    }

    /// Regression: a dd job's value was drawn "1167097856/3145728000…", cut. Sizes and durations
    /// are drawn in their units, whole.
    @Test func valuesAreDrawnInTheirUnits() {
        for (unit, value, total, text) in [(ValueUnit.bytes, 1_205_862_400.0, 3_145_728_000.0, "1.2/3.1 GB"), (.seconds, 2.6, 40, "2s/40s")] {
            var snapshot = Fixture.active(value / total)
            snapshot.kind = .determinate(value: value, total: total)
            snapshot.unit = unit
            for (width, height) in [(128, 64), (128, 32)] {
                for style in [BarScreenStyle() as any DisplayStyle, RingScreenStyle()] {
                    var bitmap = Bitmap(width: width, height: height)
                    style.render(ProgressStyleConfiguration(snapshot: snapshot), into: &bitmap)
                    #expect(Self.locate(text, in: bitmap, font: .fixed5x7) != nil, "\(width)x\(height) \(type(of: style)): \(text) is not drawn")
                }
            }
        }
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
