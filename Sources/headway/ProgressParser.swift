/// Finds progress in a command's output lines: `42%`, `42.5%`, `[3/10]`, `(3/10)`, `3 of 10`, or a
/// user's regular expression whose first two captures are the value and (optionally) the total.
struct ProgressParser {
    private let custom: Regex<AnyRegexOutput>?

    init(pattern: String? = nil) throws(ClientCommand.UsageError) {
        guard let pattern else {
            custom = nil
            return
        }
        do {
            custom = try Regex(pattern)
        } catch {
            throw ClientCommand.UsageError(message: "--pattern \"\(pattern)\" is not a regular expression: \(error)")
        }
    }

    /// (value, total) in `line`, the last match on the line winning (progress bars redraw).
    func progress(in line: Substring) -> (Double, Double)? {
        if let custom {
            guard let match = line.matches(of: custom).last, match.output.count >= 2,
                let value = match.output[1].substring.flatMap({ Double($0) })
            else { return nil }
            let total = match.output.count >= 3 ? match.output[2].substring.flatMap { Double($0) } : nil
            return (value, total ?? 100)
        }
        if let match = line.matches(of: /(\d+(?:\.\d+)?)\s?%/).last, let value = Double(match.1) {
            return (min(value, 100), 100)
        }
        if let match = line.matches(of: /[\[(](\d+)\s*\/\s*(\d+)[\])]/).last, let value = Double(match.1), let total = Double(match.2), total > 0 {
            return (value, total)
        }
        if let match = line.matches(of: /\b(\d+) of (\d+)\b/).last, let value = Double(match.1), let total = Double(match.2), total > 0 {
            return (value, total)
        }
        return nil
    }
}
