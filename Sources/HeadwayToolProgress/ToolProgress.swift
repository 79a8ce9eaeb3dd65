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

    /// The format's name.
    public let name: String
    /// How the command is started.
    public let invocation: ToolInvocation
    private var format: any ToolFormat
    private var streams: [ToolStream: LineState] = [:]
    private var determinate = false
    private var lastTotal: Double?
    private var lastUnit: ValueUnit?
    private var lastValue: Double?
    private var lastLabel: String?
    /// The first thing that could not be read, until it is taken for the warning.
    public private(set) var problem: String?
    private var warned = false

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

    /// Reads bytes the command wrote on `stream`: complete lines are read (and the meter withheld),
    /// a partial line waits only on a stream where lines may be withheld.
    public mutating func feed(_ stream: ToolStream, _ bytes: ArraySlice<UInt8>) -> Result {
        var result = Result()
        var state = streams[stream] ?? LineState(holds: invocation.withholds.contains(stream))
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
                state.append(bytes[start...], passing: &result.passed)
                if state.overflowed {
                    note("a line of more than \(Self.maxLineBytes / 1024) KiB was passed through unread")
                } else {
                    let partial = ToolLine(String(decoding: state.line, as: UTF8.self), stream: stream, end: .none, previous: state.previousEnd)
                    if let report = format.peek(partial), let update = guarded(report) { result.updates.append(update) }
                }
                break
            }
            state.append(bytes[start..<end], passing: &result.passed)
            finishLine(&state, stream: stream, end: bytes[end] == 0x0A ? .newline : .carriageReturn, terminator: bytes[end], into: &result)
            start = end + 1
        }
        streams[stream] = state
        return result
    }

    /// Whether a partial line waits unshown on `stream` that is not the meter's.
    public func isWaiting(_ stream: ToolStream) -> Bool {
        guard let state = streams[stream], state.holds, state.shown < state.line.count else { return false }
        return !format.mayBeMeter(String(decoding: state.line, as: UTF8.self), on: stream)
    }

    /// Shows a partial line that has waited (a prompt, a line the tool has not ended yet): what
    /// follows on that line passes too.
    public mutating func release(_ stream: ToolStream) -> [UInt8] {
        guard var state = streams[stream], state.shown < state.line.count else { return [] }
        if format.mayBeMeter(String(decoding: state.line, as: UTF8.self), on: stream) { return [] }
        var passed: [UInt8] = []
        state.releasePending(into: &passed)
        streams[stream] = state
        return passed
    }

    /// The stream ended: its last line, if unended, is read, and what the format gives back passes.
    public mutating func end(_ stream: ToolStream) -> Result {
        var result = Result()
        if var state = streams[stream], state.hasLine {
            finishLine(&state, stream: stream, end: .none, terminator: nil, into: &result)
            streams[stream] = state
        }
        let reading = format.end(stream)
        if let restored = reading.restored, invocation.withholds.contains(stream) { result.passed += Array((restored + "\n").utf8) }
        return result
    }

    private mutating func finishLine(_ state: inout LineState, stream: ToolStream, end: ToolLine.End, terminator: UInt8?, into result: inout Result) {
        if state.overflowed {
            note("a line of more than \(Self.maxLineBytes / 1024) KiB was passed through unread")
            state.finish(withheld: false, terminator: terminator, passing: &result.passed)
            return
        }
        let line = ToolLine(String(decoding: state.line, as: UTF8.self), stream: stream, end: end, previous: state.previousEnd)
        let reading = format.read(line)
        if let problem = reading.problem { note(problem) }
        if let restored = reading.restored, state.holds { result.passed += Array((restored + "\n").utf8) }
        let withheld = reading.withheld && state.holds && stream != .progress
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
            lastUnit = report.unit
            determinate = true
            lastValue = update.value
            lastTotal = total
            lastLabel = update.label ?? lastLabel
            return update
        }
        return labelOnly(update)
    }

    /// An update that changes the label only: nothing when the label is the one shown. Once the
    /// job is determinate it stays so: the last value and total go with the label.
    private mutating func labelOnly(_ update: Update) -> Update? {
        guard let label = update.label, label != lastLabel else { return nil }
        lastLabel = label
        var result = update
        if determinate {
            result.value = lastValue
            result.total = lastTotal
            result.unit = lastUnit
        }
        return result
    }
}

/// One stream's line being read: its bytes so far (at most ``ToolProgress/maxLineBytes``), how many
/// of them were shown already, whether it outgrew the limit.
struct LineState {
    let holds: Bool
    var line: [UInt8] = []
    var shown = 0
    var overflowed = false
    var previousEnd: ToolLine.End = .newline

    init(holds: Bool) { self.holds = holds }

    var hasLine: Bool { !line.isEmpty || overflowed }

    /// Takes part of a line: passed on at once unless lines here wait; past the limit what was
    /// kept passes and the line is no longer read.
    mutating func append(_ bytes: ArraySlice<UInt8>, passing passed: inout [UInt8]) {
        if overflowed {
            passed += bytes
            return
        }
        if line.count + bytes.count > ToolProgress.maxLineBytes {
            passed += line[shown...]
            passed += bytes
            line = []
            shown = 0
            overflowed = true
            return
        }
        line += bytes
        if !holds {
            passed += bytes
            shown = line.count
        }
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
