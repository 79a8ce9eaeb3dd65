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

/// Feeds `data` to the format its first byte picks, as a command's output: the rest is cut into
/// pieces at points the input's second byte picks, each sent to stdout, stderr or the progress
/// descriptor in turn, with a release of waiting lines now and then and the streams ended last.
/// Whatever comes in: no trap, every update within its total, and a stream the format never
/// withholds passes byte for byte.
/// Also exported under libFuzzer's name, which its own (unused) main refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToolProgress(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start.map(UnsafeRawPointer.init), count: count))
    guard bytes.count >= 2 else { return 0 }
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
