import HeadwayCore

/// apt-get and apt. Headway adds `-o APT::Status-Fd=N` as the first option: apt writes its status
/// to descriptor N (apt's `apt-pkg/acquire-item` and `install-progress`:
/// `dlstatus:ITEM:PERCENT:Retrieving file 2 of 3 (5s remaining)` while downloading,
/// `pmstatus:PACKAGE:PERCENT:Unpacking nginx (amd64)` while installing), read and never shown;
/// what apt prints is unchanged. One job goes through both phases on one scale of 100 that never
/// goes back: when apt downloads first, the download is the first half and the installation the
/// second (each phase's own percentage halved); when it has nothing to download, the installation
/// is the whole scale. apt's remaining time is the download's alone, so it is passed on only when
/// nothing is installed after it (`update`, `download`, `--download-only`). The download is a
/// stage of its own (`stageEnd` 50): its pace says nothing of the installation's.
/// Read from apt 2.6.1 (Debian 12) and 3.0 (Debian 13); fixtures in Tests/HeadwayToolProgressTests/Fixtures/apt.
public struct AptFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let remainingPattern = /\(([^()]*) remaining\)/
    nonisolated(unsafe) static let unitPattern = /^(\d+)(d|h|min|s)$/

    enum Scale { case unknown, twoPhases, installOnly }
    var scale = Scale.unknown
    let downloadOnly: Bool
    let asked: Bool
    var installing = false

    static let commands: Set<String> = [
        "install", "upgrade", "dist-upgrade", "full-upgrade", "remove", "purge", "autoremove", "autopurge", "reinstall", "update", "download", "build-dep", "source",
    ]

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        let command = ToolArguments.subcommand(arguments, valued: ["-o", "--option", "-c", "--config-file", "-t", "--target-release", "-a", "--host-architecture"])
        asked = context.toolIndex != nil && command.map(Self.commands.contains) == true
        downloadOnly = ["update", "download", "source"].contains(command ?? "") || ToolArguments.contains(arguments, ["--download-only"], letters: "d")
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked, let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(arguments: ToolArguments.inserting(["-o", "APT::Status-Fd=\(context.descriptor)"], in: context.arguments, at: toolIndex), usesDescriptor: true)
    }

    /// Every status line; nothing apt prints.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .progress ? .every : .none }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .progress else { return .nothing }
        let fields = line.text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4 else {
            return line.text.isEmpty ? .nothing : ToolReading(problem: "an apt status line that is not KIND:ITEM:PERCENT:TEXT")
        }
        switch fields[0] {
        case "dlstatus":
            if scale == .unknown { scale = downloadOnly ? .installOnly : .twoPhases }
            guard !installing, let percent = ToolNumbers.percent(fields[2]) else { return .nothing }
            let eta = downloadOnly ? Self.remaining(fields[3]) : nil
            let value = scale == .twoPhases ? percent / 2 : percent
            return ToolReading(report: ToolReport(value: value, total: 100, eta: eta, label: "apt: downloading", stageEnd: scale == .twoPhases ? 50 : nil))
        case "pmstatus":
            if scale == .unknown { scale = .installOnly }
            installing = true
            guard let percent = ToolNumbers.percent(fields[2]) else { return .nothing }
            let value = scale == .twoPhases ? 50 + percent / 2 : percent
            return ToolReading(report: ToolReport(value: value, total: 100, label: "apt: " + Self.step(fields[3])))
        case "pmerror", "pmconffile", "media-change", "dlerror", "dlwarning", "pmwarning":
            return .nothing
        default:
            return ToolReading(problem: "an apt status line of an unknown kind")
        }
    }

    /// "Unpacking nginx (amd64)" → "unpacking nginx".
    static func step(_ text: Substring) -> String {
        var words = text.split(separator: " ")
        if let last = words.last, last.hasPrefix("("), last.hasSuffix(")") { words.removeLast() }
        let phrase = words.prefix(4).joined(separator: " ")
        return DisplayText.shortened(DisplayText.sanitised(phrase.prefix(1).lowercased() + phrase.dropFirst()), maxBytes: 48)
    }

    /// apt's remaining time in a download's status, "(1min 5s remaining)" → 65.
    static func remaining(_ text: Substring) -> Double? {
        guard let match = text.firstMatch(of: remainingPattern) else { return nil }
        var seconds = 0.0
        for part in match.1.split(separator: " ") {
            guard let unit = part.firstMatch(of: unitPattern), let amount = Double(unit.1) else { return nil }
            switch unit.2 {
            case "d": seconds += amount * 86_400
            case "h": seconds += amount * 3600
            case "min": seconds += amount * 60
            default: seconds += amount
            }
        }
        return seconds
    }
}
