import HeadwayCore
@testable import HeadwaySimulator
import Testing

@Suite("Terminal layout")
struct RigLayoutTests {
    /// The simulator's own rig: a 128x64 OLED, a 24-LED ring, a 60-LED strip, an 8-LED stick, 8 GPIO lamps.
    static let standard = try! StandardRig.make().rig.shapes

    static let sizes = [
        TerminalSize(columns: 60, rows: 20), TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40),
        TerminalSize(columns: 40, rows: 12), TerminalSize(columns: 79, rows: 24), TerminalSize(columns: 200, rows: 60),
    ]

    @Test(arguments: sizes)
    func everyDeviceHasItsOwnPlaceInside(size: TerminalSize) throws {
        let layout = try #require(RigLayout.fit(Self.standard, in: size))
        #expect(layout.placements.map(\.device).sorted() == Array(Self.standard.indices))
        for place in layout.placements {
            #expect(place.x >= 0 && place.x + place.width <= size.columns, "\(place)")
            #expect(place.y >= 1 && place.y + place.height <= layout.statusRow, "below the title, above the status: \(place)")
        }
        for (index, a) in layout.placements.enumerated() {
            for b in layout.placements[(index + 1)...] {
                let apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y
                #expect(apart, "\(a) overlaps \(b)")
            }
        }
        #expect(layout.statusRows >= 1)
    }

    static let scales: [(TerminalSize, Int)] = [
        (TerminalSize(columns: 120, rows: 40), 1), (TerminalSize(columns: 80, rows: 24), 1),
        (TerminalSize(columns: 60, rows: 20), 2), (TerminalSize(columns: 40, rows: 12), 4),
    ]

    /// The OLED keeps its true resolution while it fits: 80x24 shows it whole, beside the ring.
    @Test(arguments: scales)
    func displaysShrinkOnlyWhenTheyMust(size: TerminalSize, scale: Int) throws {
        #expect(try #require(RigLayout.fit(Self.standard, in: size)).displayScale == scale)
    }

    @Test func atEightyByTwentyFourTheRingSitsBesideTheDisplay() throws {
        let layout = try #require(RigLayout.fit(Self.standard, in: TerminalSize(columns: 80, rows: 24)))
        let display = layout.placements[0], ring = layout.placements[1]
        #expect(display.width == 66 && display.height == 18, "128x64 in braille: 64x16 cells and a frame")
        #expect(ring.y == display.y && ring.x >= display.x + display.width)
        guard case .circle = ring.form else {
            Issue.record("the ring is a circle at 80x24: \(ring.form)")
            return
        }
    }

    /// One column short of the ring beside the display, the ring becomes a row rather than the
    /// display losing resolution.
    @Test func aRingBecomesARowBeforeTheDisplayShrinks() throws {
        let layout = try #require(RigLayout.fit(Self.standard, in: TerminalSize(columns: 79, rows: 24)))
        #expect(layout.displayScale == 1)
        #expect(layout.placements[1].form == .row(label: 5, perRow: 24))
    }

    @Test func aLongStripWrapsUnderItsFirstLED() throws {
        let layout = try #require(RigLayout.fit(Self.standard, in: TerminalSize(columns: 40, rows: 12)))
        let strip = try #require(layout.placements.first { $0.device == 2 })
        #expect(strip.form == .row(label: 6, perRow: 34))
        #expect(strip.height == 2 && strip.width == 40)
    }

    @Test func twoDisplaysGoSideBySideWhenWideEnough() throws {
        let two = [DeviceShape(name: "a", kind: .display(width: 128, height: 64)), DeviceShape(name: "b", kind: .display(width: 128, height: 64))]
        let wide = try #require(RigLayout.fit(two, in: TerminalSize(columns: 140, rows: 24)))
        #expect(wide.displayScale == 1 && wide.placements[0].y == wide.placements[1].y)
        let narrow = try #require(RigLayout.fit(two, in: TerminalSize(columns: 80, rows: 24)))
        #expect(narrow.displayScale == 2 && narrow.placements[0].y == narrow.placements[1].y)
    }

    /// A 128x128 display is 34 rows at full resolution: half of it in a 24-row terminal.
    @Test func aTallDisplayIsHalvedInEightyByTwentyFour() throws {
        let square = [DeviceShape(name: "oled", kind: .display(width: 128, height: 128))]
        let layout = try #require(RigLayout.fit(square, in: TerminalSize(columns: 80, rows: 24)))
        #expect(layout.displayScale == 2 && layout.placements[0].height == 18)
    }

    @Test func aTerminalTooSmallGetsNoLayoutAndLearnsWhatIsEnough() throws {
        let small = TerminalSize(columns: 30, rows: 8)
        #expect(RigLayout.fit(Self.standard, in: small) == nil)
        let least = RigLayout.leastSize(for: Self.standard, columns: small.columns)
        #expect(least.columns == 30)
        #expect(RigLayout.fit(Self.standard, in: least) != nil)
        #expect(RigLayout.fit(Self.standard, in: TerminalSize(columns: least.columns, rows: least.rows - 1)) == nil)
        #expect(RigLayout.fit(Self.standard, in: TerminalSize(columns: RigLayout.leastColumns - 1, rows: 100)) == nil)
    }

    @Test func theTooSmallMessageIsOneLine() {
        for columns in [20, 30, 45, 80, 200] {
            let size = TerminalSize(columns: columns, rows: 5)
            let message = RigScreen.tooSmall(size, needs: RigLayout.leastSize(for: Self.standard, columns: columns))
            #expect(message.count <= columns && !message.contains("\n"), "\(message)")
            #expect(message.contains("needs"), "\(message)")
        }
    }

    @Test func statusLinesThatDoNotFitAreCounted() {
        #expect(RigPainter.fitting(["a", "b"], rows: 2) == ["a", "b"])
        #expect(RigPainter.fitting(["a", "b", "c", "d"], rows: 2) == ["a", "… and 3 more"])
    }
}
