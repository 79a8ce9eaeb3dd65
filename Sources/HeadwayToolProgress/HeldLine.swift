/// One line being read on a stream whose lines may be withheld: its bytes so far (at most
/// ``ToolProgress/maxLineBytes``), how many of them were shown already, whether it outgrew the
/// limit.
struct LineState {
    var line: [UInt8] = []
    var shown = 0
    var overflowed = false
    var previousEnd: ToolLine.End = .newline

    var hasLine: Bool { !line.isEmpty || overflowed }

    func wanted(by interest: LineInterest, end: ToolLine.End) -> Bool {
        line.withUnsafeBytes { interest.wants($0, from: 0, to: $0.count, end: end) }
    }

    /// Takes part of a line, `bytes[from..<to]`, to wait for its end; past the limit what was
    /// kept passes and the line is no longer read.
    mutating func append(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int, passing passed: inout [UInt8]) {
        if overflowed {
            passed += bytes[from..<to]
            return
        }
        if line.count + to - from > ToolProgress.maxLineBytes {
            passed += line[shown...]
            passed += bytes[from..<to]
            line = []
            shown = 0
            overflowed = true
            return
        }
        line += bytes[from..<to]
    }

    mutating func releasePending(into passed: inout [UInt8]) {
        guard shown < line.count else { return }
        passed += line[shown...]
        shown = line.count
    }

    /// The line ended: its bytes not shown yet and its end pass unless it is withheld (a line
    /// partly shown already is never withheld).
    mutating func finish(withheld: Bool, terminator: UInt8?, passing passed: inout [UInt8]) {
        if !(withheld && shown == 0) {
            passed += line[shown...]
            if let terminator { passed.append(terminator) }
        }
        line = []
        shown = 0
        overflowed = false
    }
}
