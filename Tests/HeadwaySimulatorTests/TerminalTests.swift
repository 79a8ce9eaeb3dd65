import Foundation
import HeadwayCore
import HeadwayRender
@testable import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Terminal rendering")
struct TerminalTests {
    static let sizes = [TerminalSize(columns: 60, rows: 20), TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 120, rows: 40)]

    /// Every device, the title on the first row, the status on the last, nothing wider or taller
    /// than the terminal.
    @Test(arguments: sizes)
    func theStandardRigFitsTheTerminal(size: TerminalSize) throws {
        let (rig, devices) = try StandardRig.make()
        guard case .leds(let ring) = devices.outputs[0].medium else { Issue.record("the ring comes first"); return }
        try ring.device.show(Array(repeating: RGB8(red: 0, green: 160, blue: 255), count: 24))
        let layout = try #require(RigLayout.fit(rig.shapes, in: size))
        let lines = RigPainter(colour: false).paint(rig, layout: layout, title: "title", status: ["status"]).lines(colour: false)
        #expect(lines.count <= size.rows)
        for line in lines { #expect(line.count <= size.columns, "\(line.count) columns: \(line)") }
        #expect(lines.first == "title" && lines.last == "status")
        #expect(lines.contains { $0.contains("┌ oled 128x64") })
        #expect(lines.contains { $0.hasPrefix("strip ") } && lines.contains { $0.contains("stick ") } && lines.contains { $0.contains("bar ▯") })
        #expect(lines.filter { $0.contains("●") }.count >= 5, "the lit ring spans several rows")
        let cells = lines.dropFirst().dropLast().joined().filter { "●◐○·".contains($0) }.count
        #expect(cells == 24 + 60 + 8, "a cell for every LED")
    }

    /// Without colour (NO_COLOR) a dim LED is not drawn as a lit one: each brightness has its glyph,
    /// so a fill's soft edge and a dim track still read.
    @Test func withoutColourEachBrightnessHasItsGlyph() throws {
        let (rig, devices) = try StandardRig.make()
        guard case .leds(let ring) = devices.outputs[0].medium else { Issue.record("the ring comes first"); return }
        let levels: [UInt8] = [255, 170, 40, 0]
        try ring.device.show((0..<24).map { RGB8(red: levels[$0 % 4], green: levels[$0 % 4], blue: levels[$0 % 4]) })
        let size = TerminalSize(columns: 120, rows: 40)
        let layout = try #require(RigLayout.fit(rig.shapes, in: size))
        let lines = RigPainter(colour: false).paint(rig, layout: layout, title: "t", status: ["s"]).lines(colour: false)
        let ringCells = lines.joined().filter { "●◐○".contains($0) }
        #expect(ringCells.contains("●") && ringCells.contains("◐") && ringCells.contains("○"), "\(ringCells)")
    }

    /// Regression: the status line was cut at 80 columns however wide the terminal.
    @Test func aWideTerminalShowsTheWholeStatusLine() throws {
        let rig = try StandardRig.make().rig
        let status = "job-1: active 42% ·" + String(repeating: " a long GitLab job name", count: 4)
        let size = TerminalSize(columns: 140, rows: 40)
        let layout = try #require(RigLayout.fit(rig.shapes, in: size))
        let lines = RigPainter().paint(rig, layout: layout, title: "title", status: [status]).lines(colour: false)
        #expect(lines.contains { $0.contains(status) }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 140 })
    }

    @Test func aLongTitleIsCutWithAnEllipsis() throws {
        let rig = try StandardRig.make().rig
        let layout = try #require(RigLayout.fit(rig.shapes, in: TerminalSize(columns: 60, rows: 20)))
        let lines = RigPainter().paint(rig, layout: layout, title: String(repeating: "x", count: 100), status: []).lines(colour: false)
        #expect(lines[0] == String(repeating: "x", count: 59) + "…")
    }

    /// At half resolution a dot stands for 2x2 pixels: a single lit pixel still lights one.
    @Test func aScaledDisplayKeepsEveryLitPixel() {
        var bitmap = Bitmap(width: 8, height: 8)
        bitmap[5, 6] = true
        let half = Braille.scaled(bitmap, by: 2)
        #expect(half.width == 4 && half.height == 4 && half[2, 3] && !half.isBlank)
        var glass = Greymap(width: 8, height: 8)
        glass[1, 1] = 3
        glass[0, 0] = 9
        #expect(Braille.scaled(glass, by: 4)[0, 0] == 9, "the brightest of the square")
    }

    /// Regression: escapes in a label changed the terminal's colours and title, and a newline
    /// garbled the picture. What reaches the canvas is printable, on one line.
    @Test func labelsNeverReachTheTerminalRaw() {
        var canvas = TerminalCanvas(width: 40, height: 2)
        canvas.write("job: \u{1B}]0;owned\u{07}\u{1B}[31mred\nnext\r\u{9B}2J", x: 0, y: 0)
        let lines = canvas.lines(colour: false)
        #expect(lines.allSatisfy { line in !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }, "\(lines.map(\.debugDescription))")
        #expect(lines[0].hasPrefix("job: ") && lines[0].contains("red") && lines[1].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    static let ringCounts = [8, 12, 16, 24, 35, 60]

    @Test(arguments: ringCounts)
    func everyRingLEDHasItsOwnCell(count: Int) {
        let positions = RigLayout.ringPositions(count: count, radius: RigLayout.ringRadius(count: count))
        #expect(Set(positions.map { "\($0.x),\($0.y)" }).count == count)
    }

    @Test func brailleShowsTruePixels() {
        var bitmap = Bitmap(width: 4, height: 4)
        bitmap[0, 0] = true
        bitmap[1, 3] = true
        #expect(Braille.character(bitmap, column: 0, row: 0) == "\u{2881}")
        #expect(Braille.character(bitmap, column: 1, row: 0) == "\u{2800}")
    }

    @Test func colourLinesCarryTruecolorAndPlainLinesNone() {
        var canvas = TerminalCanvas(width: 10, height: 1)
        canvas.write("ab", x: 0, y: 0, colour: Colour(red: 1, green: 2, blue: 3))
        #expect(canvas.lines(colour: true) == ["\u{1B}[38;2;1;2;3mab\u{1B}[0m"])
        #expect(canvas.lines(colour: false) == ["ab"])
    }

    @Test func liveTerminalRewritesOnlyChangedLines() throws {
        let (terminal, output, input) = pipedTerminal()
        defer { close(output); close(input) }
        let size = TerminalSize(columns: 20, rows: 5)
        terminal.draw(["one", "two", "three"], size: size)
        let first = read(output)
        #expect(first.contains("\u{1B}[1;1H\u{1B}[2Kone") && first.contains("three"), "from the top row: \(first.debugDescription)")
        terminal.draw(["one", "TWO", "three"], size: size)
        let second = read(output)
        #expect(second.contains("\u{1B}[2;1H\u{1B}[2KTWO"))
        #expect(!second.contains("one") && !second.contains("three"), "unchanged lines are not rewritten: \(second.debugDescription)")
        #expect(!second.contains("\n"), "rows are addressed, never scrolled to")
        terminal.draw(["one", "TWO", "three"], size: TerminalSize(columns: 30, rows: 6))
        let resized = read(output)
        #expect(resized.contains("one") && resized.contains("three") && resized.contains("\u{1B}[J"), "a new size draws everything: \(resized.debugDescription)")
        terminal.finish()
        #expect(read(output).contains("\u{1B}[4;1H\u{1B}[?25h"), "the cursor comes back under the frame")
    }

    /// The first frame scrolls what the screen held into the terminal's history (a newline a row
    /// but one) rather than erasing it, and a frame as tall as the terminal is left with one more.
    @Test func theFirstFrameTakesTheWholeScreen() throws {
        let (terminal, output, input) = pipedTerminal()
        defer { close(output); close(input) }
        let size = TerminalSize(columns: 20, rows: 3)
        terminal.draw(["a", "b", "c"], size: size)
        let first = read(output)
        #expect(first.hasPrefix("\u{1B}[?25l\n\n\u{1B}[1;1H"), "\(first.debugDescription)")
        #expect(!first.contains("\u{1B}[J"), "a full screen has nothing under it to erase")
        terminal.finish()
        #expect(read(output) == "\n\u{1B}[?25h")
    }

    @Test func aTerminalTooSmallGetsCleanTextLines() throws {
        let (terminal, output, input) = pipedTerminal()
        defer { close(output); close(input) }
        terminal.draw(["frame"], size: TerminalSize(columns: 20, rows: 3))
        _ = read(output)
        terminal.fallBack("too small")
        #expect(read(output) == "\u{1B}[H\u{1B}[Jtoo small\n\u{1B}[?25h", "the frame cleared, the message on the first row")
        terminal.writeLine("job \u{1B}]0;owned\u{07}label")
        #expect(read(output) == "job label\n")
    }

    @Test func textLinesComeWhenThePhaseChangesOrASecondPassed() {
        var throttle = TextLineThrottle()
        #expect(throttle.due("a 10%", key: "active", tick: 1) == "a 10%")
        #expect(throttle.due("a 11%", key: "active", tick: 1) == nil)
        #expect(throttle.due("a 12%", key: "stalled", tick: 1) == "a 12%")
        #expect(throttle.due("a 12%", key: "stalled", tick: 2) == nil, "nothing new")
        #expect(throttle.due("a 13%", key: "stalled", tick: 3) == "a 13%")
    }

    /// A terminal drawing into a pipe: the terminal, the pipe's read end and its write end.
    private func pipedTerminal() -> (LiveTerminal, Int32, Int32) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        return (LiveTerminal(fileDescriptor: fds[1]), fds[0], fds[1])
    }

    private func read(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(fd, &buffer, buffer.count)
        return String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
    }
}

/// A colour display in the terminal: half blocks, the upper pixel the foreground and the lower one
/// the background, in 24-bit colour; without colour, lit halves by their light.
@Suite("Colour displays in the terminal")
struct ColourTerminalTests {
    @Test func aColourGlassIsDrawnInHalfBlocks() {
        var pixels = [RGB8](repeating: .off, count: 4 * 4)
        pixels[0] = RGB8(red: 255, green: 0, blue: 0)
        pixels[4] = RGB8(red: 0, green: 0, blue: 255)
        pixels[1] = RGB8(red: 255, green: 255, blue: 255)
        let glass = TFTGlass(width: 4, height: 4, pixels: pixels, isLit: true)
        let (character, top, bottom) = HalfBlocks.cell(glass, column: 0, row: 0, scale: 1, colour: true)
        #expect(character == "▀" && top == Colour(red: 255, green: 0, blue: 0) && bottom == Colour(red: 0, green: 0, blue: 255))
        #expect(HalfBlocks.cell(glass, column: 1, row: 0, scale: 1, colour: false).0 == "▀", "white above, black below")
        #expect(HalfBlocks.pixel(glass, x: 0, y: 0, scale: 2) == Colour(red: 127, green: 63, blue: 127), "scaled: the mean of the block")
        var canvas = TerminalCanvas(width: 2, height: 1)
        canvas.put("▀", x: 0, y: 0, colour: Colour(red: 1, green: 2, blue: 3), background: Colour(red: 4, green: 5, blue: 6))
        #expect(canvas.lines(colour: true)[0] == "\u{1B}[38;2;1;2;3m\u{1B}[48;2;4;5;6m▀\u{1B}[0m")
    }

    @Test func aTFTFitsAnEightyByTwentyFourTerminal() {
        let shapes = [DeviceShape(name: "display", kind: .colourDisplay(width: 320, height: 240)), DeviceShape(name: "led", kind: .row(count: 1))]
        let layout = RigLayout.fit(shapes, in: TerminalSize(columns: 80, rows: 24))
        #expect(layout != nil && layout!.placements[0].form == .halfBlocks(scale: 8))
        let wide = RigLayout.fit(shapes, in: TerminalSize(columns: 200, rows: 70))
        #expect(wide?.placements[0].form == .halfBlocks(scale: 2))
    }
}
