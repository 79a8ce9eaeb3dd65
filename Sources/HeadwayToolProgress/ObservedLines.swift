import HeadwaySystem

/// The unended line of a stream that passes untouched: kept only to be read when it ends, and
/// only up to ``ToolProgress/maxLineBytes`` (past that, whether it held a mark, for the warning).
struct OpenLine {
    var pending: [UInt8] = []
    var overflowed = false
    var overflowMarked = false
    var previousEnd: ToolLine.End = .newline

    mutating func extend(_ bytes: UnsafeRawBufferPointer, from: Int, to: Int, interest: LineInterest) {
        guard from < to else { return }
        if overflowed {
            if !overflowMarked { overflowMarked = interest.marked(bytes, from: from, to: to) }
            return
        }
        if pending.count + to - from > ToolProgress.maxLineBytes {
            overflowMarked = pending.withUnsafeBytes { interest.marked($0, from: 0, to: $0.count) } || interest.marked(bytes, from: from, to: to)
            pending = []
            overflowed = true
            return
        }
        pending += bytes[from..<to]
    }
}

/// The whole lines in `raw[start...lastEnd]` (each ended by a line end) that `interest` wants,
/// found without cutting the others: by their marks, where the interest is marks alone, else line
/// by line. Each walk searches each byte about once.
struct Lines {
    let raw: UnsafeRawBufferPointer
    let start: Int
    let lastEnd: Int
    /// How the line before `start` ended.
    let previous: ToolLine.End
    let interest: LineInterest

    typealias Body = (_ from: Int, _ to: Int, _ end: ToolLine.End, _ previous: ToolLine.End) -> Bool

    /// The first line end in `raw[from..<to]`, for one look (a walk uses a ``ByteFinder``).
    static func firstEnd(_ raw: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        let feed = ByteSearch.first(0x0A, in: raw, from: from, to: to)
        return ByteSearch.first(0x0D, in: raw, from: from, to: feed ?? to) ?? feed
    }

    /// The last line end in `raw[from..<to]`.
    static func lastEnd(_ raw: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        let feed = ByteSearch.last(0x0A, in: raw, from: from, to: to)
        return ByteSearch.last(0x0D, in: raw, from: feed.map { $0 + 1 } ?? from, to: to) ?? feed
    }

    private func previousEnd(before lineStart: Int) -> ToolLine.End {
        lineStart == 0 ? previous : ToolLine.End(lineEnd: raw[lineStart - 1])
    }

    private var byMarks: Bool { interest.kind == .some && !interest.carriageReturns }

    /// Each wanted line, oldest first, while `body` says to go on.
    func oldestFirst(_ body: Body) {
        var ends = ByteFinder(raw, from: start, to: lastEnd + 1, seeking: ByteFinder.lineEnds)
        var position = start
        if byMarks {
            var marks = interest.marks.finder(raw, from: start, to: lastEnd)
            while position <= lastEnd, let mark = interest.marks.first(with: &marks, from: position, to: lastEnd) {
                let lineStart = Self.lastEnd(raw, from: position, to: mark).map { $0 + 1 } ?? position
                let lineEnd = ends.next(from: mark)?.place ?? lastEnd
                guard body(lineStart, lineEnd, ToolLine.End(lineEnd: raw[lineEnd]), previousEnd(before: lineStart)) else { return }
                position = lineEnd + 1
            }
            return
        }
        while position <= lastEnd {
            let lineEnd = ends.next(from: position)?.place ?? lastEnd
            let end = ToolLine.End(lineEnd: raw[lineEnd])
            if interest.wants(raw, from: position, to: lineEnd, end: end) {
                guard body(position, lineEnd, end, previousEnd(before: position)) else { return }
            }
            position = lineEnd + 1
        }
    }

    /// Each wanted line, newest first, while `body` says to go on.
    func newestFirst(_ body: Body) {
        var ends = ByteFinder(raw, from: start, to: lastEnd + 1, seeking: ByteFinder.lineEnds)
        if byMarks {
            var marks = interest.marks.finder(raw, from: start, to: lastEnd)
            var limit = lastEnd
            // The start of the line after the one read last: its end is before it.
            var following = lastEnd + 1
            while limit > start, let mark = interest.marks.last(with: &marks, from: start, to: limit) {
                let lineStart = ends.previous(before: mark).map { $0.place + 1 } ?? start
                let lineEnd = Self.firstEnd(raw, from: mark, to: following) ?? lastEnd
                guard body(lineStart, lineEnd, ToolLine.End(lineEnd: raw[lineEnd]), previousEnd(before: lineStart)) else { return }
                limit = lineStart
                following = lineStart
            }
            return
        }
        var lineEnd = lastEnd
        while lineEnd >= start {
            let lineStart = ends.previous(before: lineEnd).map { $0.place + 1 } ?? start
            let end = ToolLine.End(lineEnd: raw[lineEnd])
            if interest.wants(raw, from: lineStart, to: lineEnd, end: end) {
                guard body(lineStart, lineEnd, end, previousEnd(before: lineStart)) else { return }
            }
            lineEnd = lineStart - 1
        }
    }
}
