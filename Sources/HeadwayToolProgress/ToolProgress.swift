import HeadwayCore

/// The progress of one command under `headway run`: the format that reads it (the tool's own, or
/// the generic one), the lines its output is cut into, and the guard that keeps what is reported
/// honest whatever the tool prints: finite numbers only, never above the total, determinate only
/// once a total is known and then for good, one problem kept for the one warning.
public struct ToolProgress {
    /// What to send the service after some output.
    public struct Update: Sendable, Equatable {
        /// Done so far of `total`; both nil while the job is indeterminate (then only the label).
        public var value: Double?
        /// The total, in the tool's units.
        public var total: Double?
        /// The tool's own estimate of the seconds remaining.
        public var eta: Double?
        /// The step, as the tool names it.
        public var label: String?
        /// What value and total count, as the tool counts them (nil: things).
        public var unit: ValueUnit?
        /// Where the tool's current stage ends on its scale, when other work follows (apt's download).
        public var stageEnd: Double?
    }

    /// What came of some bytes of output: the bytes to pass on (the output less the meter
    /// Headway asked for) and the updates, oldest first.
    public struct Result: Sendable, Equatable {
        /// The output to pass on.
        public var passed: [UInt8] = []
        /// What to send, oldest first.
        public var updates: [Update] = []
    }

    /// The longest line read: a longer one passes through unread, costing no more memory.
    public static let maxLineBytes = 65536
    /// Of the lines that came together on a stream whose format reads the latest only, how many
    /// are tried, newest first, before the others are let pass unread: what bounds the reading
    /// of a flood of lines that look like progress and are not.
    public static let latestLinesRead = 64

    /// The format's name.
    public let name: String
    /// How the command is started.
    public let invocation: ToolInvocation
    private var format: any ToolFormat
    /// The streams whose lines may be withheld: each line kept until its end decides.
    private var held: [ToolStream: LineState] = [:]
    /// The streams that pass untouched: only their unended line is kept, and only to be read.
    private var observed: [ToolStream: OpenLine] = [:]
    private var determinate = false
    private var lastTotal: Double?
    private var lastUnit: ValueUnit?
    private var lastStageEnd: Double?
    private var lastValue: Double?
    private var lastLabel: String?
    /// The first thing that could not be read, until it is taken for the warning.
    public private(set) var problem: String?
    private var warned = false
    /// How many lines were decoded and read, of all the command wrote.
    package private(set) var linesRead = 0

    /// For `format` (a known tool's name) or the tool the command line starts, else the generic
    /// reader with `pattern`.
    public init(context: ToolContext, format name: String?, pattern: LineProgressParser) throws(ToolCatalogue.UnknownFormat) {
        let kind = try ToolCatalogue.kind(named: name, for: context.arguments)
        var context = context
        context.toolIndex = kind.flatMap { ToolCatalogue.toolIndex(of: $0, in: context.arguments) }
        self.name = kind?.name ?? "generic"
        format = kind?.make(context) ?? GenericFormat(parser: pattern)
        invocation = kind == nil ? ToolInvocation(arguments: context.arguments) : format.invocation(context)
        if let note = invocation.note { problem = note }
    }

    /// The problem to warn about, once: nil after the first time.
    public mutating func takeProblem() -> String? {
        guard !warned, let problem else { return nil }
        warned = true
        return problem
    }

    private mutating func note(_ text: String) { if problem == nil { problem = text } }

    private static let overlong = "a line of more than \(maxLineBytes / 1024) KiB was passed through unread"

    /// Whether what the command writes on `stream` passes exactly as written (no line of it is
    /// withheld), so that it may be passed on before it is read, with ``observe(_:_:)``.
    public func passesUntouched(_ stream: ToolStream) -> Bool { !invocation.withholds.contains(stream) }

    /// Whether any line on `stream` is read: one that passes untouched and is not read need not
    /// be looked at (a file's contents on stdout, for a tool whose progress is on stderr).
    public func reads(_ stream: ToolStream) -> Bool { !format.interest(on: stream).isNone }

    /// Reads bytes the command wrote on `stream`: complete lines are read (and the meter withheld),
    /// a partial line waits only on a stream where lines may be withheld.
    public mutating func feed(_ stream: ToolStream, _ bytes: ArraySlice<UInt8>) -> Result {
        if passesUntouched(stream) { return Result(passed: Array(bytes), updates: observe(stream, bytes)) }
        var result = Result()
        var state = held[stream] ?? LineState()
        let interest = format.interest(on: stream)
        bytes.withUnsafeBytes { raw in
            var ends = ByteFinder(raw, from: 0, to: raw.count, seeking: ByteFinder.lineEnds)
            var start = 0
            while start < raw.count {
                guard let end = ends.next(from: start)?.place else {
                    state.append(raw, from: start, to: raw.count, passing: &result.passed)
                    if state.overflowed {
                        note(Self.overlong)
                    } else if format.peeksAtPartialLines, state.wanted(by: interest, end: .none) {
                        let partial = ToolLine(String(decoding: state.line, as: UTF8.self), stream: stream, end: .none, previous: state.previousEnd)
                        if let report = format.peek(partial), let update = guarded(report) { result.updates.append(update) }
                    }
                    break
                }
                state.append(raw, from: start, to: end, passing: &result.passed)
                finishLine(&state, stream: stream, end: ToolLine.End(lineEnd: raw[end]), terminator: raw[end], interest: interest, into: &result)
                start = end + 1
            }
        }
        held[stream] = state
        return result
    }

    /// Reads bytes the command wrote on `stream`, a stream that passes untouched
    /// (``passesUntouched(_:)``) and has been passed on already: the updates they make. Only the
    /// lines the format may read (``ToolFormat/interest(on:)``) are found, by their bytes, and
    /// decoded; of a format that reads the latest only, the last that reports.
    public mutating func observe(_ stream: ToolStream, _ bytes: ArraySlice<UInt8>) -> [Update] {
        let interest = format.interest(on: stream)
        guard !interest.isNone, !bytes.isEmpty else { return [] }
        var updates: [Update] = []
        var open = observed[stream] ?? OpenLine()
        bytes.withUnsafeBytes { raw in
            guard let lastEnd = Lines.lastEnd(raw, from: 0, to: raw.count) else {
                open.extend(raw, from: 0, to: raw.count, interest: interest)
                peek(open, stream: stream, interest: interest, into: &updates)
                return
            }
            let firstEnd = Lines.firstEnd(raw, from: 0, to: lastEnd + 1) ?? lastEnd
            // The line begun before these bytes, ended by their first line end.
            var first: [UInt8]?
            var firstPrevious = open.previousEnd
            var regionStart = 0
            if open.overflowed || !open.pending.isEmpty {
                regionStart = firstEnd + 1
                if open.overflowed {
                    if open.overflowMarked || interest.marked(raw, from: 0, to: firstEnd) { note(Self.overlong) }
                } else if open.pending.count + firstEnd > Self.maxLineBytes {
                    note(Self.overlong)
                } else {
                    first = open.pending + raw[0..<firstEnd]
                }
                firstPrevious = open.previousEnd
            }
            let firstEnding = ToolLine.End(lineEnd: raw[firstEnd])
            let lines = Lines(raw: raw, start: regionStart, lastEnd: lastEnd, previous: open.previousEnd, interest: interest)
            if format.readsLatestOnly {
                var tried = 0
                var reported = false
                lines.newestFirst { from, to, end, previous in
                    tried += 1
                    reported = readLine(raw, from: from, to: to, end: end, previous: previous, stream: stream, into: &updates)
                    return !reported && tried < Self.latestLinesRead
                }
                if !reported, tried < Self.latestLinesRead, let first {
                    readWanted(first, end: firstEnding, previous: firstPrevious, stream: stream, interest: interest, into: &updates)
                }
            } else {
                if let first { readWanted(first, end: firstEnding, previous: firstPrevious, stream: stream, interest: interest, into: &updates) }
                lines.oldestFirst { from, to, end, previous in
                    _ = readLine(raw, from: from, to: to, end: end, previous: previous, stream: stream, into: &updates)
                    return true
                }
            }
            open = OpenLine(previousEnd: ToolLine.End(lineEnd: raw[lastEnd]))
            open.extend(raw, from: lastEnd + 1, to: raw.count, interest: interest)
            peek(open, stream: stream, interest: interest, into: &updates)
        }
        observed[stream] = open
        return updates
    }

    /// Reads the line `bytes` (a line begun in earlier output) when the format wants it.
    private mutating func readWanted(_ bytes: [UInt8], end: ToolLine.End, previous: ToolLine.End, stream: ToolStream, interest: LineInterest, into updates: inout [Update]) {
        bytes.withUnsafeBytes { raw in
            guard interest.wants(raw, from: 0, to: raw.count, end: end) else { return }
            _ = readLine(raw, from: 0, to: raw.count, end: end, previous: previous, stream: stream, into: &updates)
        }
    }

    /// Reads one line of a stream that passes untouched: whether it reported anything.
    private mutating func readLine(
        _ raw: UnsafeRawBufferPointer, from: Int, to: Int, end: ToolLine.End, previous: ToolLine.End, stream: ToolStream, into updates: inout [Update]
    ) -> Bool {
        guard to - from <= Self.maxLineBytes else {
            note(Self.overlong)
            return false
        }
        linesRead += 1
        let reading = format.read(bytes: UnsafeRawBufferPointer(rebasing: raw[from..<to]), stream: stream, end: end, previous: previous)
        if let problem = reading.problem { note(problem) }
        guard let report = reading.report else { return false }
        if let update = guarded(report) { updates.append(update) }
        return true
    }

    /// A format that reads unended redraws reads the unended line, when it may be one.
    private mutating func peek(_ open: OpenLine, stream: ToolStream, interest: LineInterest, into updates: inout [Update]) {
        guard format.peeksAtPartialLines, !open.overflowed, !open.pending.isEmpty else { return }
        let wanted = open.pending.withUnsafeBytes { interest.wants($0, from: 0, to: $0.count, end: .none) }
        guard wanted else { return }
        let partial = ToolLine(String(decoding: open.pending, as: UTF8.self), stream: stream, end: .none, previous: open.previousEnd)
        if let report = format.peek(partial), let update = guarded(report) { updates.append(update) }
    }

    /// Whether a partial line waits unshown on `stream` that is not the meter's.
    public func isWaiting(_ stream: ToolStream) -> Bool {
        guard let state = held[stream], state.shown < state.line.count else { return false }
        return !format.mayBeMeter(String(decoding: state.line, as: UTF8.self), on: stream)
    }

    /// Shows a partial line that has waited (a prompt, a line the tool has not ended yet): what
    /// follows on that line passes too.
    public mutating func release(_ stream: ToolStream) -> [UInt8] {
        guard var state = held[stream], state.shown < state.line.count else { return [] }
        if format.mayBeMeter(String(decoding: state.line, as: UTF8.self), on: stream) { return [] }
        var passed: [UInt8] = []
        state.releasePending(into: &passed)
        held[stream] = state
        return passed
    }

    /// The stream ended: its last line, if unended, is read, and what the format gives back passes.
    public mutating func end(_ stream: ToolStream) -> Result {
        var result = Result()
        if passesUntouched(stream) {
            if let open = observed[stream] {
                let interest = format.interest(on: stream)
                if open.overflowed, open.overflowMarked { note(Self.overlong) }
                if !open.overflowed, !open.pending.isEmpty {
                    readWanted(open.pending, end: .none, previous: open.previousEnd, stream: stream, interest: interest, into: &result.updates)
                }
                observed[stream] = nil
            }
        } else if var state = held[stream], state.hasLine {
            finishLine(&state, stream: stream, end: .none, terminator: nil, interest: format.interest(on: stream), into: &result)
            held[stream] = state
        }
        let reading = format.end(stream)
        if let restored = reading.restored, invocation.withholds.contains(stream) { result.passed += Array((restored + "\n").utf8) }
        return result
    }

    private mutating func finishLine(
        _ state: inout LineState, stream: ToolStream, end: ToolLine.End, terminator: UInt8?, interest: LineInterest, into result: inout Result
    ) {
        if state.overflowed {
            note(Self.overlong)
            state.finish(withheld: false, terminator: terminator, passing: &result.passed)
            return
        }
        guard state.wanted(by: interest, end: end) else {
            state.finish(withheld: false, terminator: terminator, passing: &result.passed)
            state.previousEnd = end
            return
        }
        linesRead += 1
        let reading = state.line.withUnsafeBytes { format.read(bytes: $0, stream: stream, end: end, previous: state.previousEnd) }
        if let problem = reading.problem { note(problem) }
        if let restored = reading.restored { result.passed += Array((restored + "\n").utf8) }
        let withheld = reading.withheld && stream != .progress
        state.finish(withheld: withheld, terminator: terminator, passing: &result.passed)
        state.previousEnd = end
        if let report = reading.report, let update = guarded(report) { result.updates.append(update) }
    }

    /// `report` as it may be shown, or nil when it says nothing new that can be trusted.
    mutating func guarded(_ report: ToolReport) -> Update? {
        var update = Update(label: report.label.map { DisplayText.shortened(DisplayText.sanitised($0), maxBytes: 60) })
        if let eta = report.eta, eta.isFinite, eta >= 0 { update.eta = eta }
        if let value = report.value, let total = report.total {
            guard value.isFinite, total.isFinite else {
                note("\(name) reported a number that is not one (NaN or infinite)")
                return labelOnly(update)
            }
            guard value >= 0, total > 0 else {
                note("\(name) reported \(value < 0 ? "a negative amount" : "a total of \(total)")")
                return labelOnly(update)
            }
            if value > total { note("\(name) reported more than its total (\(NumberText.compact(value)) of \(NumberText.compact(total)))") }
            if let last = lastValue, let lastTotal, lastTotal == total, value < last {
                note("\(name)'s progress went back (from \(NumberText.compact(last)) to \(NumberText.compact(value)) of \(NumberText.compact(total)))")
            }
            update.value = min(value, total)
            update.total = total
            update.unit = report.unit
            update.stageEnd = report.stageEnd.flatMap { $0.isFinite && $0 >= min(value, total) && $0 < total ? $0 : nil }
            lastUnit = report.unit
            lastStageEnd = update.stageEnd
            determinate = true
            lastValue = update.value
            lastTotal = total
            lastLabel = update.label ?? lastLabel
            return update
        }
        return labelOnly(update)
    }

    /// An update that changes the label only: nothing when the label is the one shown. Once the
    /// job is determinate it stays so: the last value, total, unit and stage go with the label.
    private mutating func labelOnly(_ update: Update) -> Update? {
        guard let label = update.label, label != lastLabel else { return nil }
        lastLabel = label
        var result = update
        if determinate {
            result.value = lastValue
            result.total = lastTotal
            result.unit = lastUnit
            result.stageEnd = lastStageEnd
        }
        return result
    }
}
