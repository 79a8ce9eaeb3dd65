/// curl's progress meter, which it prints on stderr whenever its output is not a terminal (and
/// under `headway run` it never is): nothing is added or withheld, the meter passes as it was.
/// Its twelve columns are `% Total % Received % Xferd Dload Upload Total Spent Left Speed`; the
/// sizes are cut down, never rounded up (curl's `max5data`: `2929k`, `12.3M`), so a value read from
/// them never runs ahead. With `-#` its bar's percentage is read. A total appears only when the
/// server gave a length.
/// Read from curl 7.88.1 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/curl.
public struct CurlFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let barPattern = /^#*\s+(\d+(?:\.\d)?)%$/

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {}

    public func invocation(_ context: ToolContext) -> ToolInvocation { ToolInvocation(arguments: context.arguments) }

    /// A redraw is whole once it has all twelve columns (the sizes in columns 2 and 4 then are).
    public mutating func peek(_ partial: ToolLine) -> ToolReport? { read(partial).report }

    /// The meter on stderr: its columns of times (`0:00:01`, `--:--:--`), or `-#`'s percentage.
    /// What curl writes on stdout (the download, without `-o`) is not read.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .errors ? Self.meters : .none }

    static let meters = LineInterest.lines(containing: [":", "%"])

    public var peeksAtPartialLines: Bool { true }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors else { return .nothing }
        let columns = line.text.split(separator: " ")
        if columns.count == 12, columns[0].allSatisfy(\.isNumber) {
            guard let received = ToolNumbers.bytes(columns[3], rounding: .down), let total = ToolNumbers.bytes(columns[1], rounding: .down) else {
                return .nothing
            }
            guard total > 0 else { return ToolReading(report: ToolReport(label: "curl: downloading")) }
            return ToolReading(report: ToolReport(value: received, total: total, eta: ToolNumbers.clock(columns[10]), label: "curl: downloading", unit: .binaryBytes))
        }
        // -# draws "###########                  15.4%"
        if let match = line.text.firstMatch(of: Self.barPattern), let percent = Double(match.1) {
            return ToolReading(report: ToolReport(value: max(0, percent - 0.05), total: 100, label: "curl: downloading"))
        }
        return .nothing
    }
}
