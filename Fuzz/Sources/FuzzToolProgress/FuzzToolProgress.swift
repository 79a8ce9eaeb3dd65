import HeadwayToolProgress

/// The command lines the formats are made for: the input's first byte picks one.
let commands: [[String]] = [
    ["restic", "backup", "data"], ["restic", "check", "--read-data"], ["restic", "backup", "--json", "data"], ["restic", "restore", "--json", "latest"],
    ["borg", "create", "::a", "data"], ["borg", "extract", "::a"], ["borg", "create", "--log-json", "::a", "data"], ["borgmatic", "create"],
    ["rsync", "-a", "src/", "dst/"], ["rsync", "-aP", "src/", "dst/"], ["rclone", "copy", "a", "b"], ["rclone", "copy", "--use-json-log", "a", "b"],
    ["ffmpeg", "-i", "in.mp4", "out.mp4"], ["ffmpeg", "-progress", "x", "-i", "in", "out"], ["apt-get", "install", "-y", "x"], ["apt", "update"],
    ["curl", "-o", "f", "u"], ["wget", "u"], ["dd", "if=a", "of=b", "bs=1M", "count=4"], ["pv", "-s", "100", "f"], ["pv", "-n", "f"],
    ["make", "-j4"], ["cargo", "build"],
]

/// The generic reader's forms as regular expressions, as Swift's `Regex` matches them: the reader
/// that finds them in a line's bytes must agree (ProgressForms says where it need not).
nonisolated(unsafe) let percent = /(\d+(?:\.\d+)?)\s?%/
nonisolated(unsafe) let bracketed = /[\[(](\d+)\s*\/\s*(\d+)[\])]/
nonisolated(unsafe) let fraction = /(?:^|\s)(\d+)\/(\d+)(?=\s|$|[:,.;])/
nonisolated(unsafe) let of = /\b(\d+) of (\d+)\b/

func oracle(_ line: String) -> (Double, Double)? {
    func pair(_ value: Substring, _ total: Substring) -> (Double, Double)? {
        guard let value = Double(value), let total = Double(total), value.isFinite, total.isFinite, total > 0 else { return nil }
        return (value, total)
    }
    if let match = line.matches(of: percent).last, let value = Double(match.1) { return (min(value, 100), 100) }
    if let match = line.matches(of: bracketed).last, let found = pair(match.1, match.2) { return found }
    if let match = line.matches(of: fraction).last, let found = pair(match.1, match.2) { return found }
    if let match = line.matches(of: of).last, let found = pair(match.1, match.2) { return found }
    return nil
}

/// Checks the first lines of `bytes` that the regular expressions read as the byte reader does:
/// valid UTF-8 without other scripts' digits or combining marks, at most 200 bytes.
func checkForms(_ bytes: ArraySlice<UInt8>) {
    for piece in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).prefix(4) where piece.count <= 200 {
        guard let line = String(validating: piece, as: UTF8.self),
            !line.unicodeScalars.contains(where: {
                ($0.properties.generalCategory == .decimalNumber && !$0.isASCII) || [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
            })
        else { continue }
        let expected = oracle(line)
        let found = LineProgressParser.standard.progress(in: line[...])
        guard expected?.0 == found?.0, expected?.1 == found?.1 else {
            fatalError("the byte reader read \(String(describing: found)) where the expressions read \(String(describing: expected)) in \(line.debugDescription)")
        }
    }
}

/// Feeds `data` to the format its first byte picks, as a command's output: the rest is cut into
/// pieces at points the input's second byte picks, each sent to stdout, stderr or the progress
/// descriptor in turn, with a release of waiting lines now and then and the streams ended last.
/// Whatever comes in: no trap, every update within its total, a stream the format never
/// withholds passes byte for byte, and the generic reader's forms are read from the bytes as the
/// regular expressions read them.
/// Also exported under libFuzzer's name, which its own (unused) main refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToolProgress(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start.map(UnsafeRawPointer.init), count: count))
    guard bytes.count >= 2 else { return 0 }
    checkForms(bytes[2...])
    let context = ToolContext(
        arguments: commands[Int(bytes[0]) % commands.count], size: bytes[0] & 0x80 != 0 ? 1_000_000 : nil, fileSize: { _ in 5_000_000 })
    guard var progress = try? ToolProgress(context: context, format: nil, pattern: .standard) else { return 0 }
    let streams: [ToolStream] = [.output, .errors, .progress]
    var fed: [ToolStream: [UInt8]] = [:]
    var passed: [ToolStream: [UInt8]] = [:]
    let piece = Int(bytes[1]) % 97 + 1
    var index = 2
    var turn = 0
    func check(_ result: ToolProgress.Result, _ stream: ToolStream) {
        passed[stream, default: []] += result.passed
        for update in result.updates {
            if let value = update.value {
                guard let total = update.total, value.isFinite, total.isFinite, value >= 0, value <= total else { fatalError("an update beyond its total: \(update)") }
            }
        }
    }
    while index < bytes.count {
        let end = min(bytes.count, index + piece)
        let stream = streams[turn % 3]
        fed[stream, default: []] += bytes[index..<end]
        check(progress.feed(stream, bytes[index..<end]), stream)
        if bytes[index] == 0x07 { passed[stream, default: []] += progress.release(stream) }
        index = end
        turn += 1
    }
    for stream in streams { check(progress.end(stream), stream) }
    for stream in [ToolStream.output, .errors] where !progress.invocation.withholds.contains(stream) {
        guard passed[stream, default: []] == fed[stream, default: []] else { fatalError("output changed on a stream nothing is withheld from") }
    }
    _ = progress.takeProblem()
    return 0
}
