import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The test home of Tests/Home (its README is the interface): a real Home Assistant on a loopback
/// port, onboarded, with a long-lived token in a file, started by `serve.py` once per suite
/// (``shared()``) and stopped when the test process lets go of its standard input.
final class TestHome: @unchecked Sendable {
    static let root = EndToEnd.HeadwaySimTests.packageRoot

    /// Whether Home Assistant is installed here (Scripts/lib/homeassistant.sh ensure_homeassistant).
    static var available: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(".build-homeassistant/root/opt/homeassistant/.installed").path)
    }

    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    private let process = Process()
    private let input = Pipe()
    private var ready: [String: Any] = [:]
    private let output: URL

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: TestHome?

    static func shared() throws -> TestHome {
        lock.lock()
        defer { lock.unlock() }
        if let running = started, running.process.isRunning { return running }
        let home = try TestHome()
        started = home
        return home
    }

    init() throws {
        output = folder.appendingPathComponent("serve.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.root.appendingPathComponent("Tests/Home/serve.py").path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("serve.err").also { _ = FileManager.default.createFile(atPath: $0.path, contents: nil) })
        process.standardInput = input
        try process.run()
        guard try waitReady(count: 1) else {
            throw PrinterServers.Failure(description: "Home Assistant did not get ready: \((try? String(contentsOf: folder.appendingPathComponent("serve.err"), encoding: .utf8))?.suffix(3000) ?? "")")
        }
    }

    /// Waits for the `count`th ready line (a restart prints another).
    func waitReady(count: Int, within seconds: Double = 90) throws -> Bool {
        var lines: [[String: Any]] = []
        let got = BackgroundProcess.eventually(within: seconds) {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["ready"] as? Bool == true }
            return lines.count >= count || !process.isRunning
        }
        if got, lines.count >= count { ready = lines[count - 1] }
        return got && lines.count >= count
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    var url: String { ready["url"] as? String ?? "" }
    var host: String { String(url.dropFirst("http://".count)) }
    var tokenFile: String { ready["token_file"] as? String ?? "" }
    var token: String { ((try? String(contentsOfFile: tokenFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Calls a service (`timer.start`, `input_number.set_value`) as the tests drive the home.
    @discardableResult
    func call(_ service: String, _ fields: String) throws -> Int {
        let parts = service.split(separator: ".")
        let answer = try PrinterServers.call("POST", "\(url)/api/services/\(parts[0])/\(parts[1])", json: fields, headers: ["Authorization: Bearer \(token)"])
        #expect(answer.status == 200, "\(service) \(fields): \(answer)")
        return answer.status
    }

    /// The token in a file of the test's own, for --token-file (so a test can change it).
    func ownTokenFile(_ token: String? = nil) throws -> String {
        let file = folder.appendingPathComponent("token-\(UUID().uuidString)")
        try ((token ?? self.token) + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Runs Python with Tests/Home's client against this home (a new token, a revocation): its stdout.
    func python(_ script: String) throws -> String {
        let run = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", "import sys; sys.path.insert(0, '\(Self.root.appendingPathComponent("Tests/Home").path)')\nfrom homeassistant_client import *\n" + script])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new long-lived token, and the id with which it is revoked.
    func newToken(_ name: String) throws -> (token: String, id: String) {
        let out = try python("""
            admin = HomeAssistantSocket('\(url)'); admin.auth('\(token)')
            token = admin.command('auth/long_lived_access_token', client_name='\(name)', lifespan=1)
            ids = [t['id'] for t in admin.command('auth/refresh_tokens') if t.get('client_name') == '\(name)']
            print(token); print(ids[0])
            """)
        let lines = out.split(separator: "\n").map(String.init)
        return (lines.first ?? "", lines.last ?? "")
    }

    func revoke(_ id: String) throws {
        _ = try python("admin = HomeAssistantSocket('\(url)'); admin.auth('\(token)'); admin.command('auth/delete_refresh_token', refresh_token_id='\(id)')")
    }

    private var restarts = 0

    /// Restarts Home Assistant (the `homeassistant.restart` action); true once it is back.
    func restart() throws -> Bool {
        _ = try? PrinterServers.call("POST", "\(url)/api/services/homeassistant/restart", json: "{}", headers: ["Authorization: Bearer \(token)"])
        restarts += 1
        return try waitReady(count: restarts + 1, within: 60)
    }
}

extension URL {
    fileprivate func also(_ body: (URL) -> Void) -> URL {
        body(self)
        return self
    }
}
