import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program left running while a test acts around it (`headway run`, a build shell), its output
/// in files so that nothing blocks on a full pipe.
final class BackgroundProcess {
    private let process = Process()
    private let folder: URL

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws {
        folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProgramEnvironment.with(environment)
        if let directory { process.currentDirectoryURL = directory }
        for name in ["stdout", "stderr"] { _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("stderr"))
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (try? String(contentsOf: folder.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (up to `seconds`) for the program to exit; its status, if it did.
    func waitForExit(seconds: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(TestTime.scaled(seconds))
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Polls `condition` every 50 ms for up to `seconds`.
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.scaled(seconds))
        repeat {
            if try condition() { return true }
            usleep(50_000)
        } while Date() < deadline
        // Once more at the end: a sleep that overran the deadline (a loaded machine) still looks.
        return try condition()
    }

    /// The children of process `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }

    /// The state letter of process `pid` (R, S, T for stopped, …), from /proc.
    static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].first
    }
}
