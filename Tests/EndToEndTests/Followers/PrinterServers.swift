import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real print servers of Tests/Printers (its README is the interface): OctoPrint with its
/// Virtual Printer, or Moonraker in front of the Klippy stand-in, started by `serve.py` on free
/// loopback ports. One launcher per suite (``shared(_:)``): it lives while the test process holds
/// its standard input, and stops with it.
final class PrinterServers: @unchecked Sendable {
    enum Server: String { case octoprint, moonraker }

    static let root = EndToEnd.HeadwaySimTests.packageRoot

    /// Whether the server's venv is here (Scripts/test makes both: ensure_octoprint, ensure_moonraker).
    static func available(_ server: Server) -> Bool {
        let program = server == .octoprint ? ".build-octoprint/venv/bin/octoprint" : ".build-moonraker/venv/bin/moonraker"
        return FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(program).path)
    }

    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    private let process = Process()
    private let input = Pipe()
    let ready: [String: Any]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: [Server: PrinterServers] = [:]

    /// The suite's launcher of `server`, started on first use.
    static func shared(_ server: Server, speed: Double = 1) throws -> PrinterServers {
        lock.lock()
        defer { lock.unlock() }
        if let running = started[server], running.process.isRunning { return running }
        let servers = try PrinterServers(server, speed: speed)
        started[server] = servers
        return servers
    }

    init(_ server: Server, speed: Double = 1) throws {
        let readyFile = folder.appendingPathComponent("ready.json")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.root.appendingPathComponent("Tests/Printers/serve.py").path, "--dir", folder.appendingPathComponent("servers").path,
                             "--only", server.rawValue, "--stop-on-eof", "--ready-file", readyFile.path, "--speed", "\(speed)"]
        let log = folder.appendingPathComponent("serve.out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = input
        try process.run()
        let launcher = process
        _ = BackgroundProcess.eventually(within: 90) { FileManager.default.fileExists(atPath: readyFile.path) || !launcher.isRunning }
        let text = (try? String(contentsOf: readyFile, encoding: .utf8)) ?? ""
        ready = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        guard ready["ready"] as? Bool == true else {
            throw Failure(description: "serve.py did not get ready: \((try? String(contentsOf: log, encoding: .utf8))?.suffix(3000) ?? "")")
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    private func section(_ name: String) -> [String: Any] { ready[name] as? [String: Any] ?? [:] }
    var octoprintURL: String { section("octoprint")["url"] as? String ?? "" }
    var apiKey: String { section("octoprint")["api_key"] as? String ?? "" }
    var moonrakerURL: String { section("moonraker")["url"] as? String ?? "" }
    var klippyControl: String { section("klippy")["control"] as? String ?? "" }
    var host: String { String((octoprintURL.isEmpty ? moonrakerURL : octoprintURL).dropFirst("http://".count)) }

    /// The API key in a file of its own, for --token-file.
    func keyFile() throws -> String {
        let file = folder.appendingPathComponent("octoprint.key")
        try (apiKey + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A request to a server: `curl` (its status line last), JSON sent when `json` is given.
    @discardableResult
    static func call(_ method: String, _ url: String, json: String? = nil, headers: [String] = []) throws -> (status: Int, body: String) {
        var arguments = ["-s", "--max-time", "10", "-X", method, "-w", "\n%{http_code}", url]
        for header in headers { arguments += ["-H", header] }
        if let json { arguments += ["-H", "Content-Type: application/json", "-d", json] }
        let run = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func octoprint(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: String) {
        try Self.call(method, octoprintURL + path, json: json, headers: ["X-Api-Key: \(apiKey)"])
    }

    /// OctoPrint's printer state text ("Printing", "Paused", "Operational"…).
    func octoprintState() throws -> String {
        let body = try octoprint("GET", "/api/job").body
        return ((try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["state"] as? String) ?? "?"
    }

    /// Plays a timeline on the Klippy stand-in (a fresh printer, its clock at 0).
    func play(_ timeline: String, speed: Double) throws {
        let path = Self.root.appendingPathComponent("Tests/Printers/timelines/\(timeline).json").path
        let answer = try Self.call("POST", klippyControl + "/play", json: #"{"timeline": "\#(path)", "speed": \#(speed)}"#)
        #expect(answer.status == 200, "play \(timeline): \(answer)")
    }
}
