import HeadwayCore

/// cargo. Without a terminal cargo draws no progress bar; Headway sets `CARGO_TERM_PROGRESS_WHEN=always`
/// and `CARGO_TERM_PROGRESS_WIDTH=80` (cargo's `term.progress.when` and `.width` settings; `always`
/// needs a width) unless the user set the first or asked for quiet (`-q`, `--quiet`,
/// `CARGO_TERM_QUIET`): cargo then draws its bar on stderr, each redraw ending in a carriage
/// return, `    Building [=====>      ] 3/10: serde, libc`, and Headway withholds it; cargo's
/// other lines ("Compiling …", warnings, errors) end in a line feed and pass. The count is of the
/// units cargo has finished, of all it will build: the job is determinate from the first bar.
/// The bar cargo draws while it downloads crates (`Downloading`) counts crates, not the build: it
/// names the step only, so the build's count never starts above where it is.
/// Read from cargo 1.65 (Debian 12) and 1.95; fixtures in Tests/HeadwayToolProgressTests/Fixtures/cargo.
public struct CargoFormat: ToolFormat {
    let asked: Bool

    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let barPattern = /\s*(\w+) \[[=> ]*\] (\d+)\/(\d+)(?:: ?(.*))?/
    nonisolated(unsafe) static let barStartPattern = /\s*\w+ \[/

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let quiet = ToolArguments.contains(context.toolArguments, ["--quiet"], letters: "q") || context.environment("CARGO_TERM_QUIET") == "true"
        asked = context.toolIndex != nil && !quiet && context.environment("CARGO_TERM_PROGRESS_WHEN") == nil
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(
            arguments: context.arguments, environment: [("CARGO_TERM_PROGRESS_WHEN", "always"), ("CARGO_TERM_PROGRESS_WIDTH", "80")], withholds: [.errors])
    }

    public func mayBeMeter(_ partial: String, on stream: ToolStream) -> Bool {
        asked && stream == .errors && partial.prefixMatch(of: Self.barStartPattern) != nil
    }

    /// The bar's redraws, each ended by a carriage return.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .errors ? Self.redraws : .none }

    static let redraws = LineInterest.lines(containing: [], carriageReturns: true)

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors, line.end == .carriageReturn else { return .nothing }
        guard let match = line.text.wholeMatch(of: Self.barPattern) else {
            // The blank line cargo clears its bar with.
            return line.text.allSatisfy({ $0 == " " }) ? ToolReading(withheld: asked) : .nothing
        }
        let step = DisplayText.truncated(DisplayText.sanitised(match.1.lowercased()), maxBytes: 16)
        // The first unit cargo works on: "serde, libc(build)" → "serde".
        let first = match.4.flatMap { names in names.split(separator: ",").first?.split(separator: " ").first }
        let unit = first.map { name in String(name.prefix { $0 != "(" }) } ?? ""
        let label = unit.isEmpty ? "cargo: \(step)" : DisplayText.shortened(DisplayText.sanitised("cargo: \(step) \(unit)"), maxBytes: 48)
        guard step == "building", let done = Double(match.2), let total = Double(match.3), total > 0 else {
            return ToolReading(report: ToolReport(label: label), withheld: asked)
        }
        return ToolReading(report: ToolReport(value: done, total: total, label: label), withheld: asked)
    }
}
