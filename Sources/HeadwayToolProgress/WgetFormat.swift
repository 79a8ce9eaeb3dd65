import HeadwayCore

/// wget's progress on stderr, read as it passes (nothing added or withheld). Without a terminal
/// wget draws dots, a line per 50 KiB by default: `   150K .......... ..........  6%  349M 2s`
/// (the percentage cut down, the ETA last; the last line has `=` and the time taken instead);
/// with `--progress=bar:force`, a bar with `45%[===>   ]` and `eta 2s`. The total is the
/// percentage's: wget prints one only when the server gave a length (`Length: 3000000`).
/// Read from wget 1.21.3 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/wget.
public struct WgetFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let lengthPattern = /^Length: (\d+)/
    nonisolated(unsafe) static let dotsPattern = /\s*\d+[KM] [ .]+\s+(\d+)%\s+\S+\s*(\S*)\s*/
    nonisolated(unsafe) static let barPattern = /\s(\d+)%\[[^\]]*\]/
    nonisolated(unsafe) static let etaPattern = /eta (.+?)\s*$/

    var length: Double?

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {}

    public func invocation(_ context: ToolContext) -> ToolInvocation { ToolInvocation(arguments: context.arguments) }

    /// Its length and its meter on stderr; what it writes on stdout (the download, with `-O -`)
    /// is not read.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .errors ? Self.meters : .none }

    static let meters = LineInterest.lines(containing: ["%", "Length: "])

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors else { return .nothing }
        let text = line.text
        if let match = text.firstMatch(of: Self.lengthPattern) {
            length = Double(match.1)
            return ToolReading(report: ToolReport(label: "wget: downloading"))
        }
        // Dots: offset, dots, percent, speed, ETA (or "=time taken").
        if let match = text.wholeMatch(of: Self.dotsPattern), let percent = Double(match.1) {
            let eta = match.2.contains("=") ? nil : Self.eta(match.2)
            return ToolReading(report: report(percent, eta: eta))
        }
        // Bar: "name  45%[=====>      ]   1.2M  1.0MB/s    eta 2s"
        if let match = text.firstMatch(of: Self.barPattern), let percent = Double(match.1) {
            let eta = text.firstMatch(of: Self.etaPattern).flatMap { Self.eta($0.1) }
            return ToolReading(report: report(percent, eta: eta))
        }
        return .nothing
    }

    func report(_ percent: Double, eta: Double?) -> ToolReport {
        let total = length ?? 100
        return ToolReport(value: percent / 100 * total, total: total, eta: eta, label: "wget: downloading", unit: length == nil ? nil : .binaryBytes)
    }

    /// wget's short ETA: `2s`, `1m 5s`, `2h 3m`, `1d 2h`.
    static func eta(_ text: Substring) -> Double? {
        let compact = text.filter { $0 != " " }
        guard !compact.isEmpty else { return nil }
        return DurationText.parse(compact)
    }
}
