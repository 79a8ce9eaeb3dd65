import Foundation
import HeadwayCore
import HeadwayProtocol
import HeadwaySystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
/// A crash at any instant after the service said "ok": a job it said was begun is back after
/// the restart, and one it said had ended is back ended — the journal has them before the reply.
@Suite("A crash after the reply", .serialized)
struct CrashTests {
    /// 1,000 lives of the service: in each, one job is begun and the one before it ended (done,
    /// failed or cancelled in turn), then the service is killed (SIGKILL) at a random instant
    /// within 3 ms of the last reply; the next life checks that both are as they were answered.
    @Test func everyJobAnsweredIsBackAfterAKillAtAnyInstant() throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("rig.yaml").path, socket = folder.appendingPathComponent("headway.sock").path
        // Ended jobs linger 5 s: the next life sees them, and the service holds a few dozen at most.
        try SimulatedService.configuration(linger: 5, extra: "state-directory: \(folder.appendingPathComponent("state").path)\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let log = open(folder.appendingPathComponent("service.log").path, O_WRONLY | O_CREAT | O_APPEND, 0o644), none = open("/dev/null", O_WRONLY)
        defer { close(log); close(none) }
        // Started without Foundation's Process, whose start costs a tenth of a second here: the
        // test is a thousand starts.
        func start() throws -> Int32 {
            try Processes.spawn([Binaries.url("headway-sim").path, "serve", "--headless", "--config", config, "--socket", socket], output: none, errors: log)
        }
        var random = SeededRandom(seed: 20261207)
        let outcomes = ["succeeded", "failed", "cancelled"]
        var lost: [String] = []
        let lives = 1000
        var pid = try start()
        for life in 0..<lives {
            let line: String
            do {
                line = try Self.session(socket) { send in
                if life > 0, let status = try Self.jobs(send(#"{"v":1,"op":"status"}"#)) {
                    if status["c\(life - 1)"] == nil { lost.append("c\(life - 1) (begun)") }
                    // A success or a cancellation inside the grace delay is `hidden`: ended unseen.
                    let ended = outcomes[(life + 1) % 3]
                    if life > 1, status["c\(life - 2)"] != ended, ended == "failed" || status["c\(life - 2)"] != "hidden" {
                        lost.append("c\(life - 2) (\(ended), read \(status["c\(life - 2)"] ?? "nothing"))")
                    }
                }
                var reply = try send(#"{"v":1,"op":"begin","job":"c\#(life)","total":10}"#)
                if life > 0, reply.contains(#""ok":true"#) {
                    reply = try send(#"{"v":1,"op":"finish","job":"c\#(life - 1)","outcome":"\#(outcomes[(life - 1) % 3])"}"#)
                }
                return reply
            }
            } catch {
                Issue.record("life \(life): the service did not answer (\(error)): \((try? String(contentsOf: folder.appendingPathComponent("service.log"), encoding: .utf8)) ?? "")")
                break
            }
            #expect(line.contains(#""ok":true"#), "life \(life): \(line)")
            usleep(UInt32(random.next() % 3000))
            Processes.send(SIGKILL, to: pid)
            _ = Processes.waitForExit(pid)
            pid = try start()
        }
        Processes.send(SIGTERM, to: pid)
        _ = Processes.waitForExit(pid)
        #expect(lost.isEmpty, "\(lost.count) of \(2 * lives - 1) answered changes lost: \(lost.prefix(10))")
        print("\(lives) lives, \(2 * lives - 1) answered changes, \(lost.count) lost")
    }

    /// Connects to `path` (retrying while the service starts), runs `body` with a function that
    /// sends one line and returns the reply line, and closes.
    static func session(_ path: String, _ body: ((String) throws -> String) throws -> String) throws -> String {
        var fd: Int32 = -1
        let deadline = Date().addingTimeInterval(TestTime.scaled(10))
        while fd < 0, Date() < deadline {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = UnixSocket.address(path)!
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected != 0 {
                close(fd)
                fd = -1
                usleep(2000)
            }
        }
        guard fd >= 0 else { throw POSIXError(.ECONNREFUSED) }
        defer { close(fd) }
        var pending: [UInt8] = []
        return try body { line in
            let bytes = Array((line + "\n").utf8)
            guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EPIPE) }
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !pending.contains(0x0A) {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, Int32(TestTime.scaled(10) * 1000)) == 1 else { throw POSIXError(.ETIMEDOUT) }
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { throw POSIXError(.ECONNRESET) }
                pending += buffer[0..<count]
            }
            let end = pending.firstIndex(of: 0x0A)!
            defer { pending.removeFirst(end + 1) }
            return String(decoding: pending[..<end], as: UTF8.self)
        }
    }

    /// The jobs of a status reply: each id with its phase (an ended job's is its outcome).
    static func jobs(_ reply: String) throws -> [String: String]? {
        guard case .array(let jobs)? = try JSONValue.parse(reply)["jobs"] else { return nil }
        var found: [String: String] = [:]
        for job in jobs {
            guard let id = job["job"]?.string else { continue }
            found[id] = job["phase"]?.string
        }
        return found
    }
}
}
