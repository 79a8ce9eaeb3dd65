import HeadwayProtocol
import Testing

@Suite("Line framer")
struct LineFramerTests {
    func lines(_ chunks: [String], max: Int = 16) -> [LineFramer.Item] {
        var framer = LineFramer(maxLineBytes: max)
        var items: [LineFramer.Item] = []
        for chunk in chunks {
            framer.append(Array(chunk.utf8))
            while let item = framer.next() { items.append(item) }
        }
        return items
    }

    @Test func linesAcrossChunksAndCRLF() {
        #expect(lines(["ab", "c\nde\r", "\n\nf"]) == [.line("abc"), .line("de"), .line("")])
    }

    /// An over-long line is reported once and skipped up to its newline, however it arrives.
    @Test func overlongLinesAreReportedOnceAndSkipped() {
        let long = String(repeating: "x", count: 40)
        #expect(lines([long + "\nok\n"]) == [.overlong(bytes: 40), .line("ok")])
        let items = lines(Array(repeating: "xxxxxxxx", count: 10) + ["\nok\n"])
        #expect(items.count == 2 && items.last == .line("ok"))
        if case .overlong = items.first {} else { Issue.record("\(items)") }
    }

    /// A client sending a megabyte without a newline costs the framer no more than the limit.
    @Test func bufferStaysBounded() {
        var framer = LineFramer(maxLineBytes: 4096)
        for _ in 0..<256 {
            framer.append([UInt8](repeating: 0x41, count: 4096))
            while framer.next() != nil {}
            #expect(framer.buffered <= 4096)
        }
        framer.append(Array("\nnext\n".utf8))
        #expect(framer.next() == .line("next"))
    }

    /// Framing is linear: a million short lines go through quickly and in order.
    @Test func manyLinesInOrder() {
        var framer = LineFramer(maxLineBytes: 64)
        var bytes: [UInt8] = []
        for index in 0..<100_000 { bytes += Array("\(index)\n".utf8) }
        framer.append(bytes)
        var expected = 0
        while case .line(let line)? = framer.next() {
            #expect(line == "\(expected)")
            expected += 1
        }
        #expect(expected == 100_000)
    }
}

extension LineFramerTests {
    /// A loop may sleep while the framer holds only part of a line, and must not while it holds a
    /// whole one.
    @Test func knowsWhenALineIsWaiting() {
        var framer = LineFramer(maxLineBytes: 16)
        framer.append(Array("partial".utf8))
        #expect(!framer.hasCompleteLine && framer.next() == nil && !framer.hasCompleteLine)
        framer.append(Array(" line\nnext\n".utf8))
        #expect(framer.hasCompleteLine)
        #expect(framer.next() == .line("partial line") && framer.hasCompleteLine)
        #expect(framer.next() == .line("next") && !framer.hasCompleteLine)
    }
}
