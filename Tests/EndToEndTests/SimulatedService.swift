import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `headway-sim serve --headless` on a temporary socket, with fast timings, for end-to-end tests.
final class SimulatedService {
    let folder: URL
    let socket: String
    private let process = Process()

    static var binaries: URL { EndToEnd.HeadwaySimTests.binary.deletingLastPathComponent() }

    init(grace: Double = 0.3, stallAfter: Double = 1.5, linger: Double = 5, environment: [String: String] = [:]) throws {
        folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        socket = folder.appendingPathComponent("headway.sock").path
        let board = try String(contentsOf: EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("Boards/simulator.yaml"), encoding: .utf8)
        let config = folder.appendingPathComponent("rig.yaml")
        try (board + "timings:\n  grace: \(grace)\n  stall-after: \(stallAfter)\n  linger: \(linger)\n  lose-after: 30\n").write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = EndToEnd.HeadwaySimTests.binary
        process.arguments = ["serve", "--headless", "--config", config.path, "--socket", socket]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
    }

    /// Sends `signal` to the service.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs the `headway` client against this service.
    @discardableResult
    func headway(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Run {
        try Self.run(Self.binaries.appendingPathComponent("headway"), arguments, environment: environment.merging(["HEADWAY_SOCKET": socket]) { $1 }, stdin: stdin)
    }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["GITHUB_RUN_ID", "GITHUB_JOB", "CI_JOB_ID", "BUILDKITE_JOB_ID"] { env[key] = nil }
        env.merge(environment) { $1 }
        env["PATH"] = binaries.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Standard input comes from a file: writing it into a pipe while the output is unread
        // would deadlock once both pipes are full.
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)")
        try (stdin ?? Data()).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        process.standardInput = try FileHandle(forReadingFrom: input)
        let start = Date()
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// Sends raw lines and returns the reply lines (one per request).
    func raw(_ lines: [String]) throws -> [String] {
        let fd = try UnixSocket.connect(path: socket, timeout: 2)
        defer { close(fd) }
        let text = lines.map { $0 + "\n" }.joined()
        _ = text.withCString { write(fd, $0, strlen($0)) }
        var received = ""
        let deadline = Date().addingTimeInterval(3)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.split(separator: "\n").count < lines.count, Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) == 1 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return received.split(separator: "\n").map(String.init)
    }

    /// Writes what the virtual devices show into `name` under the service's folder.
    func snapshot(_ name: String) throws -> URL {
        let target = folder.appendingPathComponent(name)
        let reply = try raw([Request.snapshot(folder: target.path).line])
        #expect(reply.first?.contains("\"ok\":true") == true, "\(reply)")
        return target
    }

    func status() throws -> [JobStatus] {
        let reply = try raw([Request.status.line])
        guard let line = reply.first, case .jobs(let jobs)? = Reply.parse(line) else { return [] }
        return jobs
    }
}

/// The RGB of each LED in a snapshot's PPM file.
func ppmPixels(_ url: URL) throws -> [(Int, Int, Int)] {
    let bytes = Array(try Data(contentsOf: url))
    var newlines = 0, index = 0
    while newlines < 3, index < bytes.count {
        if bytes[index] == 0x0A { newlines += 1 }
        index += 1
    }
    return stride(from: index, to: bytes.count - 2, by: 3).map { (Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])) }
}
