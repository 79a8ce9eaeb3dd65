import HeadwayCore
@testable import HeadwayRender
import Testing

/// The built-in styles on colour glass: each role in the appearance's colour, anti-aliased edges,
/// text in DejaVu Sans that never draws what it was not measured as, a layout for each shape of
/// glass, and the RGB status LED's colours.
@Suite("Colour screens")
struct ColourScreenTests {
    static func job(_ fraction: Double?, phase: JobPhase = .active, label: String? = "Build #1042", at time: Double = 10) -> ProgressStyleConfiguration {
        ProgressStyleConfiguration(snapshot: ProgressSnapshot(
            time: time, phase: phase, kind: fraction.map { .determinate(value: $0 * 100, total: 100) } ?? .indeterminate, fraction: fraction,
            label: label, timeRemaining: fraction == nil ? nil : 30, elapsed: time))
    }

    static func picture(_ style: some DisplayStyle, _ configuration: ProgressStyleConfiguration, width: Int, height: Int) -> (RoleMap, ColourPicture) {
        var roles = RoleMap(width: width, height: height)
        style.render(configuration, into: &roles)
        return (roles, ColourPalette(configuration).picture(roles, format: .rgb565))
    }

    static let sizes = [(320, 240), (240, 240), (240, 135), (128, 128), (160, 80), (80, 160)]

    @Test(arguments: sizes)
    func everyShapeOfGlassShowsLabelPercentageBarAndTime(_ width: Int, _ height: Int) {
        for style in [BarScreenStyle() as any DisplayStyle, RingScreenStyle()] {
            let (roles, picture) = Self.picture(style, Self.job(0.42), width: width, height: height)
            let counts = Dictionary(grouping: roles.bytes.filter { $0 != 0 }.map { $0 >> 5 }, by: { $0 }).mapValues(\.count)
            #expect((counts[SurfaceRole.text.rawValue] ?? 0) > 50, "text is drawn on \(width)x\(height)")
            #expect((counts[SurfaceRole.fill.rawValue] ?? 0) > 50, "progress is drawn on \(width)x\(height)")
            #expect((counts[SurfaceRole.track.rawValue] ?? 0) > 50, "the track is drawn on \(width)x\(height)")
            let partial = roles.bytes.filter { $0 != 0 && $0 & 0x1F < 31 }.count
            #expect(partial > 10, "edges are anti-aliased")
            #expect(picture.width == width && picture.height == height)
        }
    }

    @Test func eachRoleTakesTheAppearancesColour() {
        var look = Appearance.standard
        look.tint = Colour(red: 0xFF, green: 0x00, blue: 0x00)
        look.track = Colour(red: 0x00, green: 0x00, blue: 0x40)
        var running = Self.job(0.5)
        running.appearance = look
        let (roles, picture) = Self.picture(BarScreenStyle(), running, width: 320, height: 240)
        var seen: [SurfaceRole: RGB8] = [:]
        for y in 0..<240 {
            for x in 0..<320 where roles.level(x: x, y: y) == 31 { seen[roles.role(x: x, y: y)] = picture[x, y] }
        }
        #expect(seen[.fill] == RGB8(red: 255, green: 0, blue: 0))
        #expect(seen[.track] == RGB8(red: 0, green: 0, blue: 0x42), "the track's colour, as RGB565 keeps it")
        #expect(seen[.text] == RGB8(red: 0xF7, green: 0xF3, blue: 0xF7))
        let stalled = Self.picture(BarScreenStyle(), Self.job(0.5, phase: .stalled(silence: 40)), width: 320, height: 240).0
        #expect(stalled.bytes.contains { $0 >> 5 == SurfaceRole.stalled.rawValue }, "a stalled bar is hatched in the stalled role")
        #expect(ColourPalette(Self.job(1, phase: .finished(.failed))).fill == Appearance.standard.failure)
        #expect(ColourPalette(Self.job(0.5, phase: .stale(silence: 40))).stalled == Appearance.standard.stale)
    }

    @Test func textFromOutsideDrawsAsMeasuredAndFitsItsRoom() {
        let font = SmoothFont.sans18
        #expect(font.truncated("Build\u{1B}[31m #1\u{0}042", toFit: 1000) == "Build[31m #1042", "control characters never reach the glass")
        #expect(font.truncated("日本", toFit: 1000) == "??", "what the font lacks is a question mark")
        #expect(font.truncated("Compiling widgets and gadgets", toFit: 100).hasSuffix("…"))
        #expect(font.width(of: font.truncated("Compiling widgets and gadgets", toFit: 100)) <= 100)
        #expect(font.contains("é") && font.contains("€") && font.contains("✓"))
        for size in SmoothFont.sizes { #expect(size.figureHeight > 0 && size.lineHeight > size.figureHeight) }
    }

    @Test func theRGBStatusLEDShowsTheJobsColourOnOrOffPerChannel() {
        func lines(_ configuration: ProgressStyleConfiguration) -> [Bool] {
            var levels = LineLevels(count: 3)
            RGBStatusLEDStyle().render(configuration, into: &levels)
            return levels.values
        }
        #expect(lines(Self.job(0.5, at: 10.2)) == [false, true, true], "the tint #00a0ff: green and blue")
        #expect(lines(Self.job(0.5, phase: .stalled(silence: 40), at: 10)) == [true, true, false] || lines(Self.job(0.5, phase: .stalled(silence: 40), at: 10)) == [false, false, false])
        #expect(lines(Self.job(1, phase: .finished(.succeeded))) == [false, true, false])
        var idle = ProgressStyleConfiguration(snapshot: .idle(at: 10))
        #expect(lines(idle) == [false, false, false])
        idle.notices = Notices(unseenFailures: 1)
        #expect(lines(idle) == [true, false, false], "a failure nobody saw: red")
    }
}
