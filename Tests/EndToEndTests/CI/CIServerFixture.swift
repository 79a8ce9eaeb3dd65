import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The CI server fixture (Tests/CIServer, its README is the interface): a local HTTPS server on
/// loopback playing a scenario of GitHub, GitLab, Jenkins and cctray runs, its certificate signed
/// by a test CA made here with openssl, its clock moved by hand or running.
final class CIServerFixture {
    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    private let process = Process()
    let port: Int
    var caFile: String { folder.appendingPathComponent("ca.crt").path }
    var url: String { "https://127.0.0.1:\(port)" }

    static let root = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("Tests/CIServer")

    /// Serves `scenario` (a file of Tests/CIServer/scenarios, or a scenario's JSON) on a manual
    /// clock, or a real one `speed` times faster.
    init(scenario: String, manualClock: Bool = true, speed: Double = 1, https: Bool = true) throws {
        var arguments = [Self.root.appendingPathComponent("server.py").path, "--port", "0", "--ready-file", folder.appendingPathComponent("port").path,
                         "--log", folder.appendingPathComponent("requests.log").path]
        let file = scenario.hasPrefix("{") ? folder.appendingPathComponent("scenario.json").path : Self.root.appendingPathComponent("scenarios/\(scenario)").path
        if scenario.hasPrefix("{") { try scenario.write(toFile: file, atomically: true, encoding: .utf8) }
        arguments += ["--scenario", file] + (manualClock ? ["--clock", "manual"] : ["--clock", "real", "--speed", "\(speed)"])
        if https {
            try Self.makeCertificates(in: folder)
            arguments += ["--cert", folder.appendingPathComponent("server.crt").path, "--key", folder.appendingPathComponent("server.key").path]
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let log = folder.appendingPathComponent("server.out")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let portFile = folder.appendingPathComponent("port")
        _ = BackgroundProcess.eventually(within: 10) { FileManager.default.fileExists(atPath: portFile.path) }
        port = Int((try? String(contentsOf: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(port > 0, "the CI server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        self.https = https
    }

    private let https: Bool

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A test CA and a certificate for 127.0.0.1 signed by it.
    static func makeCertificates(in folder: URL) throws {
        let script = """
            set -e
            cd '\(folder.path)'
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj '/CN=headway-ci test CA' \\
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=127.0.0.1' 2>/dev/null
            printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nbasicConstraints=CA:FALSE\\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext 2>/dev/null
            """
        let run = try SimulatedService.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(run.status == 0, "openssl: \(run.stderr)")
    }

    private func control(_ path: String, post body: String? = nil) throws -> String {
        var arguments = ["-s", "--max-time", "10"] + (https ? ["--cacert", caFile] : [])
        if let body { arguments += ["-X", "POST", "-H", "Content-Type: application/json", "-d", body] }
        return try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments + [url + "/_control/" + path]).stdout
    }

    /// Moves the manual clock to `seconds` from the scenario's start.
    func advance(to seconds: Double) throws {
        let reply = try control("advance", post: #"{"to": \#(seconds)}"#)
        #expect(reply.contains("now"), "advance: \(reply)")
    }

    /// The API requests served so far (the fixture's log entries).
    func requests() throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try control("requests").utf8)) as? [String: Any]
        return json?["requests"] as? [[String: Any]] ?? []
    }
}
