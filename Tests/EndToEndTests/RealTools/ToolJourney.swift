import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real tool run under the real `headway run` against `headway-sim serve --headless`, from a
/// folder of the test's own, with the job's status sampled every 50 ms while it runs.
struct ToolJourney {
    let run: SimulatedService.Run
    let samples: [JobStatus]
    let final: JobStatus?

    /// Whether `program` is installed (Scripts/test installs them; a test without it is skipped).
    static func has(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    init(_ service: SimulatedService, job: String, _ arguments: [String], environment: [String: String] = [:], directory: URL, stdin: Data? = nil) throws {
        let samples = Samples()
        let done = Flag()
        let socket = service.socket
        let sampler = Thread {
            while !done.isSet {
                if let job = Self.status(socket).first(where: { $0.job == job }) { samples.append(job) }
                usleep(50_000)
            }
        }
        sampler.start()
        let run = try SimulatedService.run(
            Binaries.url("headway"), ["--job", job, "run", "--name", "real-tools-\(job)"] + (arguments.contains("--") ? arguments : ["--"] + arguments),
            environment: environment.merging(["HEADWAY_SOCKET": service.socket]) { $1 }, stdin: stdin, directory: directory)
        done.set()
        while !sampler.isFinished { usleep(10_000) }
        self.run = run
        self.samples = samples.items
        var final: JobStatus?
        _ = BackgroundProcess.eventually(within: 2) {
            final = (try? service.status())?.first { $0.job == job }
            return final.map { ["succeeded", "failed", "cancelled", "hidden"].contains($0.phase) } ?? false
        }
        self.final = final
    }

    /// The service's jobs, asked on a connection of its own.
    static func status(_ socket: String) -> [JobStatus] {
        guard let connection = try? ServiceConnection(path: socket, budget: TestTime.scaled(2)),
            case .jobs(let jobs, _, _, _)? = try? connection.send(.status)
        else { return [] }
        return jobs
    }

    /// The samples that were determinate.
    var determinate: [JobStatus] { samples.filter { $0.total != nil && $0.value != nil } }

    /// Checks what every journey must show: determinate while it ran, never beyond the total nor
    /// going back, labels naming the tool's step, and the outcome the exit status says.
    func expectHonest(label prefix: String, determinate expected: Bool = true, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == status, "exit status \(run.status); stderr: \(run.stderr)", sourceLocation: sourceLocation)
        if expected {
            #expect(!determinate.isEmpty, "never determinate: \(samples.map { "\($0.label ?? "") \($0.value ?? -1)/\($0.total ?? -1)" })", sourceLocation: sourceLocation)
        }
        for sample in determinate {
            #expect(sample.value! <= sample.total!, "\(sample)", sourceLocation: sourceLocation)
        }
        let values = determinate.map { $0.value! / $0.total! }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "went back: \(values)", sourceLocation: sourceLocation)
        #expect(samples.contains { $0.label?.hasPrefix(prefix) == true }, "labels: \(Set(samples.compactMap(\.label)))", sourceLocation: sourceLocation)
        let phase = final?.phase
        if status == 0 {
            #expect(phase == "succeeded" || phase == "hidden", "\(String(describing: final))", sourceLocation: sourceLocation)
        } else {
            #expect(phase == "failed", "\(String(describing: final))", sourceLocation: sourceLocation)
        }
        #expect(!run.stderr.contains("headway: warning"), "\(run.stderr)", sourceLocation: sourceLocation)
    }

    private final class Samples: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [JobStatus] = []
        func append(_ item: JobStatus) { lock.withLock { list.append(item) } }
        var items: [JobStatus] { lock.withLock { list } }
    }

    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}

/// Data the journeys work on, made by the test in its own folder.
enum ToolData {
    /// `count` files of `size` random bytes in `folder` (in subfolders of 250), each different:
    /// one random block with the file's number in its first bytes.
    static func files(in folder: URL, count: Int, size: Int) throws {
        var block = random(size)
        for index in 0..<count {
            let sub = folder.appendingPathComponent("\(index / 250)")
            if index % 250 == 0 { try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true) }
            withUnsafeBytes(of: UInt64(index)) { block.replaceSubrange(0..<8, with: $0) }
            FileManager.default.createFile(atPath: sub.appendingPathComponent("\(index)").path, contents: block)
        }
    }

    /// `size` bytes of random text (compressible, so a compressor has work to do).
    static func text(_ size: Int) -> Data {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789 \n".utf8)
        let random = [UInt8](Self.random(size))
        return Data(random.map { letters[Int($0) % letters.count] })
    }

    static func random(_ size: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<(size + 7) / 8).map { _ in generator.next() as UInt64 }
        return words.withUnsafeBytes { Data($0.prefix(size)) }
    }
}

/// The throttled HTTP server (throttled_http.py) on a loopback port, serving `folder`.
final class ThrottledServer {
    let port: Int
    private let process = Process()

    init(folder: URL, bytesPerSecond: Int) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("throttled_http.py")
        let portFile = folder.appendingPathComponent("server.port")
        FileManager.default.createFile(atPath: portFile.path, contents: nil)
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
        process.terminate()
        process.waitUntilExit()
    }
}
