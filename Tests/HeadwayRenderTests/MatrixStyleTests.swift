import HeadwayCore
import HeadwayRender
import Testing

/// The matrix style on every face: what the segments say, and the pixels at each glass's depth.
@Suite("Matrix style")
struct MatrixStyleTests {
    static let clock = MatrixFace.segments(count: 4, kind: .seven, colon: true)
    static let alnum = MatrixFace.segments(count: 4, kind: .fourteen, colon: false)
    static let bargraph = MatrixFace.pixels(width: 24, height: 1, dies: .redGreen)
    static let mono8 = MatrixFace.pixels(width: 8, height: 8, dies: .onOff)

    /// `snapshot` drawn on `face` and put at its depth.
    static func frame(_ snapshot: ProgressSnapshot, on face: MatrixFace, appearance: Appearance = .standard, otherJobs: Int = 0, notices: Notices = .none,
                      pipeline: ColourPipeline = ColourPipeline()) -> MatrixFrame {
        var picture = MatrixPicture(face: face)
        MatrixStyle().render(ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance, otherJobs: otherJobs, notices: notices), into: &picture)
        var dither = DitherState()
        return picture.frame(appearance: appearance, pipeline: pipeline, dither: &dither)
    }

    static func digits(_ frame: MatrixFrame) -> SegmentPicture {
        guard case .segments(let picture) = frame.content else { return SegmentPicture(count: 0) }
        return picture
    }

    static func levels(_ frame: MatrixFrame) -> MatrixLevels {
        guard case .pixels(let levels) = frame.content else { return MatrixLevels(width: 1, height: 1) }
        return levels
    }

    static func text(_ text: String, on face: MatrixFace) -> SegmentPicture {
        var picture = MatrixPicture(face: face)
        picture.write(text, right: true)
        return picture.digits
    }

    // MARK: Segments

    @Test func aClockDisplayTakesTurnsWithThePercentageAndTheTimeLeft() {
        let percent = Self.digits(Self.frame(Fixture.active(0.42, elapsed: 1, eta: 750), on: Self.clock))
        #expect(percent == Self.text("42", on: Self.clock))
        let time = Self.digits(Self.frame(Fixture.active(0.42, elapsed: 4, eta: 750), on: Self.clock))
        #expect(time == Self.text("12:30.", on: Self.clock))
        #expect(time.colon && time.digits[3].contains(.dp), "an estimate ends in a point")
        let hours = Self.digits(Self.frame(Fixture.active(0.42, elapsed: 4, eta: 3900), on: Self.clock))
        #expect(hours == Self.text("1h05.", on: Self.clock))
        let noEstimate = Self.digits(Self.frame(Fixture.active(0.42, elapsed: 4, eta: nil), on: Self.clock))
        #expect(noEstimate == Self.text("42", on: Self.clock), "no time left known: the percentage alone")
    }

    @Test func anEstimateFromPastRunsEndsInAPoint() {
        var snapshot = Fixture.active(0.42, elapsed: 1, eta: nil)
        snapshot.isEstimate = true
        #expect(Self.digits(Self.frame(snapshot, on: Self.clock)) == Self.text("42.", on: Self.clock))
    }

    @Test func eightDigitsShowBothSideBySide() {
        let face = MatrixFace.segments(count: 8, kind: .seven, colon: false)
        #expect(Self.digits(Self.frame(Fixture.active(0.07, eta: 75), on: face)) == Self.text("   7 1.15.", on: face))
    }

    @Test func theEndSaysHowItWent() {
        let done = Self.frame(Fixture.finished(.succeeded, fraction: 1), on: Self.clock)
        #expect(Self.digits(done) == Self.text("done", on: Self.clock) && done.blink == .steady)
        let failed = Self.frame(Fixture.finished(.failed, fraction: 0.3), on: Self.alnum)
        #expect(Self.digits(failed) == Self.text("FAIL", on: Self.alnum) && failed.blink == .twoHertz)
        #expect(Self.digits(Self.frame(Fixture.finished(.cancelled, fraction: 0.3), on: Self.clock)) == Self.text("StOP", on: Self.clock))
    }

    @Test func aStallBlinksInTheChip() {
        let stalled = Self.frame(Fixture.stalled(0.5), on: Self.clock)
        #expect(stalled.blink == .oneHertz)
        #expect(Self.digits(stalled) == Self.text("50", on: Self.clock))
        #expect(Self.frame(Fixture.stalled(nil), on: Self.clock).blink == .oneHertz)
        #expect(Self.frame(Fixture.stale(0.5), on: Self.clock).blink == .halfHertz)
        #expect(Self.frame(Fixture.active(0.5), on: Self.clock).blink == .steady)
    }

    @Test func indeterminateCirclesTheLastDigit() {
        let first = Self.digits(Self.frame(Fixture.active(nil, elapsed: 0.1), on: Self.clock))
        let later = Self.digits(Self.frame(Fixture.active(nil, elapsed: 0.5), on: Self.clock))
        #expect(first.digits[3] == .a && later.digits[3] == .c)
        #expect(first.digits[0..<3].allSatisfy { $0.isEmpty })
    }

    @Test func anAlphanumericDisplayScrollsTheLabel() {
        let start = Self.digits(Self.frame(Fixture.active(0.42, label: "Backup", elapsed: 0.5, eta: nil), on: Self.alnum))
        #expect(start == Self.text("BACK", on: Self.alnum))
        let scrolled = Self.digits(Self.frame(Fixture.active(0.42, label: "Backup", elapsed: 1.7, eta: nil), on: Self.alnum))
        #expect(scrolled == Self.text("CKUP", on: Self.alnum))
        let percent = Self.digits(Self.frame(Fixture.active(0.42, label: "Backup", elapsed: 3.2, eta: nil), on: Self.alnum))
        #expect(percent == Self.text("42%", on: Self.alnum))
    }

    // MARK: Pixels

    @Test func theBargraphFillsInTheTintsNearestColour() {
        let levels = Self.levels(Self.frame(Fixture.active(0.42), on: Self.bargraph))
        let green = RGB8(red: 0, green: 255, blue: 0)
        #expect(levels.levels.filter { $0 == green }.count == 10)
        #expect(levels.levels[10...].allSatisfy { $0 == .off }, "the track is dark on red and green dies")
        let stalled = Self.frame(Fixture.stalled(0.5), on: Self.bargraph)
        #expect(Self.levels(stalled).levels.filter { $0 == RGB8(red: 255, green: 255, blue: 0) }.count == 12 && stalled.blink == .oneHertz)
        let failed = Self.frame(Fixture.finished(.failed, fraction: 0.25), on: Self.bargraph)
        #expect(Self.levels(failed).levels.filter { $0 == RGB8(red: 255, green: 0, blue: 0) }.count == 6 && failed.blink == .twoHertz)
        #expect(Self.levels(Self.frame(Fixture.finished(.succeeded, fraction: 1), on: Self.bargraph)).levels.allSatisfy { $0 == green })
    }

    /// An on/off glass never lights a part-covered column: the bar never runs ahead of the job.
    @Test func anOnOffBarNeverRunsAhead() {
        for percent in 0...99 {
            let levels = Self.levels(Self.frame(Fixture.active(Double(percent) / 100, eta: nil), on: Self.mono8))
            let lit = (0..<8).filter { levels[$0, 7] != .off }.count
            #expect(lit == percent * 8 / 100, "\(percent) %")
        }
    }

    @Test func tallMatricesPrintThePercentage() {
        let levels = Self.levels(Self.frame(Fixture.active(0.42, eta: nil), on: Self.mono8))
        let textPixels = (0..<5).flatMap { y in (0..<8).map { levels[$0, y] } }.filter { $0 != .off }.count
        #expect(textPixels > 10)
        let wide = Self.levels(Self.frame(Fixture.active(0.42, label: nil, eta: nil), on: .pixels(width: 17, height: 7, dies: .levels)))
        #expect(wide[16, 0] != .off, "\"42%\" ends at the right edge")
    }

    /// A spinner at 8x8: a three-pixel arc that moves round.
    @Test func aSpinnerReadsAsOneAt8x8() {
        let first = Self.levels(Self.frame(Fixture.active(nil, elapsed: 0), on: Self.mono8))
        let later = Self.levels(Self.frame(Fixture.active(nil, elapsed: 0.3), on: Self.mono8))
        #expect(first.levels.filter { $0 != .off }.count == 3)
        #expect(later.levels.filter { $0 != .off }.count == 3)
        #expect(first != later)
    }

    @Test func aPWMGlassShowsTheTrackDimAndTheEdgeByItsShare() {
        let face = MatrixFace.pixels(width: 17, height: 7, dies: .levels)
        let levels = Self.levels(Self.frame(Fixture.active(0.5, eta: nil), on: face))
        let fill = levels[0, 6].brightest, edge = levels[8, 6].brightest, track = levels[16, 6].brightest
        #expect(fill == 255 && edge > track && edge < fill && track > 0 && track < 40, "fill \(fill), edge \(edge), track \(track)")
    }

    /// An RGB panel's frames stay inside the current budget.
    @Test func aPanelStaysInsideItsBudget() {
        let face = MatrixFace.pixels(width: 32, height: 8, dies: .rgb)
        let budget = CurrentBudget(budgetMilliamps: 500)
        let frame = Self.frame(Fixture.finished(.succeeded, fraction: 1), on: face, appearance: Appearance(success: Colour.white), pipeline: ColourPipeline(budget: budget))
        #expect(budget.current(of: Self.levels(frame).levels) <= 500)
    }

    @Test func aLabelScrollsOnAWideMatrixAndStandsStillWhenStalled() {
        let face = MatrixFace.pixels(width: 32, height: 8, dies: .onOff)
        let label = "Nightly backup of the NAS"
        let early = Self.levels(Self.frame(Fixture.active(0.42, label: label, elapsed: 0.5, eta: nil), on: face))
        let later = Self.levels(Self.frame(Fixture.active(0.42, label: label, elapsed: 2.5, eta: nil), on: face))
        #expect(early != later)
        var stalled = Fixture.stalled(0.42)
        stalled.label = label
        stalled.elapsed = 0.5
        let still = Self.levels(Self.frame(stalled, on: face))
        stalled.elapsed = 2.5
        #expect(Self.levels(Self.frame(stalled, on: face)) == still)
    }

    @Test func otherJobsAndUnseenFailuresAreMarked() {
        let marked = Self.levels(Self.frame(Fixture.active(0.42, eta: nil), on: Self.mono8, otherJobs: 2))
        #expect(marked[7, 5] != .off)
        let idle = Self.levels(Self.frame(.idle(at: 0), on: Self.bargraph, notices: Notices(unseenFailures: 1)))
        #expect(idle[23, 0] == RGB8(red: 255, green: 0, blue: 0) && idle.levels.dropLast().allSatisfy { $0 == .off })
    }

    @Test func onOffDiesTakeTheBrightnessAsTheChipsDimming() {
        let frame = Self.frame(Fixture.active(0.42), on: Self.mono8, appearance: Appearance(brightness: 0.25))
        #expect(frame.dimming == 0.25)
        #expect(Self.frame(Fixture.active(0.42), on: .pixels(width: 17, height: 7, dies: .levels)).dimming == 1)
    }

    @Test func theSegmentFontDrawsWhatADigitCan() {
        #expect(SegmentFont.segments("8", .seven) == [.a, .b, .c, .d, .e, .f, .g])
        #expect(SegmentFont.segments("M", .seven).isEmpty, "an M cannot be drawn on seven segments")
        #expect(SegmentFont.segments("m", .fourteen) == SegmentFont.segments("M", .fourteen))
        #expect(SegmentFont.picture("1.2.", count: 4, kind: .seven, colon: false).digits == [[.b, .c, .dp], [.a, .b, .g, .e, .d, .dp], [], []])
        #expect(SegmentFont.width(of: "12:30.") == 4)
    }
}
