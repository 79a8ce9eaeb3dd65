import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A command running in a terminal of a given size, as a person would see it: a tmux server of its
/// own (its own socket, no user configuration) holding one detached session, whose screen is read
/// back as text with capture-pane. The command starts in `folder`, finding the programs under
/// test on PATH.
final class TmuxPane {
    static let executable = URL(fileURLWithPath: "/usr/bin/tmux")

    /// Whether tmux can run here (Scripts/test installs it); with `CI` set, missing is a failure.
    static var needed: Bool { get throws { try Needed.that(FileManager.default.isExecutableFile(atPath: executable.path), "tmux (Scripts/test installs it)") } }

    let folder: URL
    private let socket: String
    private let environment: [String: String]
    /// The server, in the foreground (`-D`): a server that daemonized from a client would inherit
    /// the descriptor by which Foundation sees that client end, and the client would seem to run
    /// until the server stopped.
    private let server = Process()

    /// Starts `command` (a shell command line) in a terminal `columns` wide and `rows` high, in an
    /// environment of the programs' own (``ProgramEnvironment``) without `NO_COLOR`, and with
    /// `environment`.
    init(_ command: String, columns: Int, rows: Int, in folder: URL, environment: [String: String] = [:]) throws {
        self.folder = folder
        socket = folder.appendingPathComponent("tmux-\(UUID().uuidString.prefix(8)).sock").path
        var programs = ProgramEnvironment.with(environment)
        // Not inside the tmux the tests may be run from; in colour unless the test says otherwise.
        programs["TMUX"] = nil
        programs["TERM"] = "xterm-256color"
        if environment["NO_COLOR"] == nil { programs["NO_COLOR"] = nil }
        self.environment = programs
        server.executableURL = Self.executable
        server.arguments = ["-S", socket, "-f", "/dev/null", "-D"]
        server.environment = programs
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        _ = BackgroundProcess.eventually(within: 5) { FileManager.default.fileExists(atPath: socket) }
        // The pane stays open after the command, showing what it left on the screen.
        try tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "-c", folder.path, command + "; sleep 600"])
    }

    /// The process of the pane's shell, which runs the command.
    var processID: Int32? { Int32(((try? tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// The screen's rows as text, without colours (so an escape sequence the terminal did not
    /// understand shows as characters).
    var screen: [String] { rows(of: (try? tmux(["capture-pane", "-p", "-t", "0"])) ?? "") }

    /// The rows scrolled off the top, then the screen's.
    var screenAndHistory: [String] { rows(of: (try? tmux(["capture-pane", "-p", "-S", "-", "-t", "0"])) ?? "") }

    /// The screen's rows with the escape sequences of their colours.
    var colouredScreen: [String] { rows(of: (try? tmux(["capture-pane", "-p", "-e", "-t", "0"])) ?? "") }

    /// How many rows have scrolled off the top of the screen into the pane's history.
    var scrolledOff: Int { Int(((try? tmux(["display-message", "-p", "-t", "0", "#{history_size}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }

    /// Resizes the terminal, as dragging its window would.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", String(columns), "-y", String(rows)])
    }

    /// Waits up to `seconds` for the screen to satisfy `condition`; the last screen read.
    func waitFor(_ seconds: Double, _ condition: ([String]) -> Bool) -> [String] {
        var shown = screen
        _ = BackgroundProcess.eventually(within: seconds) {
            shown = screen
            return condition(shown)
        }
        return shown
    }

    deinit {
        // The pane's command goes first, with all it started (its process group): tmux's SIGHUP
        // does not end a program that takes SIGHUP as "reload" (headway-sim serve), nor one whose
        // mask, inherited from the test runner, blocks it.
        if let pane = Int32(((try? tmux(["display-message", "-p", "-t", "0", "#{pane_pid}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)), pane > 1 {
            kill(-pane, SIGKILL)
        }
        _ = try? tmux(["kill-server"])
        if !BackgroundProcess.eventually(within: 2, { !server.isRunning }) {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
    }

    private func rows(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["-S", socket] + arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: text, as: UTF8.self)
    }
}
