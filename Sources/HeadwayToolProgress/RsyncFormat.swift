import HeadwayCore

/// rsync. Headway adds `--info=progress2` unless the user asked for progress (`--info=progress…`,
/// `--progress`, `-P`) or quiet: rsync then prints one meter for the whole transfer on stdout,
/// redrawn with carriage returns, `  1,234,567  45%  1.23MB/s    0:00:03 (xfr#1, to-chk=0/3)`, and
/// Headway withholds it. Its percentage is of the bytes rsync knows of: while rsync still recurses
/// (`ir-chk`, incremental recursion) that total grows, so a recursive copy stays indeterminate,
/// its label counting bytes, until rsync says `to-chk` (the file list is complete). The time is the
/// ETA except on a line that ends a file (`xfr#`), where it is the time taken.
/// With `--progress`/`-P` (per file) the files checked of `to-chk` are the progress.
/// Read from rsync 3.2.7 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/rsync.
public struct RsyncFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let meterStartPattern = /\s*[\d,.']+\s+\d+%/
    nonisolated(unsafe) static let meterPattern = /\s*([\d,.']+)\s+(\d+)%\s+(\S+)\s+(\d+:\d\d:\d\d)\s*(?:\(xfr#\d+, (ir|to)-chk=(\d+)\/(\d+)\))?\s*/

    let asked: Bool
    let perFile: Bool
    var listComplete: Bool

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        perFile = ToolArguments.contains(arguments, ["--progress"], letters: "P") && !Self.progress2(arguments)
        asked = context.toolIndex != nil && !Self.progress2(arguments) && !ToolArguments.contains(arguments, ["--progress", "--quiet"], letters: "Pq")
        let recursive = ToolArguments.contains(arguments, ["--recursive", "--archive"], letters: "ra")
        listComplete = !recursive || ToolArguments.contains(arguments, ["--no-inc-recursive", "--no-i-r"])
    }

    static func progress2(_ arguments: ArraySlice<String>) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0.hasPrefix("--info=") && $0.contains("progress") }
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked, let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(arguments: ToolArguments.inserting(["--info=progress2"], in: context.arguments, at: toolIndex), withholds: [.output])
    }

    public func mayBeMeter(_ partial: String, on stream: ToolStream) -> Bool {
        asked && stream == .output && partial.prefixMatch(of: Self.meterStartPattern) != nil
    }

    /// A redraw is whole once it has its time (rsync writes each in one piece).
    public mutating func peek(_ partial: ToolLine) -> ToolReport? {
        guard partial.text.wholeMatch(of: Self.meterPattern) != nil else { return nil }
        return read(partial).report
    }

    /// The meter (its percentage) and the blank redraw that clears it.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .output ? Self.meters : .none }

    static let meters = LineInterest.lines(containing: ["%"], carriageReturns: true)

    public var peeksAtPartialLines: Bool { true }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .output else { return .nothing }
        let text = line.text[...]
        if text.isEmpty, line.end == .carriageReturn { return ToolReading(withheld: asked) }
        guard let match = text.wholeMatch(of: Self.meterPattern) else {
            return .nothing
        }
        if match.5 == "to" { listComplete = true }
        if perFile {
            guard match.5 == "to", let left = match.6.flatMap({ Double($0) }), let total = match.7.flatMap({ Double($0) }), total > 0 else { return .nothing }
            return ToolReading(report: ToolReport(value: total - left, total: total, label: "rsync: transferring"))
        }
        let bytes = ToolNumbers.grouped(match.1) ?? 0
        guard listComplete, let percent = Double(match.2) else {
            return ToolReading(report: ToolReport(label: "rsync: \(NumberText.bytes(bytes)), listing files"), withheld: asked)
        }
        let eta = match.5 == nil ? ToolNumbers.clock(match.4) : nil
        return ToolReading(report: ToolReport(value: percent, total: 100, eta: eta, label: "rsync: transferring"), withheld: asked)
    }
}
