import HeadwayCore

/// Where a line of a tool's output came from.
public enum ToolStream: Sendable, Hashable {
    /// Its standard output.
    case output
    /// Its standard error.
    case errors
    /// A descriptor of its own that the tool writes machine-readable progress to (ffmpeg's
    /// `-progress pipe:N`, apt's `APT::Status-Fd`): read, never shown.
    case progress
}

/// One line of a tool's output, without its end.
public struct ToolLine: Sendable, Equatable {
    /// How a line ended: a line feed, a carriage return (a meter redrawn in place), or not at all
    /// (the stream ended).
    public enum End: Sendable, Equatable {
        /// A line feed.
        case newline
        /// A carriage return: a meter redrawn in place.
        case carriageReturn
        /// None: the stream ended.
        case none
    }

    /// The line's text.
    public var text: String
    /// Where it came from.
    public var stream: ToolStream
    /// How it ended.
    public var end: End
    /// How the line before it on the same stream ended (`.none` for the first).
    public var previous: End

    /// A line of `text` from `stream`.
    public init(_ text: String, stream: ToolStream, end: End = .newline, previous: End = .newline) {
        self.text = text
        self.stream = stream
        self.end = end
        self.previous = previous
    }
}

/// How far a tool is, by its own figures.
public struct ToolReport: Sendable, Equatable {
    /// Done so far, of `total`; nil while the tool does not know its total (indeterminate).
    public var value: Double?
    /// The total, in the tool's units.
    public var total: Double?
    /// The tool's own estimate of the seconds remaining.
    public var eta: Double?
    /// The step, named as the tool names it: "restic: scanning", "apt: unpacking nginx".
    public var label: String?
    /// What value and total count (bytes in the multiples the tool prints, seconds); nil for things.
    public var unit: ValueUnit?
    /// Where the tool's current stage ends on its scale, when work of another kind follows there
    /// (apt's download, the first half of its scale): nil in the last stage.
    public var stageEnd: Double?

    /// A report of each member given.
    public init(value: Double? = nil, total: Double? = nil, eta: Double? = nil, label: String? = nil, unit: ValueUnit? = nil, stageEnd: Double? = nil) {
        self.value = value
        self.total = total
        self.eta = eta
        self.label = label
        self.unit = unit
        self.stageEnd = stageEnd
    }
}

/// What a format made of one line.
public struct ToolReading: Sendable, Equatable {
    /// How far the tool is, when the line said.
    public var report: ToolReport?
    /// The line is the progress meter Headway asked the tool for: it is not shown.
    public var withheld = false
    /// A line withheld before, to be shown before this one after all (restic's last status line,
    /// which restic prints without being asked).
    public var restored: String?
    /// What could not be read, for the one warning.
    public var problem: String?

    /// A reading of each member given.
    public init(report: ToolReport? = nil, withheld: Bool = false, restored: String? = nil, problem: String? = nil) {
        self.report = report
        self.withheld = withheld
        self.restored = restored
        self.problem = problem
    }

    /// The line said nothing of progress.
    public static let nothing = ToolReading()
}

/// How the command is started so that it tells its progress.
public struct ToolInvocation: Sendable, Equatable {
    /// The whole command line, with what the format added.
    public var arguments: [String]
    /// Variables added to the command's environment.
    public var environment: [(String, String)]
    /// Whether the tool writes progress to a descriptor of its own (the number given to the format).
    public var usesDescriptor: Bool
    /// The streams on which the format may withhold lines (its meter): their partial lines wait
    /// for their end (or a pause) before they are shown.
    public var withholds: Set<ToolStream>
    /// What Headway could not ask for, said once (a tool that is not on the command line).
    public var note: String?

    /// An invocation of `arguments` with `environment` added.
    public init(arguments: [String], environment: [(String, String)] = [], usesDescriptor: Bool = false, withholds: Set<ToolStream> = [], note: String? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.usesDescriptor = usesDescriptor
        self.withholds = withholds
        self.note = note
    }

    public static func == (a: ToolInvocation, b: ToolInvocation) -> Bool {
        a.arguments == b.arguments && a.environment.map { "\($0.0)=\($0.1)" } == b.environment.map { "\($0.0)=\($0.1)" }
            && a.usesDescriptor == b.usesDescriptor && a.withholds == b.withholds && a.note == b.note
    }
}

/// What `headway run` knows beside the command line.
public struct ToolContext: Sendable {
    /// The whole command line as the user gave it.
    public var arguments: [String]
    /// Where the tool's program is in it (after `nice`, `env` and the like), when it is there.
    public var toolIndex: Int?
    /// `headway run --size BYTES`: the bytes a dd or pv will move.
    public var size: Double?
    /// `headway run --total N`: the total in the tool's unit (ffmpeg: seconds of output).
    public var total: Double?
    /// The command's environment.
    public var environment: @Sendable (String) -> String?
    /// The size of a regular file, when it is one (dd's `if=`).
    public var fileSize: @Sendable (String) -> Double?
    /// The descriptor number the tool writes its progress to, when the format uses one.
    public var descriptor: Int32

    /// What `headway run` knows of the command in `arguments` (the tool at `toolIndex`).
    public init(
        arguments: [String], toolIndex: Int? = nil, size: Double? = nil, total: Double? = nil,
        environment: @escaping @Sendable (String) -> String? = { _ in nil }, fileSize: @escaping @Sendable (String) -> Double? = { _ in nil }, descriptor: Int32 = 3
    ) {
        self.arguments = arguments
        self.toolIndex = toolIndex
        self.size = size
        self.total = total
        self.environment = environment
        self.fileSize = fileSize
        self.descriptor = descriptor
    }

    /// The tool's own arguments (after its program name).
    public var toolArguments: ArraySlice<String> {
        guard let toolIndex else { return arguments[arguments.count...] }
        return arguments[(toolIndex + 1)...]
    }
}

/// A tool's progress format: what it asks of the invocation and how it reads the tool's lines.
/// One format per tool, beside the others; ``ToolProgress`` holds one and keeps its reports honest.
///
/// A format's regular expressions are static: a regex literal in a function is parsed and compiled
/// again each time it is evaluated, which made reading a line cost a compilation. A `Regex` is a
/// value whose compiled program is made on its first match and kept, stored with an atomic
/// compare-and-swap (swift-experimental-string-processing, `Regex.Program.loweredProgram`), so one
/// shared value may be matched from any thread: hence `nonisolated(unsafe)`, which only says that
/// the compiler cannot see this (`Regex` is not declared `Sendable`).
public protocol ToolFormat {
    /// The command line and environment that make the tool tell its progress, never changing
    /// what else it does or shows.
    func invocation(_ context: ToolContext) -> ToolInvocation
    /// Reads one line (what the tool printed, or wrote to its progress descriptor).
    mutating func read(_ line: ToolLine) -> ToolReading
    /// Reads one line given as its bytes (without its end): by default decoded and read with
    /// ``read(_:)``; a format that reads bytes skips the decoding.
    mutating func read(bytes: UnsafeRawBufferPointer, stream: ToolStream, end: ToolLine.End, previous: ToolLine.End) -> ToolReading
    /// The tool closed `stream`: a line withheld last may be given back.
    mutating func end(_ stream: ToolStream) -> ToolReading
    /// Whether an unended line on `stream` may be the start of the meter Headway asked for (rsync
    /// and dd begin each redraw with a carriage return and end it only with the next): such a line
    /// keeps waiting for its end; any other is shown after a short wait (a prompt).
    func mayBeMeter(_ partial: String, on stream: ToolStream) -> Bool
    /// Reads a line that has not ended yet, when it is a whole redraw of a meter that ends only
    /// with the next one (dd prints one a second, rsync and curl each redraw after a carriage
    /// return): its figures are the tool's now, not a redraw later. The line is read again, as
    /// usual, when it ends; nil when it is not such a meter (yet).
    mutating func peek(_ partial: ToolLine) -> ToolReport?
    /// Whether ``peek(_:)`` reads anything: the unended line is decoded only for a format that does.
    var peeksAtPartialLines: Bool { get }
    /// The lines ``read(_:)`` may make anything of on `stream` (a report, a withheld line, a
    /// problem, a change of what it reads next), told by their bytes: the others are passed on
    /// without being decoded or read. It may narrow as the format learns (a total read once),
    /// never widen; what it is at the start says whether the stream is read at all.
    func interest(on stream: ToolStream) -> LineInterest
    /// Whether each line is read on its own and a later report supersedes an earlier one, so that
    /// of the lines that came together only the last that reports anything need be read (at most
    /// ``ToolProgress/latestLinesRead`` of them are tried, newest first).
    var readsLatestOnly: Bool { get }
}

extension ToolFormat {
    public mutating func read(bytes: UnsafeRawBufferPointer, stream: ToolStream, end: ToolLine.End, previous: ToolLine.End) -> ToolReading {
        read(ToolLine(String(decoding: bytes, as: UTF8.self), stream: stream, end: end, previous: previous))
    }

    public mutating func end(_ stream: ToolStream) -> ToolReading { .nothing }
    public func mayBeMeter(_ partial: String, on stream: ToolStream) -> Bool { false }
    public mutating func peek(_ partial: ToolLine) -> ToolReport? { nil }
    public var peeksAtPartialLines: Bool { false }
    public func interest(on stream: ToolStream) -> LineInterest { .every }
    public var readsLatestOnly: Bool { false }
}
