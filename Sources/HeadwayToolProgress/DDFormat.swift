import HeadwayCore
/// dd (coreutils). Headway adds `status=progress` unless a `status=` is given: dd then prints on
/// stderr, once a second, `1114112 bytes (1.1 MB, 1.1 MiB) copied, 1 s, 1.0 MB/s`, each after a
/// carriage return, ending the last with a line feed before its summary; Headway withholds those
/// (the summary, which has the same form after a line feed, passes). The bytes are exact. The
/// total is `headway run --size BYTES`, else `count=` times `bs=` (or `ibs=`), else the size of an
/// `if=` regular file less what `skip=` passes over; without one, the job is indeterminate and
/// its label counts the bytes.
/// Read from dd (coreutils) 9.1 (Debian 12); fixtures in Tests/HeadwayToolProgressTests/Fixtures/dd.
public struct DDFormat: ToolFormat {
    // The patterns, compiled once (ToolFormat.swift says why they may be shared).
    nonisolated(unsafe) static let bytesPattern = /(\d+) bytes/

    let asked: Bool
    let total: Double?

    /// The format for the command in `context`.
    public init(_ context: ToolContext) {
        let operands = context.toolArguments
        asked = context.toolIndex != nil && !operands.contains { $0.hasPrefix("status=") }
        func operand(_ name: String) -> String? { operands.last { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) } }
        let blockSize = (operand("ibs") ?? operand("bs")).flatMap(Self.number) ?? 512
        if let size = context.size {
            total = size
        } else if let count = operand("count").flatMap(Self.number) {
            let bytes = count * blockSize
            total = operand("if").flatMap(context.fileSize).map { min($0, bytes) } ?? bytes
        } else if let file = operand("if"), let size = context.fileSize(file) {
            let skipped = (operand("skip").flatMap(Self.number) ?? 0) * blockSize
            total = size > skipped ? size - skipped : nil
        } else {
            total = nil
        }
    }

    /// dd's numbers: `4096`, `64K`, `1M`, `2x512`, `1kB`, `1MiB` (its units, GNU coreutils' `dd(1)`).
    static func number(_ text: String) -> Double? {
        if text.contains("x") {
            return text.split(separator: "x").reduce(Double?(1)) { product, part in product.flatMap { p in number(String(part)).map { p * $0 } } }
        }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 18, let amount = Double(digits) else { return nil }
        let unit = text.dropFirst(digits.count)
        let units: [Substring: Double] = [
            "": 1, "c": 1, "w": 2, "b": 512, "kB": 1e3, "K": 1024, "KiB": 1024, "MB": 1e6, "M": 1_048_576, "MiB": 1_048_576,
            "GB": 1e9, "G": 1_073_741_824, "GiB": 1_073_741_824, "TB": 1e12, "T": 1_099_511_627_776, "TiB": 1_099_511_627_776,
        ]
        guard let multiplier = units[unit] else { return nil }
        return amount * multiplier
    }

    public func invocation(_ context: ToolContext) -> ToolInvocation {
        guard asked else { return ToolInvocation(arguments: context.arguments) }
        return ToolInvocation(arguments: context.arguments + ["status=progress"], withholds: [.errors])
    }

    public func mayBeMeter(_ partial: String, on stream: ToolStream) -> Bool {
        asked && stream == .errors && partial.prefixMatch(of: Self.bytesPattern) != nil
    }

    /// A meter line is whole once its rate is written (`…, 1.0 MB/s`).
    public mutating func peek(_ partial: ToolLine) -> ToolReport? {
        guard partial.previous == .carriageReturn, partial.text.hasSuffix("/s") else { return nil }
        return read(partial).report
    }

    /// Every line of its stderr (a meter, its blank redraw, its summary); what it copies to
    /// stdout is not read.
    public func interest(on stream: ToolStream) -> LineInterest { stream == .errors ? .every : .none }

    public var peeksAtPartialLines: Bool { true }

    public mutating func read(_ line: ToolLine) -> ToolReading {
        guard line.stream == .errors else { return .nothing }
        let meter = line.end == .carriageReturn || line.previous == .carriageReturn
        if line.text.isEmpty, line.end == .carriageReturn { return ToolReading(withheld: asked) }
        guard meter, let match = line.text.prefixMatch(of: Self.bytesPattern), let bytes = Double(match.1) else { return .nothing }
        guard let total else { return ToolReading(report: ToolReport(label: "dd: \(NumberText.bytes(bytes)) copied"), withheld: asked) }
        return ToolReading(report: ToolReport(value: bytes, total: total, label: "dd: copying", unit: .bytes), withheld: asked)
    }
}
