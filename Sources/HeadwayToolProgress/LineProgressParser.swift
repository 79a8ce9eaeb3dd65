/// Finds progress in any command's output lines: `42%`, `42.5%`, `3/10` (a token of its own),
/// `[3/10]`, `(3/10)`, `3 of 10` (read from the bytes), or a user's regular
/// expression whose first capture is the value and whose second (if any) is the total. The
/// fallback for commands no format knows.
public struct LineProgressParser {
    private let custom: Regex<AnyRegexOutput>?

    /// Whether the lines are read with a user's regular expression.
    var isCustom: Bool { custom != nil }

    /// A pattern that cannot be used, with what to do about it.
    public struct PatternError: Error, Sendable {
        /// What is wrong with the pattern, and how to fix it.
        public let message: String
    }

    /// The built-in forms only.
    public static var standard: LineProgressParser { LineProgressParser() }

    private init() { custom = nil }

    /// The built-in forms, and `pattern` (a regular expression with the value and the total as its
    /// capture groups) when given.
    public init(pattern: String?) throws(PatternError) {
        guard let pattern else {
            custom = nil
            return
        }
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw PatternError(message: "--pattern \"\(pattern)\" is not a regular expression: \(error)")
        }
        // The capture groups are the value (and the total): a pattern without one would never
        // report anything. Its capture count shows in a match of the pattern or nothing, which the
        // empty line always gives.
        let probe = try? Regex<AnyRegexOutput>("(?:" + pattern + ")|")
        guard let captures = probe.flatMap({ "".wholeMatch(of: $0) })?.output.count, captures >= 2 else {
            throw PatternError(message: "--pattern \"\(pattern)\" has no capture group; put the value in one, and the total in a second, e.g. \"done (\\d+) of (\\d+)\"")
        }
        custom = regex
    }

    /// (value, total) in the line `bytes` (UTF-8), read from the bytes unless a user's pattern
    /// needs the text.
    func progress(in bytes: UnsafeRawBufferPointer) -> (Double, Double)? {
        guard custom != nil else { return ProgressForms.progress(in: bytes) }
        return progress(in: String(decoding: bytes, as: UTF8.self)[...])
    }

    /// (value, total) in `line`, the last match on the line winning (progress bars redraw).
    public func progress(in line: Substring) -> (Double, Double)? {
        if let custom {
            guard let match = line.matches(of: custom).last, match.output.count >= 2,
                let value = match.output[1].substring.flatMap({ Double($0) }), value.isFinite, value >= 0
            else { return nil }
            let total = (match.output.count >= 3 ? match.output[2].substring.flatMap { Double($0) } : nil) ?? 100
            guard total.isFinite, total > 0 else { return nil }
            return (value, total)
        }
        if let found = line.utf8.withContiguousStorageIfAvailable({ ProgressForms.progress(in: UnsafeRawBufferPointer($0)) }) { return found }
        return Array(line.utf8).withUnsafeBytes { ProgressForms.progress(in: $0) }
    }
}

/// Any other command: its output passes untouched and is read with ``LineProgressParser``.
public struct GenericFormat: ToolFormat {
    let parser: LineProgressParser

    /// The format reading lines with `parser`.
    public init(parser: LineProgressParser) { self.parser = parser }

    public func invocation(_ context: ToolContext) -> ToolInvocation { ToolInvocation(arguments: context.arguments) }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard let (value, total) = parser.progress(in: line.text[...]) else { return .nothing }
        return ToolReading(report: ToolReport(value: value, total: total))
    }

    public mutating func read(bytes: UnsafeRawBufferPointer, stream: ToolStream, end: ToolLine.End, previous: ToolLine.End) -> ToolReading {
        guard let (value, total) = parser.progress(in: bytes) else { return .nothing }
        return ToolReading(report: ToolReport(value: value, total: total))
    }

    /// The built-in forms each have a `%`, a `/` or ` of ` and a digit; a user's pattern may be
    /// anywhere (the last lines of what came together are tried).
    public func interest(on stream: ToolStream) -> LineInterest {
        guard stream != .progress else { return .none }
        return parser.isCustom ? .every : Self.forms
    }

    static let forms = LineInterest.lines(containing: ["%", "/", " of #"])

    /// Each line says how far the command is on its own: the last one that does is what counts.
    public var readsLatestOnly: Bool { true }
}
