import HeadwayCore
import HeadwayProtocol

/// restic (`backup`, `restore`, `check`, `prune` …). Unless the user asked for `--json` (whose
/// status lines are read as they pass, untouched), Headway sets `RESTIC_PROGRESS_FPS`, which makes
/// restic print its text status lines to a pipe as well (restic's `internal/ui/termstatus`: without
/// a terminal, each status is printed as lines), and withholds them: the status line
/// `[0:12] 45.00%  201 files 43.034 MiB, total 202 files 61.035 MiB, 0 errors ETA 0:14` and the
/// current files under it. What restic prints anyway, the last status of each step of a command
/// other than `backup` (`check`'s `[0:02] 100.00%  3 / 3 packs`), is given back before the line
/// that follows it. Percent and ETA appear once restic's scan has finished (its total is
/// final) and a second or more is left: until then the job is indeterminate, "restic: scanning"
/// until files are read, then "restic: backing up".
/// Read from restic 0.14.0 (Debian 12) and 0.18 (Debian 13); fixtures in Tests/HeadwayToolProgressTests/Fixtures/restic.
public struct ResticFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let statusPattern = /\[(?:\d+:)?\d+:\d\d\] (.*)/
    nonisolated(unsafe) static let percentPattern = /(\d+(?:\.\d+)?)%\s+/
    nonisolated(unsafe) static let etaPattern = /\sETA (\S+)\s*$/
    nonisolated(unsafe) static let countPattern = /(\d+) \/ (\d+) (.+)/
    nonisolated(unsafe) static let filesPattern = /^(\d+) (?:files|files\/dirs) ([\d.]+ \S+), total (\d+) (?:files|files\/dirs) ([\d.]+ \S+)/
    nonisolated(unsafe) static let scanningPattern = /^\d+ files,\s/

    enum Mode { case json, asked, given, none }
    var mode: Mode = .none
    var subcommand = ""
    /// `check --read-data` (or `--read-data-subset`): its data step follows the snapshots.
    var readsData = false
    var determinate = false
    /// The status line withheld last, while only current-file lines followed it.
    var lastStatus: String?
    var afterStatus = false

    static let valued: Set<String> = [
        "-r", "--repo", "--repository-file", "-p", "--password-file", "--password-command", "--cache-dir", "-o", "--option",
        "--limit-upload", "--limit-download", "--key-hint", "--cacert", "--tls-client-cert", "--pack-size", "--compression",
    ]

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard context.toolIndex != nil else { return ToolInvocation(arguments: context.arguments, note: "restic is not on the command line: its progress is not asked for") }
        let arguments = context.toolArguments
        if ToolArguments.contains(arguments, ["--json"]) { return ToolInvocation(arguments: context.arguments) }
        if context.environment("RESTIC_PROGRESS_FPS") != nil || ToolArguments.contains(arguments, ["--quiet"], letters: "q") {
            return ToolInvocation(arguments: context.arguments)
        }
        return ToolInvocation(arguments: context.arguments, environment: [("RESTIC_PROGRESS_FPS", "4")], withholds: [.output])
    }

    /// Set up for a command line: how restic will be reading.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        subcommand = ToolArguments.subcommand(arguments, valued: Self.valued) ?? ""
        readsData = ToolArguments.contains(arguments, ["--read-data", "--read-data-subset"])
        if ToolArguments.contains(arguments, ["--json"]) {
            mode = .json
        } else if context.toolIndex == nil || ToolArguments.contains(arguments, ["--quiet"], letters: "q") {
            mode = .none
        } else {
            mode = context.environment("RESTIC_PROGRESS_FPS") == nil ? .asked : .given
        }
    }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .output else { return .nothing }
        switch mode {
        case .json: return readJSON(line.text)
        case .asked, .given: return readText(line.text, withholding: mode == .asked)
        case .none: return .nothing
        }
    }

    /// Every line while its status is withheld (a file listed under a status, the line that
    /// gives a withheld status back); else the status lines, or the JSON records.
    public func interest(on stream: ToolStream) -> LineInterest {
        guard stream == .output else { return .none }
        switch mode {
        case .json: return Self.records
        case .asked: return .every
        case .given: return Self.statusLines
        case .none: return .none
        }
    }

    static let records = LineInterest.lines(containing: ["{"])
    static let statusLines = LineInterest.lines(containing: ["] "])

    mutating func takeLastStatus() -> String? {
        defer { lastStatus = nil }
        return lastStatus
    }

    public mutating func end(_ stream: ToolStream) -> ToolReading {
        stream == .output ? ToolReading(restored: takeLastStatus()) : .nothing
    }

    var step: String {
        switch subcommand {
        case "backup": return "backing up"
        case "restore": return "restoring"
        case "check": return "checking"
        case "prune", "forget": return "pruning"
        default: return subcommand.isEmpty ? "working" : DisplayText.truncated(DisplayText.sanitised(subcommand), maxBytes: 20)
        }
    }

    mutating func readText(_ text: String, withholding: Bool) -> ToolReading {
        guard let match = text.wholeMatch(of: Self.statusPattern) else {
            // The current files restic lists under a status line (absolute paths).
            if withholding, afterStatus, text.hasPrefix("/") { return ToolReading(withheld: true) }
            afterStatus = false
            // A step's last status was printed without Headway too (by all but backup, when done).
            return ToolReading(restored: takeLastStatus())
        }
        afterStatus = true
        lastStatus = withholding && subcommand != "backup" ? text : nil
        return ToolReading(report: status(match.1), withheld: withholding)
    }

    /// The status after the elapsed time.
    mutating func status(_ body: Substring) -> ToolReport? {
        var rest = body
        var percent: Double?
        if let match = rest.prefixMatch(of: Self.percentPattern) {
            percent = Double(match.1)
            rest = rest[match.range.upperBound...]
        }
        var eta: Double?
        if let match = rest.firstMatch(of: Self.etaPattern) {
            eta = ToolNumbers.clock(match.1)
            rest = rest[..<match.range.lowerBound]
        }
        // check, prune: "1 / 2 snapshots", "12 / 40 packs". Each step counts its own things, from
        // 0 again: only the step that is the job's work is its progress (check's data when it reads
        // data, else its snapshots); the others name the step. prune's several steps are
        // all its work: it stays indeterminate, its label naming each step.
        if let match = rest.wholeMatch(of: Self.countPattern), let done = Double(match.1), let total = Double(match.2), total > 0 {
            let unit = DisplayText.truncated(DisplayText.sanitised(String(match.3)), maxBytes: 24)
            guard subcommand == "check", match.3.hasPrefix(readsData ? "packs" : "snapshots") else { return ToolReport(label: "restic: \(step) \(unit)") }
            determinate = true
            return ToolReport(value: done, total: total, eta: eta, label: "restic: \(step) \(unit)")
        }
        // backup, restore: "201 files 43.034 MiB, total 202 files 61.035 MiB, 0 errors".
        if let match = rest.firstMatch(of: Self.filesPattern) {
            guard let done = ToolNumbers.bytes(match.2), let total = ToolNumbers.bytes(match.4, rounding: .down), total > 0 else {
                return ToolReport(label: "restic: \(step)")
            }
            if percent != nil || subcommand != "backup" { determinate = true }
            // Files read while the scan may still be counting: backing up, its total not final.
            guard determinate else { return ToolReport(label: "restic: \(done > 0 ? step : "scanning")") }
            // The bytes done at the low end of their rounding never run ahead of restic's. The
            // percentage is not used as a second bound: restic prints it only on some lines, and
            // a bound taken on some lines only would make the value step back on the others.
            return ToolReport(value: min(done, total), total: total, eta: eta, label: "restic: \(step)", unit: .binaryBytes)
        }
        // Before the scan has counted anything: "1 files, 0 B, 0 errors".
        if rest.firstMatch(of: Self.scanningPattern) != nil { return ToolReport(label: "restic: \(subcommand == "backup" ? "scanning" : step)") }
        return nil
    }

    mutating func readJSON(_ text: String) -> ToolReading {
        guard text.hasPrefix("{") else { return .nothing }
        guard let json = try? JSONValue.parse(text) else { return ToolReading(problem: "a line of restic's --json output that is not JSON") }
        switch json["message_type"]?.string {
        case "status"?:
            let total = json["total_bytes"]?.number
            let done = json["bytes_done"]?.number ?? json["bytes_restored"]?.number
            let eta = json["seconds_remaining"]?.number
            if eta != nil || (subcommand != "backup" && total != nil) { determinate = true }
            guard determinate, let total, total > 0, let done else {
                let reading = (done ?? 0) > 0 || subcommand != "backup"
                return ToolReading(report: ToolReport(label: "restic: \(reading ? step : "scanning")"))
            }
            var value = done
            if let fraction = json["percent_done"]?.number { value = min(value, fraction * total) }
            return ToolReading(report: ToolReport(value: value, total: total, eta: eta, label: "restic: \(step)", unit: .binaryBytes))
        case "summary"?, "verbose_status"?, "error"?, "exit_error"?:
            return .nothing
        default:
            return ToolReading(problem: "a restic --json line without a known message_type")
        }
    }
}
