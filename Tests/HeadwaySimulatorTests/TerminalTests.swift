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
    @Test func standardRigFitsEightyColumns() throws {
        let rig = SimulatorRig.standard(clock: ManualClock())
        try rig.chains[0].driver.show(Array(repeating: RGB8(red: 0, green: 160, blue: 255), count: 24))
        let canvas = RigPainter().paint(rig, title: "title", status: ["status"])
        for line in canvas.lines(colour: false) { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        let lines = canvas.lines(colour: false)
        #expect(lines.contains { $0.contains("oled 128x64") })
        #expect(lines.contains { $0.hasPrefix("strip ") })
        #expect(lines.filter { $0.contains("●") }.count >= 5, "the lit ring spans several rows")
    }

    /// Regression: the status line was cut at 80 columns however wide the terminal.
    @Test func aWideTerminalShowsTheWholeStatusLine() {
        let rig = SimulatorRig.standard(clock: ManualClock())
        let status = "job-1: active 42% ·" + String(repeating: " a long GitLab job name", count: 4)
        let lines = RigPainter(columns: 140).paint(rig, title: "title", status: [status]).lines(colour: false)
        #expect(lines.contains { $0.contains(status) }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 140 })
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

    @Test(arguments: [8, 12, 16, 24, 35, 60])
    func everyRingLEDHasItsOwnCell(count: Int) {
        let positions = RigPainter.ringPositions(count: count, radius: RigPainter.ringRadius(count: count))
        #expect(Set(positions.map { "\($0.x),\($0.y)" }).count == count)
    }

    @Test func brailleShowsTruePixels() {
        var bitmap = Bitmap(width: 4, height: 4)
        bitmap[0, 0] = true
        bitmap[1, 3] = true
        #expect(RigPainter.braille(bitmap, column: 0, row: 0) == "\u{2881}")
        #expect(RigPainter.braille(bitmap, column: 1, row: 0) == "\u{2800}")
    }

    @Test func colourLinesCarryTruecolorAndPlainLinesNone() {
        var canvas = TerminalCanvas(width: 10, height: 1)
        canvas.write("ab", x: 0, y: 0, colour: Colour(red: 1, green: 2, blue: 3))
        #expect(canvas.lines(colour: true) == ["\u{1B}[38;2;1;2;3mab\u{1B}[0m"])
        #expect(canvas.lines(colour: false) == ["ab"])
    }

    @Test func liveTerminalRewritesOnlyChangedLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let terminal = LiveTerminal(fileDescriptor: fds[1])
        terminal.draw(["one", "two", "three"])
        let first = read(fds[0])
        #expect(first.contains("one") && first.contains("three"))
        terminal.draw(["one", "TWO", "three"])
        let second = read(fds[0])
        #expect(second.contains("TWO"))
        #expect(!second.contains("one") && !second.contains("three"), "unchanged lines are not rewritten: \(second.debugDescription)")
        terminal.finish()
        close(fds[1])
    }

    private func read(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(fd, &buffer, buffer.count)
        return String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
    }
}
