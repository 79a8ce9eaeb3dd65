import HeadwayCore
import HeadwayRender
import Testing

/// The display styles on a greyscale surface: the same drawing as on a bitmap, with a dim track,
/// anti-aliased ring and bar edges and a grey stalled fill; golden frames of each look.
@Suite("Display styles in grey")
struct GreyStyleTests {
    static func greymap(_ snapshot: ProgressSnapshot, width: Int = 128, height: Int = 128, style: some DisplayStyle) -> Greymap {
        var picture = Greymap(width: width, height: height)
        style.render(ProgressStyleConfiguration(snapshot: snapshot), into: &picture)
        return picture
    }

    /// Each pixel's level as a hex digit, `.` for off.
    static func text(of picture: Greymap) -> String {
        let digits = Array("0123456789abcdef")
        return (0..<picture.height).map { y in String((0..<picture.width).map { picture[$0, y] == 0 ? "." : digits[Int(picture[$0, y])] }) }.joined(separator: "\n") + "\n"
    }

    static func levels(_ picture: Greymap, in rect: PixelRect) -> Set<UInt8> {
        var levels = Set<UInt8>()
        for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { levels.insert(picture[x, y]) } }
        return levels
    }

    @Test func theTrackIsDimTheFillFullAndItsEdgeAShare() {
        // 42.5 % of 124 columns: 52.7 — 52 full columns, the 53rd lit by its 0.7 share.
        let picture = Self.greymap(Fixture.active(0.425), style: BarScreenStyle())
        let bar = PixelRect(x: 0, y: 32 + 30, width: 128, height: 12)  // centred: 32 rows above
        #expect(picture[0, bar.y + 5] == 4, "track outline at the track shade")
        #expect(picture[2 + 10, bar.y + 5] == 15, "fill full")
        #expect(picture[2 + 52, bar.y + 5] == 10, "the edge column: 0.7 of full, rounded down")
        #expect(picture[2 + 53, bar.y + 5] == 0, "nothing past the edge")
        // The same drawing on a bitmap lights the whole columns only: never ahead of the job.
        var bitmap = Bitmap(width: 128, height: 128)
        BarScreenStyle().render(ProgressStyleConfiguration(snapshot: Fixture.active(0.425)), into: &bitmap)
        #expect(bitmap[2 + 51, bar.y + 5] && !bitmap[2 + 52, bar.y + 5])
    }

    @Test func ringEdgesAreAntiAliased() {
        let picture = Self.greymap(Fixture.active(0.63), style: RingScreenStyle())
        let levels = Self.levels(picture, in: PixelRect(x: 0, y: 0, width: 128, height: 100))
        #expect(levels.contains(15) && levels.contains { $0 > 0 && $0 < 15 && $0 != 4 }, "partly covered edge pixels between off and full: \(levels.sorted())")
    }

    @Test func aStalledBarIsGreyAndHatched() {
        let picture = Self.greymap(Fixture.stalled(0.4), style: BarScreenStyle())
        let fill = Self.levels(picture, in: PixelRect(x: 2, y: 32 + 32, width: 40, height: 8))
        #expect(fill == [0, 7], "hatched, at the stalled shade: \(fill.sorted())")
    }

    @Test(arguments: [
        ("grey-bar-42", Fixture.active(0.425), false, 128, 128),
        ("grey-ring-63", Fixture.active(0.63), true, 128, 128),
        ("grey-ring-stalled", Fixture.stalled(0.3), true, 128, 128),
        ("grey-bar-96", Fixture.active(0.8), false, 96, 96),
        ("grey-ring-spinner-96", Fixture.active(nil, elapsed: 0.7), true, 96, 96),
    ] as [(String, ProgressSnapshot, Bool, Int, Int)])
    func goldenFrames(name: String, snapshot: ProgressSnapshot, ring: Bool, width: Int, height: Int) {
        let picture = ring
            ? Self.greymap(snapshot, width: width, height: height, style: RingScreenStyle())
            : Self.greymap(snapshot, width: width, height: height, style: BarScreenStyle())
        Golden.check(name, Self.text(of: picture))
    }
}
