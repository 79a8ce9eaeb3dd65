import Foundation
import HeadwayToolProgress

/// A fixture (or any bytes) fed to ``ToolProgress`` as `headway run` feeds it.
struct Run {
    var progress: ToolProgress
    var passed: [ToolStream: [UInt8]] = [:]
    var updates: [ToolProgress.Update] = []

    init(
        _ arguments: [String], format: String? = nil, pattern: String? = nil, size: Double? = nil, total: Double? = nil, environment: [String: String] = [:],
        files: [String: Double] = [:]
    ) throws {
        let context = ToolContext(
            arguments: arguments, size: size, total: total, environment: { environment[$0] }, fileSize: { files[$0] }, descriptor: 3)
        progress = try ToolProgress(context: context, format: format, pattern: LineProgressParser(pattern: pattern))
    }

    static func fixture(_ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(path)
        return Array(try Data(contentsOf: url))
    }

    /// Feeds `bytes` in pieces of `piece` bytes (reads split lines anywhere), then ends the stream.
    mutating func feed(_ stream: ToolStream, _ bytes: [UInt8], piece: Int = 700) {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            take(stream, progress.feed(stream, bytes[start..<end]))
            start = end
        }
        take(stream, progress.end(stream))
    }

    mutating func feed(_ stream: ToolStream, fixture: String) throws { feed(stream, try Self.fixture(fixture)) }

    private mutating func take(_ stream: ToolStream, _ result: ToolProgress.Result) {
        passed[stream, default: []] += result.passed
        updates += result.updates
    }

    func text(_ stream: ToolStream) -> String { String(decoding: passed[stream] ?? [], as: UTF8.self) }

    var determinate: [ToolProgress.Update] { updates.filter { $0.total != nil } }
    var labels: [String] { updates.compactMap(\.label) }
}

/// `bytes` without the carriage-return-ended segments (a meter's redraws).
func withoutRedraws(_ bytes: [UInt8]) -> String {
    var kept: [UInt8] = []
    var segment: [UInt8] = []
    for byte in bytes {
        segment.append(byte)
        if byte == 0x0D { segment = [] } else if byte == 0x0A {
            kept += segment
            segment = []
        }
    }
    return String(decoding: kept + segment, as: UTF8.self)
}
