import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif


/// A real tool run under `headway run`, from a folder of the test's own, with the job's status
/// sampled every 50 ms while it runs (and `headway status` read once when the tool's own ETA
/// first shows).
struct ToolJourney {
    let run: Run
    let samples: [JobStatus]
    let final: JobStatus?
    /// The job's line in `headway status` while the tool's own ETA showed.
    let statusLine: String?
    /// For a command that fails: its exit status run directly, without headway, which `headway
    /// run` must pass on (tools change theirs between versions: pv 1.6 exits 10 for a missing
    /// file, pv 1.9 2; ffmpeg 5.1 1 for a missing input, ffmpeg 7.1 254).
    let directStatus: Int32?
    /// Whether it ran under `headway run`, and the command line it ran (what names the job).
    let underHeadway: Bool
    let commandLine: String

    /// How the command's standard input is fed and its standard output read.
    struct Pacing {
        /// Written to standard input at most `inputRate` bytes a second, then closed.
        var input: Data?
        var inputRate = 1_000_000
        /// Standard output read at most this many bytes a second (a slow consumer).
        var outputRate: Int?

        static let none = Pacing()
    }

    /// Walks the journey on a thread of its own, for an async test. A journey blocks for seconds,
    /// and the tests run on Swift's cooperative pool, which has a thread a core: a test blocking
    /// one there beside the end-to-end suite's (blocking too) left none for the async tests beside
    /// them on a machine of two cores (their continuations waited until a journey ended).
    static func walk(
        _ service: SimulatedService, job: String, _ arguments: [String], environment: [String: String] = [:], directory: URL, pacing: Pacing = .none,
        failing: Bool = false, underHeadway: Bool = true
    ) async throws -> ToolJourney {
        let journey = Transfer(service)
        return try await blocking {
            try ToolJourney(
                journey.value, job: job, arguments, environment: environment, directory: directory, pacing: pacing, failing: failing, underHeadway: underHeadway)
        }
    }

    /// Runs `body`, which blocks, on a thread of its own, off the cooperative pool.
    static func blocking<T>(_ body: @escaping () throws -> T) async throws -> T {
        let work = Transfer(body)
        let outcome: Transfer<Result<T, any Error>> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Transfer(Result { try work.value() })) }.start()
        }
        return try outcome.value.get()
    }

    /// A value handed to another thread that alone uses it from then on.
    final class Transfer<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    init(
        _ service: SimulatedService, job: String, _ arguments: [String], environment: [String: String] = [:], directory: URL, pacing: Pacing = .none,
        failing: Bool = false, underHeadway: Bool = true
    ) throws {
        directStatus = failing ? try Self.run(arguments, environment: environment, directory: directory, pacing: pacing, program: nil).status : nil
        self.underHeadway = underHeadway
        commandLine = (arguments.firstIndex(of: "--").map { Array(arguments[($0 + 1)...]) } ?? arguments).joined(separator: " ")
        let samples = Samples()
        let done = Flag()
        let socket = service.socket
        let sampler = Thread {
            while !done.isSet {
                if let status = Self.status(socket).first(where: { $0.job == job }) {
                    samples.append(status)
                    // The first status line with an ETA, as a person reading status would have seen it.
                    if status.etaSeconds != nil, status.phase == "active", samples.line == nil {
                        samples.line = Self.statusLine(socket, job: job) ?? samples.line
                    }
                }
                usleep(50_000)
            }
        }
        sampler.start()
        // Under `headway run`, or (`underHeadway` false) as it is, reporting through hooks of its own.
        let command = underHeadway ? ["--job", job, "run", "--name", "real-tools-\(job)"] + (arguments.contains("--") ? arguments : ["--"] + arguments) : arguments
        let run = try Self.run(
            command, environment: environment.merging(["HEADWAY_SOCKET": service.socket]) { $1 }, directory: directory, pacing: pacing,
            program: underHeadway ? Binaries.url("headway") : nil)
        done.set()
        while !sampler.isFinished { usleep(10_000) }
        self.run = run
        self.samples = samples.items
        statusLine = samples.line
        var final: JobStatus?
        _ = BackgroundProcess.eventually(within: 2) {
            final = (try? service.status())?.first { $0.job == job }
            return final.map { ["succeeded", "failed", "cancelled", "hidden"].contains($0.phase) } ?? false
        }
        self.final = final
    }

    /// Runs `program` (nil: the command `arguments` names, found on PATH) with `arguments`,
    /// feeding and reading it as `pacing` says.
    static func run(_ arguments: [String], environment: [String: String], directory: URL, pacing: Pacing, program: URL?) throws -> Run {
        let process = Process()
        process.executableURL = program ?? URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProgramEnvironment.with(environment)
        process.currentDirectoryURL = directory
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let start = Date()
        try process.run()
        let stdout = Collected(), stderr = Collected()
        let threads = [
            Thread { feed(input.fileHandleForWriting, pacing.input ?? Data(), rate: pacing.inputRate) },
            Thread { stdout.drain(output.fileHandleForReading, rate: pacing.outputRate) },
            Thread { stderr.drain(errors.fileHandleForReading, rate: nil) },
        ]
        for thread in threads { thread.start() }
        for thread in threads { while !thread.isFinished { usleep(10_000) } }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        return Run(status: process.terminationStatus, output: stdout.data, stderr: String(decoding: stderr.data, as: UTF8.self), seconds: seconds)
    }

    /// How the command ended and what it printed.
    struct Run {
        var status: Int32
        /// Standard output, byte for byte (a tool may pass megabytes of binary data through).
        var output: Data
        var stderr: String
        var seconds: Double
        /// Standard output as text, decoded when asked (decoding megabytes of binary data takes seconds).
        var stdout: String { String(decoding: output, as: UTF8.self) }
    }

    /// Writes `data` in pieces of 16 KiB at `rate` bytes a second, then closes the pipe. A command
    /// that stops reading ends the writing: SIGPIPE is blocked on this thread, so a write to a pipe
    /// nobody reads fails with EPIPE instead of ending the test process.
    private static func feed(_ handle: FileHandle, _ data: Data, rate: Int) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let piece = 16384
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + piece)
            let written = data[offset..<end].withUnsafeBytes { write(handle.fileDescriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { break }
            offset += written
            usleep(useconds_t(Double(written) / Double(rate) * 1_000_000))
        }
        try? handle.close()
    }

    /// The service's jobs, asked on a connection of its own.
    static func status(_ socket: String) -> [JobStatus] {
        guard let connection = try? ServiceConnection(path: socket, budget: TestTime.scaled(2)),
            case .jobs(let jobs, _, _, _)? = try? connection.send(.status)
        else { return [] }
        return jobs
    }

    /// The job's line in `headway status`, as a person reads it.
    static func statusLine(_ socket: String, job: String) -> String? {
        let run = try? SimulatedService.run(Binaries.url("headway"), ["status"], environment: ["HEADWAY_SOCKET": socket])
        return run?.stdout.split(separator: "\n").first { $0.hasPrefix(job + " ") }.map(String.init)
    }

    /// Checks a command that fails: it fails run directly too, and under `headway run` it exits as
    /// it did there, its job failed, never determinate.
    func expectFailure(label prefix: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(directStatus.map { $0 != 0 } == true, "the command does not fail without headway", sourceLocation: sourceLocation)
        expectHonest(label: prefix, determinate: false, status: directStatus ?? 1, sourceLocation: sourceLocation)
    }

    /// The samples that were determinate.
    var determinate: [JobStatus] { samples.filter { $0.total != nil && $0.value != nil } }

    /// The determinate samples named by the tool's steps: without those that read the job's own
    /// label, which `headway run` gives back as the job ends.
    var stepSamples: [JobStatus] { determinate.filter { !isOwnLabel($0.label) } }

    /// Whether `label` is the job's own (the command line, cut with "…" where long).
    func isOwnLabel(_ label: String?) -> Bool {
        guard let label else { return false }
        return commandLine.hasPrefix(label.replacingOccurrences(of: "…", with: ""))
    }

    /// Whether the tool tells its own remaining time (`headway run` does not pass it on: the
    /// service's own is measured as good or better).
    enum ToolETA { case given, none }

    /// Checks what every journey must show: determinate while it ran, never beyond the total nor
    /// going back (`monotonic`: the tool's own fraction never falls), labels naming the tool's
    /// step, the outcome the exit status says, an ETA shown where the tool prints one (the
    /// service's own, in `headway status` too), and none ever claimed as the tool's.
    func expectHonest(
        label prefix: String, determinate expected: Bool = true, status: Int32 = 0, monotonic: Bool = true, eta: ToolETA? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == status, "exit status \(run.status); stderr: \(run.stderr)", sourceLocation: sourceLocation)
        if expected {
            #expect(!determinate.isEmpty, "never determinate: \(samples.map { "\($0.label ?? "") \($0.value ?? -1)/\($0.total ?? -1)" })", sourceLocation: sourceLocation)
        }
        for sample in determinate {
            #expect(sample.value! <= sample.total!, "\(sample)", sourceLocation: sourceLocation)
        }
        if monotonic {
            let values = determinate.map { $0.value! / $0.total! }
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "went back: \(values)", sourceLocation: sourceLocation)
        }
        // The label it ended with counts too: a command that fails at once is over before a sample.
        let labels = (samples + [final].compactMap { $0 }).compactMap(\.label)
        #expect(labels.contains { $0.hasPrefix(prefix) }, "labels: \(Set(labels))", sourceLocation: sourceLocation)
        let phase = final?.phase
        if status == 0 {
            #expect(phase == "succeeded" || phase == "hidden", "\(String(describing: final)) stderr: \(run.stderr)", sourceLocation: sourceLocation)
            // Regression: restic's backup ended "succeeded 97% (999999669/999999669)".
            if phase == "succeeded", final?.total != nil {
                #expect(final?.percent == 100 && final?.value == final?.total, "a succeeded job reads 100 %: \(String(describing: final))", sourceLocation: sourceLocation)
            }
            // Regression: a finished job read the tool's last step ("succeeded 100% · rsync:
            // transferring"); it reads the job's own label, here the command line.
            if phase == "succeeded", underHeadway, let label = final?.label {
                #expect(isOwnLabel(label), "a finished job reads its own label, not a step: \(label)", sourceLocation: sourceLocation)
            }
        } else {
            #expect(phase == "failed", "\(String(describing: final))", sourceLocation: sourceLocation)
            // A failed one shows where it stopped, not an ease still under way.
            if let final, let value = final.value, let total = final.total {
                #expect(final.percent == min(99, Int((value / total * 100).rounded(.down))), "\(final)", sourceLocation: sourceLocation)
            }
        }
        #expect(!run.stderr.contains("headway: warning"), "\(run.stderr)", sourceLocation: sourceLocation)
        // Whatever the tool says ("ETA 0s" with work left), a running job never reads 0 s left.
        #expect(!samples.contains { $0.phase == "active" && $0.etaSeconds == 0 && $0.percent.map { $0 < 100 } ?? true }, "0 s left while it ran", sourceLocation: sourceLocation)
        switch eta {
        case .given?:
            #expect(samples.contains { $0.etaSeconds != nil }, "no ETA while it ran", sourceLocation: sourceLocation)
            #expect(statusLine != nil, "headway status never showed an ETA", sourceLocation: sourceLocation)
        case .none?, nil:
            break
        }
        #expect(!samples.contains { $0.etaReported }, "an ETA claimed as the tool's", sourceLocation: sourceLocation)
    }

    private final class Samples: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [JobStatus] = []
        private var statusLine: String?
        func append(_ item: JobStatus) { lock.withLock { list.append(item) } }
        var items: [JobStatus] { lock.withLock { list } }
        var line: String? {
            get { lock.withLock { statusLine } }
            set { lock.withLock { statusLine = newValue } }
        }
    }

    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// A stream's bytes, read to its end (at most `rate` bytes a second when given).
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        var data: Data { lock.withLock { bytes } }

        func drain(_ handle: FileHandle, rate: Int?) {
            while true {
                let chunk = handle.readData(ofLength: 16384)
                if chunk.isEmpty { return }
                lock.withLock { bytes.append(chunk) }
                if let rate { usleep(useconds_t(Double(chunk.count) / Double(rate) * 1_000_000)) }
            }
        }
    }
}

/// Data the journeys work on, made by the test in its own folder.
enum ToolData {
    /// `count` files of `size` random bytes each in `folder`, from the kernel's generator: no two
    /// alike, so that a deduplicating backup has all of it to store.
    static func files(in folder: URL, count: Int, size: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        defer { try? source.close() }
        for index in 0..<count {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("\(index)").path, contents: source.readData(ofLength: size))
        }
    }

    /// `size` bytes of random text (compressible, so a compressor has work to do).
    static func text(_ size: Int) -> Data {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789 \n".utf8)
        return Data(random(size).map { letters[Int($0) % letters.count] })
    }

    static func random(_ size: Int) -> Data {
        guard let source = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom")) else { return Data() }
        defer { try? source.close() }
        return source.readData(ofLength: size)
    }
}

/// The throttled HTTP server (throttled_http.py) on a loopback port, serving `folder`.
final class ThrottledServer {
    let port: Int
    private let process = Process()

    init(folder: URL, bytesPerSecond: Int) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("throttled_http.py")
        let portFile = folder.appendingPathComponent("server.port")
        _ = FileManager.default.createFile(atPath: portFile.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, folder.path, String(bytesPerSecond)]
        process.standardOutput = try FileHandle(forWritingTo: portFile)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        var port = 0
        _ = BackgroundProcess.eventually(within: 10) {
            port = Int(((try? String(contentsOf: portFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            return port > 0
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child started from one of the test's threads inherits that thread's signal
        // mask, in which libdispatch's worker threads block the asynchronous signals (SIGTERM
        // among them), and Python leaves them blocked: a SIGTERM would never end it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
