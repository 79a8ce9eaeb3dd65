/// Finds progress in any command's output lines: `42%`, `42.5%`, `3/10` (a token of its own),
/// `[3/10]`, `(3/10)`, `3 of 10`, or a user's regular expression whose first capture is the value
/// and whose second (if any) is the total. The fallback for commands no format knows.
public struct LineProgressParser {
    // The built-in forms, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let percentPattern = /(\d+(?:\.\d+)?)\s?%/
    nonisolated(unsafe) static let bracketedPattern = /[\[(](\d+)\s*\/\s*(\d+)[\])]/
    nonisolated(unsafe) static let fractionPattern = /(?:^|\s)(\d+)\/(\d+)(?=\s|$|[:,.;])/
    nonisolated(unsafe) static let ofPattern = /\b(\d+) of (\d+)\b/

    private let custom: Regex<AnyRegexOutput>?

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
        if let match = line.matches(of: Self.percentPattern).last, let value = Double(match.1) {
            return (min(value, 100), 100)
        }
        if let match = line.matches(of: Self.bracketedPattern).last, let pair = Self.pair(match.1, match.2) {
            return pair
        }
        if let match = line.matches(of: Self.fractionPattern).last, let pair = Self.pair(match.1, match.2) {
            return pair
        }
        if let match = line.matches(of: Self.ofPattern).last, let pair = Self.pair(match.1, match.2) {
            return pair
        }
        return nil
    }

    /// A value and a total that make sense as progress (finite, the total above 0).
    private static func pair(_ value: Substring, _ total: Substring) -> (Double, Double)? {
        guard let value = Double(value), let total = Double(total), value.isFinite, total.isFinite, total > 0 else { return nil }
        return (value, total)
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
}
