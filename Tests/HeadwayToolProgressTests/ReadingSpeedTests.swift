import HeadwayCore
@testable import HeadwayToolProgress
import Testing

/// Output passes at the speed of a pipe: the generic reader's forms are read from the bytes, only
/// lines that can carry progress are decoded, and of a flood only the latest few are tried.
@Suite("reading a tool's output at the speed of a pipe")
struct ReadingSpeedTests {
    /// The forms as regular expressions, matched as Swift's Regex matches them: the byte reader
    /// must agree with them on every line (but for other scripts' digits and combining marks:
    /// ProgressForms says why).
    nonisolated(unsafe) static let percent = /(\d+(?:\.\d+)?)\s?%/
    nonisolated(unsafe) static let bracketed = /[\[(](\d+)\s*\/\s*(\d+)[\])]/
    nonisolated(unsafe) static let fraction = /(?:^|\s)(\d+)\/(\d+)(?=\s|$|[:,.;])/
    nonisolated(unsafe) static let of = /\b(\d+) of (\d+)\b/

    static func oracle(_ line: String) -> (Double, Double)? {
        func pair(_ value: Substring, _ total: Substring) -> (Double, Double)? {
            guard let value = Double(value), let total = Double(total), value.isFinite, total.isFinite, total > 0 else { return nil }
            return (value, total)
        }
        if let match = line.matches(of: percent).last, let value = Double(match.1) { return (min(value, 100), 100) }
        if let match = line.matches(of: bracketed).last, let found = pair(match.1, match.2) { return found }
        if let match = line.matches(of: fraction).last, let found = pair(match.1, match.2) { return found }
        if let match = line.matches(of: of).last, let found = pair(match.1, match.2) { return found }
        return nil
    }

    @Test func theByteReaderAgreesWithTheRegularExpressions() {
        var generator = SeededRandom(seed: 0x5EED)
        let pieces = ["1", "2", "9", "0", "12", " ", "  ", "\t", "\u{A0}", "/", " / ", "%", " %", "[", "]", "(", ")", ".", ",", ";", ":", "'",
                      " of ", "of", "x", "_", "é", "a", "3 of 10", "[3/10]", "42%", "1.5", "/4",
                      "\u{1C}", "\u{0B}", "\u{7F}", "-", "+", "\u{2003}", "\u{202F}", "→", "ß", "\u{1F600}"]
        var disagreements: [String] = []
        for _ in 0..<60_000 {
            let line = (0..<Int.random(in: 1...9, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = Self.oracle(line)
            let found = LineProgressParser.standard.progress(in: line[...])
            if expected?.0 != found?.0 || expected?.1 != found?.1 {
                disagreements.append("\(line.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()): \(String(describing: expected)) ≠ \(String(describing: found))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    @Test func theFormsAsPeopleWriteThem() {
        let cases: [(String, (Double, Double)?)] = [
            ("Downloading 42%", (42, 100)), ("45.5 % done", (45.5, 100)), ("[3/10] Compiling x.c", (3, 10)), ("( 3 / 10 )", nil),
            ("(3 / 10)", (3, 10)), ("step 3/10: tests", (3, 10)), ("see src/3/10", nil), ("3 of 10 files", (3, 10)), ("v1.3 of 10", nil),
            ("1 of 2 of 3", (1, 2)), ("3 of 10.5", nil), ("a3 of 10", nil), ("[1/0]", nil), ("/usr/lib/x.so", nil),
        ]
        for (line, expected) in cases {
            let found = LineProgressParser.standard.progress(in: line[...])
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(line)")
        }
    }

    /// A million lines of a command's own output, with a progress line among every thousand:
    /// only the lines that may carry progress are decoded, and of each piece only the last.
    @Test func aFloodOfLinesIsReadByItsMarks() throws {
        var run = try Run(["make", "-j4"])
        var output: [UInt8] = []
        for line in 1...1_000_000 {
            output += Array("cc -c file\(line) -O2 -Wall\n".utf8)
            if line % 1000 == 0 { output += Array("[\(line / 1000)/1000] built\n".utf8) }
        }
        var updates: [ToolProgress.Update] = []
        var start = 0
        while start < output.count {
            let end = min(output.count, start + 262_144)
            updates += run.progress.observe(.output, output[start..<end])
            start = end
        }
        let pieces = (output.count + 262_143) / 262_144
        #expect(run.progress.linesRead <= pieces * 2, "\(run.progress.linesRead) lines decoded of 1,001,000")
        #expect(updates.last?.value == 1000 && updates.last?.total == 1000)
        #expect(updates.count <= pieces)
    }

    /// Lines that look like progress and are not (paths, in a verbose build) are tried, newest
    /// first, at most ToolProgress.latestLinesRead of those that came together.
    @Test func aFloodOfLookalikesIsTriedBoundedly() throws {
        var run = try Run(["make"])
        let output = Array(String(repeating: "cc -c src/module/file.c -o build/file.o\n", count: 20_000).utf8)
        #expect(run.progress.observe(.output, output[...]).isEmpty)
        #expect(run.progress.linesRead == ToolProgress.latestLinesRead)
        // A user's pattern is tried as boundedly.
        var custom = try Run(["make"], pattern: #"done (\d+) of (\d+)"#)
        let numbered = Array((1...20_000).map { "line \($0)\n" }.joined().utf8)
        #expect(custom.progress.observe(.output, numbered[...] + Array("done 3 of 4\n".utf8)).last?.value == 3)
        #expect(custom.progress.observe(.output, numbered[...]).isEmpty)
        #expect(custom.progress.linesRead == 1 + ToolProgress.latestLinesRead)
    }

    /// The byte finder (one vector pass in C for several bytes) finds what a byte-by-byte search
    /// finds, at every offset and length, forward and back.
    @Test func theByteFinderFindsWhatALoopFinds() {
        var generator = SeededRandom(seed: 7)
        for round in 0..<400 {
            let count = Int.random(in: 0...300, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) | (round % 2 == 0 ? 0x40 : 0) }
            let sought: [UInt8] = round % 3 == 0 ? [0x0A] : [0x25, 0x2F, 0x66, 0x0A].shuffled(using: &generator).prefix(Int.random(in: 2...4, using: &generator)).map { $0 }
            bytes.withUnsafeBytes { raw in
                let from = Int.random(in: 0...count, using: &generator), to = Int.random(in: from...count, using: &generator)
                var finder = ByteFinder(raw, from: from, to: to, seeking: sought)
                var position = from
                while position <= to {
                    let expected = (position..<to).first { sought.contains(bytes[$0]) }
                    #expect(finder.next(from: position)?.place == expected)
                    position = (expected ?? to) + 1
                }
                var before = to
                while before >= from {
                    let expected = (from..<before).last { sought.contains(bytes[$0]) }
                    #expect(finder.previous(before: before)?.place == expected)
                    before = (expected ?? from) - 1
                }
            }
        }
    }

    /// What a tool writes on a stream its format does not read is not looked at: the command may
    /// pass it on by splice(2).
    @Test func streamsNoFormatReadsAreNotRead() throws {
        #expect(try !Run(["ffmpeg", "-i", "in.mp4", "-f", "mp4", "-"]).progress.reads(.output))
        #expect(try !Run(["pv", "big.iso"]).progress.reads(.output))
        #expect(try !Run(["restic", "backup", "x"]).progress.reads(.errors))
        #expect(try !Run(["apt-get", "install", "x"]).progress.reads(.output))
        #expect(try Run(["make"]).progress.reads(.output))
        #expect(try Run(["curl", "-o", "f", "u"]).progress.reads(.errors))
    }
}

