import HeadwayCore
import HeadwayProtocol

/// rclone (`copy`, `sync`, `move`, `check` …). Headway adds `--stats 1s --stats-one-line
/// --stats-log-level NOTICE` unless the user chose how stats are shown (`--stats…`, `-P`) or
/// quiet: rclone then logs one line of stats a second on stderr,
/// `2026/11/26 03:17:14 NOTICE:     1.682 MiB / 7.629 MiB, 22%, 1.2 MiB/s, ETA 4s (xfr#7/40)`,
/// and Headway withholds it (at NOTICE rclone's other logging is unchanged; these are the stats
/// rclone would print every minute at INFO with `-v`). With `--use-json-log` (the user's) the
/// `stats` object of each record is read: exact bytes, total and ETA. rclone's total grows while
/// it lists the source, so the shown fraction can hold still for a while; the value never passes
/// rclone's own.
/// Read from rclone 1.60.1 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/rclone.
public struct RcloneFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let statsPattern = /NOTICE: +([\d.]+ ?[A-Za-z]*) \/ ([\d.]+ ?[A-Za-z]*), (\d+|-)%?, [^,]*, ETA (\S+)/

    let asked: Bool
    let json: Bool
    let step: String

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        json = ToolArguments.contains(arguments, ["--use-json-log"])
        let chosen = arguments.contains { $0.hasPrefix("--stats") } || ToolArguments.contains(arguments, ["--progress", "--quiet"], letters: "Pq")
        asked = context.toolIndex != nil && !chosen
        let command = ToolArguments.subcommand(arguments, valued: ["--config", "--log-file", "--log-level", "--bwlimit", "--transfers", "--checkers", "--include", "--exclude", "--filter", "--filter-from", "--include-from", "--exclude-from", "--files-from", "--min-size", "--max-size", "--min-age", "--max-age", "--backup-dir", "--suffix"])
        switch command {
        case "sync"?: step = "syncing"
        case "move"?, "moveto"?: step = "moving"
        case "check"?, "cryptcheck"?: step = "checking"
        default: step = "copying"
        }
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked, let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments) }
        let added = ["--stats", "1s", "--stats-one-line", "--stats-log-level", "NOTICE"]
        return ToolInvocation(arguments: ToolArguments.inserting(added, in: context.arguments, at: toolIndex), withholds: [.errors])
    }

    /// The stats lines (logged at NOTICE), and with `--use-json-log` the records.
    public func interest(on stream: ToolStream) -> LineInterest {
        guard stream == .errors else { return .none }
        return json ? Self.recordsAndStats : Self.stats
    }

    static let stats = LineInterest.lines(containing: ["NOTICE: "])
    static let recordsAndStats = LineInterest.lines(containing: ["{", "NOTICE: "])

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors else { return .nothing }
        if json, line.text.hasPrefix("{") { return readJSON(line.text) }
        guard let match = line.text.firstMatch(of: Self.statsPattern) else { return .nothing }
        guard let done = ToolNumbers.bytes(match.1), let total = ToolNumbers.bytes(match.2, rounding: .down), total > 0 else {
            return ToolReading(report: ToolReport(label: "rclone: \(step)"), withheld: asked)
        }
        var value = min(done, total)
        if let percent = Double(match.3) { value = min(value, percent / 100 * total) }
        let eta = match.4 == "-" ? nil : DurationText.parse(String(match.4))
        return ToolReading(report: ToolReport(value: value, total: total, eta: eta, label: "rclone: \(step)", unit: .binaryBytes), withheld: asked)
    }

    func readJSON(_ text: String) -> ToolReading {
        guard let record = try? JSONValue.parse(text) else { return ToolReading(problem: "a line of rclone's --use-json-log output that is not JSON") }
        guard let stats = record["stats"] else {
            return record["msg"] == nil ? ToolReading(problem: "an rclone log record without msg or stats") : .nothing
        }
        guard let done = stats["bytes"]?.number, let total = stats["totalBytes"]?.number else {
            return ToolReading(withheld: asked, problem: "rclone stats without bytes and totalBytes")
        }
        guard total > 0 else { return ToolReading(report: ToolReport(label: "rclone: \(step)"), withheld: asked) }
        return ToolReading(report: ToolReport(value: done, total: total, eta: stats["eta"]?.number, label: "rclone: \(step)", unit: .binaryBytes), withheld: asked)
    }
}
