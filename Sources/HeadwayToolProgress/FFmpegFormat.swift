/// ffmpeg. Headway adds `-progress pipe:N` as the first (global) option, unless the user gave
/// `-progress`: ffmpeg writes `key=value` blocks to descriptor N (`out_time_us=…`,
/// `progress=continue|end`), read and never shown; its stderr, the stats line included, is
/// unchanged. The total is `headway run --total SECONDS`, else `-t` (or `-to`) on the command line,
/// else the first input's `Duration:` on stderr, which passes through untouched; until one is known
/// the job is indeterminate. Without the descriptor, the `time=` of ffmpeg's stats line is read.
/// ffmpeg gives no ETA of its own. (ffmpeg's `out_time_ms` is in microseconds too, a known quirk:
/// `out_time_us` is read.)
/// Read from ffmpeg 5.1 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/ffmpeg.
public struct FFmpegFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let durationPattern = /^\s+Duration: (\d+:\d\d:\d\d(?:\.\d+)?),/
    nonisolated(unsafe) static let timePattern = /time=(\d+:\d\d:\d\d(?:\.\d+)?)/

    let usesDescriptor: Bool
    var total: Double?
    let totalGiven: Bool

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let arguments = context.toolArguments
        usesDescriptor = context.toolIndex != nil && !ToolArguments.contains(arguments, ["-progress"])
        total = context.total ?? ToolArguments.value(arguments, "-t").flatMap(Self.duration) ?? ToolArguments.value(arguments, "-to").flatMap(Self.duration)
        totalGiven = total != nil
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard usesDescriptor, let toolIndex = context.toolIndex else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(arguments: ToolArguments.inserting(["-progress", "pipe:\(context.descriptor)"], in: context.arguments, at: toolIndex), usesDescriptor: true)
    }

    /// ffmpeg's durations: `90`, `90.5`, `1:30`, `00:01:30.5` → seconds.
    static func duration(_ text: String) -> Double? {
        if text.contains(":") { return ToolNumbers.clock(text[...]) }
        guard text.count <= 20, let seconds = Double(text), seconds.isFinite, seconds > 0 else { return nil }
        return seconds
    }

    /// The progress descriptor's time; on stderr the input's duration until a total is known,
    /// and the status line's time when there is no descriptor. What ffmpeg writes on stdout (the
    /// output itself, with `-`) is not read.
    public func interest(on stream: ToolStream) -> LineInterest {
        switch stream {
        case .progress: return Self.outTime
        case .output: return .none
        case .errors:
            let needsDuration = !totalGiven && total == nil
            switch (needsDuration, usesDescriptor) {
            case (true, true): return Self.duration
            case (true, false): return Self.durationAndTime
            case (false, false): return Self.time
            case (false, true): return .none
            }
        }
    }

    static let outTime = LineInterest.lines(containing: ["out_time_us="])
    static let duration = LineInterest.lines(containing: ["Duration: "])
    static let time = LineInterest.lines(containing: ["time="])
    static let durationAndTime = LineInterest.lines(containing: ["Duration: ", "time="])

    public mutating func read(_ line: ToolLine) -> ToolReading {
        switch line.stream {
        case .progress:
            guard line.text.hasPrefix("out_time_us=") else { return .nothing }
            // N/A, or a large negative number before the first frame.
            guard let micros = Double(line.text.dropFirst("out_time_us=".count)), micros.isFinite, micros >= 0 else { return .nothing }
            return ToolReading(report: report(micros / 1_000_000))
        case .errors:
            if !totalGiven, total == nil, let match = line.text.firstMatch(of: Self.durationPattern) {
                total = ToolNumbers.clock(match.1).flatMap { $0 > 0 ? $0 : nil }
                return ToolReading(report: ToolReport(label: "ffmpeg: encoding"))
            }
            guard !usesDescriptor, let match = line.text.firstMatch(of: Self.timePattern), let seconds = ToolNumbers.clock(match.1) else { return .nothing }
            return ToolReading(report: report(seconds))
        case .output:
            return .nothing
        }
    }

    func report(_ seconds: Double) -> ToolReport {
        guard let total else { return ToolReport(label: "ffmpeg: encoding") }
        return ToolReport(value: seconds, total: total, label: "ffmpeg: encoding", unit: .seconds)
    }
}
