import HeadwayCore
import HeadwayProtocol
import HeadwaySystem
import HeadwayToolProgress

/// `headway run --record FILE`: what the command wrote on each stream Headway reads, with when,
/// as JSON lines — a run kept for the estimate corpus (Scripts/bench-estimates replays it through
/// the same reader and the service's estimator), or attached to a report of a tool misread.
///
/// The first line says how the run was read (the command line as given, `--format`, `--pattern`,
/// `--size`, `--total`, `--name`); each next one a piece of output (`t` seconds since the start, `s` the stream, `b`
/// its bytes in Base64); the last the exit status and the time the command ended. Kept in memory
/// and written when the command ends, at most ``maxBytes`` of output: past that the pieces are
/// left out and the last line says so.
final class RunRecording {
    static let maxBytes = 32 << 20

    private let path: String
    private var lines: [String] = []
    private var recorded = 0
    private var truncated = false

    init(path: String, arguments: [String], format: String?, pattern: String?, size: Double?, total: Double?, name: String?) {
        self.path = path
        var members: [(String, JSONValue)] = [("headway-run-record", .number(1)), ("arguments", .array(arguments.map(JSONValue.string)))]
        if let format { members.append(("format", .string(format))) }
        if let pattern { members.append(("pattern", .string(pattern))) }
        if let size { members.append(("size", .number(size))) }
        if let total { members.append(("total", .number(total))) }
        if let name { members.append(("name", .string(name))) }
        lines.append(JSONValue.object(members).text)
    }

    /// A piece of output read from `stream`, `seconds` after the command started.
    func output(_ stream: ToolStream, _ bytes: ArraySlice<UInt8>, at seconds: Double) {
        guard !truncated else { return }
        guard recorded + bytes.count <= Self.maxBytes else {
            truncated = true
            return
        }
        recorded += bytes.count
        lines.append(JSONValue.object([("t", .number(Self.millis(seconds))), ("s", .string(Self.name(stream))), ("b", .string(Base64.encode(Array(bytes))))]).text)
    }

    /// The command ended with `status` at `seconds`: the recording is written. A failure to write
    /// it is said on standard error and changes nothing else.
    func end(status: Int32, at seconds: Double, say: (String) -> Void) {
        var members: [(String, JSONValue)] = [("t", .number(Self.millis(seconds))), ("exit", .number(Double(status)))]
        if truncated { members.append(("truncated", .string("output past \(Self.maxBytes >> 20) MiB was not recorded"))) }
        lines.append(JSONValue.object(members).text)
        do throws(SystemError) {
            try Files.write(path, Array((lines.joined(separator: "\n") + "\n").utf8))
        } catch {
            say("headway: warning: cannot write the recording \(DisplayText.sanitised(path)): \(error)")
        }
    }

    static func name(_ stream: ToolStream) -> String {
        switch stream {
        case .output: "stdout"
        case .errors: "stderr"
        case .progress: "progress"
        }
    }

    private static func millis(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
