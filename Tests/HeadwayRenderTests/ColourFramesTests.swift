import HeadwayCore
@testable import HeadwayRender
import HeadwaySurfaces
import Testing

/// Colour frames drawn over the last ones: each picture is the whole drawing, whatever buffer it
/// was drawn over; its damage covers every pixel that differs from the last picture; a role map's
/// changes, clearing and comparisons look only where something was drawn.
@Suite("Colour frames drawn over the last")
struct ColourFramesTests {

    /// A few rectangles of random roles and levels, and a stray pixel.
    static func draw(_ roles: inout RoleMap, _ random: inout SeededRandom) {
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let w = Int.random(in: 1...roles.width, using: &random), h = Int.random(in: 1...max(1, roles.height / 3), using: &random)
            let rect = PixelRect(x: Int.random(in: 0...(roles.width - w), using: &random), y: Int.random(in: 0...(roles.height - h), using: &random), width: w, height: h)
            roles.fill(rect, level: UInt8.random(in: 1...31, using: &random), role: [.fill, .track, .stalled, .text].randomElement(using: &random)!)
        }
        roles.setLevel(UInt8.random(in: 0...31, using: &random), x: Int.random(in: 0..<roles.width, using: &random), y: Int.random(in: 0..<roles.height, using: &random), role: .text)
    }

    static func job(_ phase: JobPhase) -> ProgressStyleConfiguration {
        ProgressStyleConfiguration(snapshot: ProgressSnapshot(
            time: 10, phase: phase, kind: .determinate(value: 50, total: 100), fraction: 0.5, label: "Build", timeRemaining: 30, elapsed: 10))
    }

    @Test(arguments: [(320, 240, PixelFormat.rgb565), (37, 13, .rgb666), (1, 1, .rgb565)])
    func eachPictureIsTheWholeDrawingAndItsDamageCoversEveryChange(_ width: Int, _ height: Int, _ format: PixelFormat) {
        var random = SeededRandom(seed: UInt64(width * 1000 + height))
        var frames = ColourFrames()
        var last: (roles: RoleMap, picture: ColourPicture)?
        var drawnOver = 0
        for step in 0..<80 {
            // The palette changes with the phase now and then; some frames repeat the last.
            let palette = ColourPalette(Self.job(step / 20 % 2 == 0 ? .active : .stalled(silence: 60)))
            var roles = frames.canvas(width: width, height: height)
            #expect(roles.isBlank && roles.bytes.allSatisfy { $0 == 0 }, "a canvas is blank")
            if step % 7 == 3, let last { roles = last.roles } else { Self.draw(&roles, &random) }
            let picture = frames.picture(of: roles, palette: palette, format: format)
            let whole = palette.picture(roles, format: format)
            #expect(picture.bytes == whole.bytes, "frame \(step): the picture is the whole drawing")
            #expect(picture == whole)
            // A frame that repeats the last is the last picture itself.
            if let last, picture.generation == last.picture.generation { #expect(picture.bytes == last.picture.bytes) }
            else if let damage = picture.damage, let last {
                drawnOver += 1
                #expect(damage.base == last.picture.generation, "damage is against the last picture")
                for y in 0..<height {
                    let stretch = damage.rows.first { $0.row == y }
                    for x in 0..<width where last.picture[x, y] != picture[x, y] {
                        #expect(stretch.map { $0.first <= x && x <= $0.last } ?? false, "frame \(step): (\(x), \(y)) changed outside the damage")
                    }
                }
                #expect(damage.rows.map { $0.row } == damage.rows.map { $0.row }.sorted() && Set(damage.rows.map { $0.row }).count == damage.rows.count)
            }
            last = (roles, picture)
        }
        #expect(drawnOver > 40, "most frames are drawn over an earlier one")
    }

    @Test func changesAreTheFirstAndLastDifferingPixelOfEachRow() {
        var random = SeededRandom(seed: 7)
        for width in [1, 7, 8, 9, 31, 33, 64, 70] {
            for _ in 0..<20 {
                var a = RoleMap(width: width, height: 5), b = RoleMap(width: width, height: 5)
                Self.draw(&a, &random)
                Self.draw(&b, &random)
                if Bool.random(using: &random) { b = a; b.setLevel(9, x: Int.random(in: 0..<width, using: &random), y: 2, role: .fill) }
                var expected: [RowStretch] = []
                for y in 0..<5 {
                    let differing = (0..<width).filter { a.bytes[y * width + $0] != b.bytes[y * width + $0] }
                    if let first = differing.first, let last = differing.last { expected.append(RowStretch(row: y, first: first, last: last)) }
                }
                #expect(a.changes(to: b) == expected, "width \(width)")
            }
        }
    }

    @Test func clearingBlanksEveryRowDrawnOnHoweverItWasDrawn() {
        var roles = RoleMap(width: 50, height: 130)
        roles.fill(PixelRect(x: 3, y: 0, width: 10, height: 2), level: 31, role: .fill)
        roles.setLevel(20, x: 49, y: 129, role: .text)
        roles.setColumn(7, from: 60, bits: 0b1011, level: 31, role: .track)
        roles.withUnsafeMutablePixels(rows: 100..<101) { $0[100 * 50 + 4] = 0x3F }
        roles.withUnsafeMutablePixels { $0[70 * 50] = 0x21 }
        roles.capsule(PixelRect(x: 0, y: 80, width: 50, height: 12), .fill, upTo: 31.5)
        roles.draw("Ag", x: 2, y: 110, font: ColourScreenLayout.of(width: 50, height: 130).text)
        #expect(!roles.isBlank)
        roles.clear()
        #expect(roles.isBlank)
        #expect(roles.bytes.allSatisfy { $0 == 0 })
        #expect(roles == RoleMap(width: 50, height: 130))
    }

    @Test func picturesDrawnOverAnotherCompareByTheirDamage() {
        var roles = RoleMap(width: 16, height: 4)
        roles.fill(PixelRect(x: 0, y: 0, width: 16, height: 4), level: 31, role: .track)
        let palette = ColourPalette(Self.job(.active))
        var frames = ColourFrames()
        let first = frames.picture(of: roles, palette: palette, format: .rgb565)
        var next = frames.canvas(width: 16, height: 4)
        next.fill(PixelRect(x: 0, y: 0, width: 16, height: 4), level: 31, role: .track)
        next.fill(PixelRect(x: 5, y: 2, width: 3, height: 1), level: 31, role: .fill)
        let second = frames.picture(of: next, palette: palette, format: .rgb565)
        #expect(second.damage?.rows == [RowStretch(row: 2, first: 5, last: 7)])
        #expect(first != second && second != first)
        // A pixel set by hand takes a new generation and no damage: compared whole.
        var edited = second
        edited[6, 2] = first[6, 2]
        edited[5, 2] = first[5, 2]
        edited[7, 2] = first[7, 2]
        #expect(edited.damage == nil && edited.generation != second.generation)
        #expect(edited == first)
        #expect(second == second)
    }
}
