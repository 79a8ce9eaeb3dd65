import HeadwayCore
import HeadwayProtocol

/// borg (`create`, `extract`, and any command with `--progress`) and borgmatic. Headway adds
/// `--progress` after the subcommand (borgmatic: after the `create` or `extract` action, which hands
/// it to borg) unless it is there: borg then writes its meter to stderr, each redraw ending in a
/// carriage return (borg's `helpers/progress.py`: without a terminal it still ends each line with
/// `\r`), and Headway withholds those lines; borg's log lines end in a line feed and pass. With
/// `--log-json` (the user's), the `archive_progress`, `progress_percent` and `progress_message`
/// records are read instead, and withheld when Headway asked for them.
/// `borg create` knows no total: indeterminate, its label counting files and bytes. `extract`
/// shows a percentage of the archive's size.
/// Read from borg 1.2.4 (Debian 12) and 1.4 (Debian 13); fixtures in Tests/HeadwayToolProgressTests/Fixtures/borg.
public struct BorgFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let createPattern = /\s*([\d.]+ \S+) O ([\d.]+ \S+) C ([\d.]+ \S+) D (\d+) N/
    nonisolated(unsafe) static let percentPattern = /(\d+(?:\.\d+)?)%/

    let asked: Bool
    let json: Bool
    let tool: String
    /// borgmatic's actions that take `--progress` and hand it to borg.
    static let borgmaticActions: Set<String> = ["create", "extract", "transfer"]
    /// borg's commands that show progress with `--progress`.
    static let borgCommands: Set<String> = ["create", "extract", "check", "prune", "compact", "delete", "recreate", "transfer", "import-tar", "export-tar"]
    static let borgValued: Set<String> = ["--remote-path", "--rsh", "--lock-wait", "--umask", "--upload-ratelimit", "--upload-buffer", "--debug-topic"]
    static let borgmaticValued: Set<String> = ["-c", "--config", "-v", "--verbosity", "--syslog-verbosity", "--log-file", "--log-file-verbosity", "--monitoring-verbosity", "--override"]

    /// The format for the command in `context`: borg itself, or borgmatic running it.
    public init(_ context: ToolContext, borgmatic: Bool) {
        tool = borgmatic ? "borgmatic" : "borg"
        let arguments = context.toolArguments
        json = !borgmatic && ToolArguments.contains(arguments, ["--log-json"])
        asked = Self.progressArguments(context, borgmatic: borgmatic) != nil
    }

    /// What Headway adds, and where, or nil when it adds nothing.
    static func progressArguments(_ context: ToolContext, borgmatic: Bool) -> [String]? {
        guard context.toolIndex != nil else { return nil }
        let arguments = context.toolArguments
        guard !ToolArguments.contains(arguments, ["--progress"]) else { return nil }
        if borgmatic {
            guard let action = ToolArguments.subcommand(arguments, valued: borgmaticValued), borgmaticActions.contains(action) else { return nil }
            return ["--progress"]
        }
        guard let command = ToolArguments.subcommand(arguments, valued: borgValued), borgCommands.contains(command) else { return nil }
        return ["--progress"]
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        let borgmatic = tool == "borgmatic"
        guard let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments, note: "\(tool) is not on the command line: its progress is not asked for") }
        guard let added = Self.progressArguments(context, borgmatic: borgmatic) else { return ToolInvocation(arguments: context.arguments) }
        let subcommand = ToolArguments.subcommand(context.toolArguments, valued: borgmatic ? Self.borgmaticValued : Self.borgValued)
        return ToolInvocation(
            arguments: ToolArguments.insertingAfterSubcommand(added, in: context.arguments, at: toolIndex, subcommand: subcommand), withholds: [.errors])
    }

    /// The meter's redraws (ended by a carriage return) and, with `--log-json`, the records.
    public func interest(on stream: ToolStream) -> LineInterest {
        guard stream == .errors else { return .none }
        return json ? Self.recordsAndRedraws : Self.redraws
    }

    static let redraws = LineInterest.lines(containing: [], carriageReturns: true)
    static let recordsAndRedraws = LineInterest.lines(containing: ["{"], carriageReturns: true)

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors else { return .nothing }
        if json, line.text.hasPrefix("{") { return readJSON(line.text) }
        // The meter's lines end in a carriage return; a blank one clears the line.
        guard line.end == .carriageReturn else { return .nothing }
        let text = line.text[...]
        if text.allSatisfy({ $0 == " " }) { return ToolReading(withheld: asked) }
        return ToolReading(report: Self.meter(text), withheld: asked)
    }

    /// One redraw of borg's meter.
    static func meter(_ text: Substring) -> ToolReport? {
        // create: "7.63 MB O 7.64 MB C 7.64 MB D 40 N data2/f40"
        if let match = text.prefixMatch(of: createPattern) {
            let bytes = ToolNumbers.bytes(match.1).map { NumberText.bytes($0) } ?? String(match.1)
            return ToolReport(label: "borg: \(match.4) files, \(bytes)")
        }
        // extract, check …: " 45.3% Extracting: path", "Checking segments 45.3%"
        if let match = text.firstMatch(of: percentPattern), let percent = Double(match.1) {
            let words = (text[..<match.range.lowerBound] + " " + text[match.range.upperBound...]).split(separator: ":").first ?? ""
            return ToolReport(value: max(0, percent - 0.05), total: 100, label: "borg: " + step(words))
        }
        // "Initializing cache transaction: Reading chunks", "Saving files cache"
        return ToolReport(label: "borg: " + step(text.split(separator: ":").first ?? text))
    }

    /// A message as a short step: its first words in lower case.
    static func step(_ text: Substring) -> String {
        let words = text.split(separator: " ").prefix(3).joined(separator: " ")
        return DisplayText.shortened(DisplayText.sanitised(words.prefix(1).lowercased() + words.dropFirst()), maxBytes: 40)
    }

    func readJSON(_ text: String) -> ToolReading {
        guard let record = try? JSONValue.parse(text) else { return ToolReading(problem: "a line of borg's --log-json output that is not JSON") }
        let withheld = asked
        switch record["type"]?.string {
        case "archive_progress"?:
            guard record["finished"]?.bool != true else { return ToolReading(withheld: withheld) }
            let files = record["nfiles"]?.number.map { NumberText.compact($0) } ?? "?"
            let bytes = record["original_size"]?.number.map { NumberText.bytes($0) } ?? "?"
            return ToolReading(report: ToolReport(label: "borg: \(files) files, \(bytes)"), withheld: withheld)
        case "progress_percent"?:
            guard record["finished"]?.bool != true, let message = record["message"]?.string else { return ToolReading(withheld: withheld) }
            var report = Self.meter(message[...])
            // The percent in the message is of what was done before the item it names; `current`
            // already counts that item.
            if let total = record["total"]?.number, total > 0, let percent = report?.value {
                report?.value = percent / 100 * total
                report?.total = total
            }
            return ToolReading(report: report, withheld: withheld)
        case "progress_message"?:
            guard let message = record["message"]?.string else { return ToolReading(withheld: withheld) }
            return ToolReading(report: ToolReport(label: "borg: " + Self.step(message.split(separator: ":").first ?? "")), withheld: withheld)
        case "log_message"?, "file_status"?, "question_prompt"?, "question_accepted_true"?, "question_accepted_false"?, "question_invalid_answer"?, "question_env_answer"?, "question_prompt_retries"?:
            return .nothing
        default:
            return ToolReading(problem: "a borg --log-json record of an unknown type")
        }
    }
}
