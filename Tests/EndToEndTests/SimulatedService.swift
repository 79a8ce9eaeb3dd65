import Foundation
import HeadwayCore
import HeadwayProtocol
import HeadwaySystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `headway-sim serve --headless` on a temporary socket, with fast timings, for end-to-end tests.
final class SimulatedService {
    let folder: URL
    let socket: String
    let config: URL
    private let process = Process()
    private let log: URL
    private let command: [String]
    private let environment: [String: String]
    private let directory: URL?

    static var binaries: URL { Binaries.folder }

    /// The simulator rig's preset with `timings`, then `extra` configuration lines.
    static func configuration(grace: Double = 0.3, stallAfter: Double = 1.5, linger: Double = 5, loseAfter: Double = 30, extra: String = "") throws -> String {
        let board = try String(contentsOf: EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("Boards/simulator.yaml"), encoding: .utf8)
        // Under emulation the service's clock runs as fast as ever while everything else is slower.
        let (grace, stallAfter, linger, loseAfter) = (TestTime.scaled(grace), TestTime.scaled(stallAfter), TestTime.scaled(linger), TestTime.scaled(loseAfter))
        return board + "timings:\n  grace: \(grace)\n  stall-after: \(stallAfter)\n  linger: \(linger)\n  lose-after: \(loseAfter)\n" + extra
    }

    /// The simulator rig with fast timings from a configuration file in the test's folder.
    /// `socket`: where it listens (default: in its own folder), for a test that restarts a service
    /// where its clients look.
    convenience init(grace: Double = 0.3, stallAfter: Double = 1.5, linger: Double = 5, loseAfter: Double = 30, extra: String = "", environment: [String: String] = [:], arguments: [String] = [], launcher: [String] = [], socket: String? = nil) throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        let config = folder.appendingPathComponent("rig.yaml")
        // Learned durations go to the test's own folder, never to the user's state folder.
        let state = "state-directory: \(folder.appendingPathComponent("state").path)\n"
        try Self.configuration(grace: grace, stallAfter: stallAfter, linger: linger, loseAfter: loseAfter, extra: state + extra).write(to: config, atomically: true, encoding: .utf8)
        try self.init(folder: folder, command: launcher + [Binaries.url("headway-sim").path, "serve", "--headless", "--config", config.path] + arguments, environment: environment, socketPath: socket)
    }

    /// `headway-sim serve --headless --config` with a configuration of the test's own (`yaml`).
    static func serving(_ yaml: String) throws -> SimulatedService {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        let config = folder.appendingPathComponent("rig.yaml")
        try (yaml + "state-directory: \(folder.appendingPathComponent("state").path)\n").write(to: config, atomically: true, encoding: .utf8)
        return try SimulatedService(folder: folder, command: [Binaries.url("headway-sim").path, "serve", "--headless", "--config", config.path], environment: [:])
    }

    /// `headway-sim serve --headless` as an installed program is run: found by name on PATH, from
    /// a working directory of its own (the test's folder), with its default configuration.
    static func installed(arguments: [String] = []) throws -> SimulatedService {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        let environment = [
            "PATH": Binaries.folder.path + ":/usr/bin:/bin",
            "STATE_DIRECTORY": folder.appendingPathComponent("state").path,
            "HEADWAY_BOARDS": "",
        ]
        return try SimulatedService(folder: folder, command: ["/usr/bin/env", "headway-sim", "serve", "--headless"] + arguments, environment: environment, directory: folder)
    }

    private init(folder: URL, command: [String], environment: [String: String], directory: URL? = nil, socketPath: String? = nil) throws {
        self.folder = folder
        self.command = command
        self.environment = environment
        self.directory = directory
        socket = socketPath ?? folder.appendingPathComponent("headway.sock").path
        config = folder.appendingPathComponent("rig.yaml")
        log = folder.appendingPathComponent("service.log")
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + ["--socket", socket]
        process.environment = ProgramEnvironment.with(environment)
        if let directory { process.currentDirectoryURL = directory }
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        for _ in 0..<Int(250 * TestTime.scale) where !FileManager.default.fileExists(atPath: socket) && process.isRunning { usleep(20_000) }
    }

    /// The same service started again (after this one stopped, or was killed): its configuration,
    /// socket and state folder, as systemd restarts a daemon.
    func restarted() throws -> SimulatedService {
        try SimulatedService(folder: folder, command: command, environment: environment, directory: directory, socketPath: socket)
    }

    /// What the service logged so far.
    var logged: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the service.
    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (up to `seconds`) for the service to exit; its status, if it did.
    func waitForExit(seconds: Double = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(TestTime.scaled(seconds))
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            // A service that does not stop on SIGTERM fails its test instead of hanging the run.
            if waitForExit() == nil {
                Issue.record("the service did not stop within 5 s of SIGTERM")
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
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
        try Self.run(Binaries.url("headway"), arguments, environment: environment.merging(["HEADWAY_SOCKET": socket]) { $1 }, stdin: stdin)
    }

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProgramEnvironment.with(environment)
        if let directory { process.currentDirectoryURL = directory }
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

    /// Sends raw lines on one connection and returns the reply lines (one per request).
    func raw(_ lines: [String], timeout: Double = 3) throws -> [String] {
        let timeout = TestTime.scaled(timeout)
        let connection = try ServiceConnection(path: socket, budget: timeout)
        try connection.write(lines.map { $0 + "\n" }.joined())
        var replies: [String] = []
        let deadline = MonotonicClock().now + timeout
        while replies.count < lines.count, let line = try? connection.readLine(until: deadline) { replies.append(line) }
        return replies
    }

    /// Writes what the virtual devices show into a new folder `name` under the service's folder.
    func snapshot(_ name: String) throws -> URL {
        let target = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let reply = try raw([#"{"v":1,"op":"snapshot","folder":"\#(target.path)"}"#])
        #expect(reply.first?.contains("\"ok\":true") == true, "\(reply)")
        return target
    }

    /// Presses the rig's virtual button.
    func press(long: Bool) throws -> [String] {
        try raw([#"{"v":1,"op":"press","long":\#(long)}"#])
    }

    func status() throws -> [JobStatus] {
        let reply = try raw([Request.status.line])
        guard let line = reply.first, case .jobs(let jobs, _, _, _)? = Reply.parse(line) else { return [] }
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

/// A listening Unix socket that accepts (through the kernel's backlog) but never answers; closed
/// and removed when it goes.
final class MuteSocket {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("mute-\(UUID().uuidString).sock").path
    private let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)

    init() {
        var address = UnixSocket.address(path)!
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        listen(fd, 16)
    }

    deinit {
        close(fd)
        unlink(path)
    }
}
