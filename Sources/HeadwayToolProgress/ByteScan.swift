import HeadwaySystem

/// Where one of a few bytes occurs in one piece of a tool's output, going forward or back: found
/// in C (``ByteSearch``: memchr for one byte, one vector pass for several; gigabytes a second, in
/// debug builds too) and remembered, so that a walk through the piece looks at each byte about
/// once whatever the piece holds, and the output passes at the speed of memory.
struct ByteFinder {
    let bytes: UnsafeRawBufferPointer
    /// The piece: `bytes[lower..<upper]`.
    let lower: Int
    let upper: Int
    /// The bytes sought: 1…8 of them.
    private let sought: [UInt8]
    /// The first place at or after `aheadFrom` holding one (`upper` when none) …
    private var ahead: Int
    private var aheadFrom = Int.max
    /// … and the last before `behindTo` (`lower - 1` when none).
    private var behind: Int
    private var behindTo = Int.min

    init(_ bytes: UnsafeRawBufferPointer, from lower: Int, to upper: Int, seeking sought: [UInt8]) {
        precondition((1...8).contains(sought.count), "one to eight bytes are sought at once")
        self.bytes = bytes
        self.lower = lower
        self.upper = upper
        self.sought = sought
        ahead = upper
        behind = lower - 1
    }

    /// The line ends: a line feed, or the carriage return a meter is redrawn with.
    static let lineEnds: [UInt8] = [0x0A, 0x0D]

    /// The first place at or after `from` holding one of the bytes, and which of them it is.
    mutating func next(from: Int) -> (place: Int, which: Int)? {
        // What was found from an earlier place holds while `from` has not passed it.
        if !(aheadFrom <= from && from <= ahead) {
            ahead = search(from: from, to: upper, last: false) ?? upper
            aheadFrom = from
        }
        guard ahead < upper else { return nil }
        return (ahead, sought.firstIndex(of: bytes[ahead])!)
    }

    /// The last place before `before` holding one of the bytes, and which of them it is.
    mutating func previous(before: Int) -> (place: Int, which: Int)? {
        if !(behindTo >= before && behind < before) {
            behind = search(from: lower, to: before, last: true) ?? lower - 1
            behindTo = before
        }
        guard behind >= lower else { return nil }
        return (behind, sought.firstIndex(of: bytes[behind])!)
    }

    private func search(from: Int, to: Int, last: Bool) -> Int? {
        if sought.count == 1 {
            return last ? ByteSearch.last(sought[0], in: bytes, from: from, to: to) : ByteSearch.first(sought[0], in: bytes, from: from, to: to)
        }
        return last ? ByteSearch.last(of: sought, in: bytes, from: from, to: to) : ByteSearch.first(of: sought, in: bytes, from: from, to: to)
    }
}

extension ToolLine.End {
    /// How a line ended by `byte` (a line end) ended.
    init(lineEnd byte: UInt8) { self = byte == 0x0A ? .newline : .carriageReturn }
}

/// The byte strings that mark the lines a format reads: a line without any of them cannot mean
/// anything to it, and is passed on without being decoded. `#` in a mark stands for any ASCII
/// digit (a mark is never only digits). Each mark is found by its rarest byte (by how often it
/// occurs in English text and logs: never a space nor a digit; eight such bytes at most for a
/// set, all found in one pass), then checked whole where it is.
struct LineMarks: Sendable {
    private let marks: [[UInt8]]
    /// The bytes the marks are found by, each once.
    let anchors: [UInt8]
    /// For each mark: which anchor, and where in the mark it is.
    private let anchorOf: [(anchor: Int, offset: Int)]

    static let digit = UInt8(ascii: "#")

    init(_ marks: [String]) {
        self.marks = marks.map { Array($0.utf8) }.filter { $0.contains { $0 != Self.digit } }
        var anchors: [UInt8] = []
        var anchorOf: [(anchor: Int, offset: Int)] = []
        for mark in self.marks {
            let offset = mark.indices.min { Self.frequency(mark[$0]) < Self.frequency(mark[$1]) }!
            if !anchors.contains(mark[offset]) { anchors.append(mark[offset]) }
            anchorOf.append((anchors.firstIndex(of: mark[offset])!, offset))
        }
        self.anchors = anchors
        self.anchorOf = anchorOf
    }

    /// A rough rank of how often `byte` occurs in text (lower is rarer).
    static func frequency(_ byte: UInt8) -> Int {
        switch byte {
        case digit, 0x20: 100
        case UInt8(ascii: "e"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "s"),
            UInt8(ascii: "r"), UInt8(ascii: "h"), UInt8(ascii: "l"):
            10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): 5
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 5
        default: 1
        }
    }

    var isEmpty: Bool { marks.isEmpty }

    /// A finder of this set's anchors in `bytes[from..<to]`.
    func finder(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> ByteFinder { ByteFinder(bytes, from: from, to: to, seeking: anchors) }

    /// Whether `bytes[from..<to]` holds a mark (wholly inside it).
    func found(in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Bool {
        guard !anchors.isEmpty else { return false }
        var finder = finder(bytes, from: from, to: to)
        return first(with: &finder, from: from, to: to) != nil
    }

    /// Where the first mark in `[from, to)` starts, with `finder` (made for a range that holds it).
    func first(with finder: inout ByteFinder, from: Int, to: Int) -> Int? {
        var position = from
        while let (place, anchor) = finder.next(from: position), place < to {
            if let start = markStart(anchor: anchor, at: place, in: finder.bytes, from: from, to: to) { return start }
            position = place + 1
        }
        return nil
    }

    /// Where a mark in `[from, to)` starts whose anchor is the last in that range.
    func last(with finder: inout ByteFinder, from: Int, to: Int) -> Int? {
        var limit = to
        while let (place, anchor) = finder.previous(before: limit), place >= from {
            if let start = markStart(anchor: anchor, at: place, in: finder.bytes, from: from, to: to) { return start }
            limit = place
        }
        return nil
    }

    /// The start of a mark found by `anchor` at `place`, wholly inside `[from, to)`.
    private func markStart(anchor: Int, at place: Int, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        for index in marks.indices where anchorOf[index].anchor == anchor {
            let start = place - anchorOf[index].offset
            let mark = marks[index]
            guard start >= from, start + mark.count <= to else { continue }
            var offset = 0
            while offset < mark.count {
                let byte = bytes[start + offset]
                if mark[offset] == Self.digit ? byte &- 0x30 >= 10 : byte != mark[offset] { break }
                offset += 1
            }
            if offset == mark.count { return start }
        }
        return nil
    }
}
