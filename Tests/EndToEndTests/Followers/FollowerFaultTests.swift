import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A relay in front of a real server that turns faulty on demand (Tests/Followers/fault_relay.py):
/// down, a huge answer, an answer that is not JSON, bytes that are not HTTP, a hang-up.
final class FaultRelay {
    let port = MosquittoBroker.freePort()
    let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
    private var process: Process?
    let upstream: String
    var url: String { "http://127.0.0.1:\(port)" }

    init(upstream: String) { self.upstream = upstream }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("Tests/Followers/fault_relay.py").path,
                             "--port", "\(port)", "--upstream", upstream, "--mode-file", folder.appendingPathComponent("mode").path]
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        self.process = process
        #expect(BackgroundProcess.eventually(within: 10) { MosquittoBroker.accepts(port: self.port) })
    }

    func mode(_ mode: String) throws { try mode.write(to: folder.appendingPathComponent("mode"), atomically: true, encoding: .utf8) }

    deinit {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }
}

extension RealHome {
    /// Faults between headway-ci and a real Home Assistant: the server down when the follower
    /// starts, then a huge answer, one that is not JSON, bytes that are not HTTP, a hang-up, and
    /// Home Assistant restarted in the middle of a job. Each is one line in the log, saying what
    /// and what to do; the job reads stale, and comes back when the server does.
    @Suite("headway-ci's faults, against a real Home Assistant", .serialized,
           .enabled(if: try Needed.that(TestHome.available, "Home Assistant (.build-homeassistant: Scripts/lib/homeassistant.sh ensure_homeassistant)"), "no Home Assistant here"))
    final class FollowerFaultTests {
        let home: TestHome
        let service: SimulatedService

        init() throws {
            home = try TestHome.shared()
            service = try SimulatedService(linger: 30)
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 40}"#)
        }

        func lines(_ follower: BackgroundProcess, containing text: String) -> [Substring] {
            follower.stderr.split(separator: "\n").filter { $0.contains(text) }
        }

        @Test func eachFaultIsOneLineTheJobReadsStaleAndComesBack() throws {
            let relay = FaultRelay(upstream: home.url)
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["homeassistant", relay.url, "--token-file", try home.ownTokenFile(), "--entity", "sensor.printer_progress",
                                                                              "--interval", "1", "--idle-interval", "1", "--socket", service.socket])
            defer { follower.signal(SIGTERM) }
            let job = "home/127.0.0.1:\(relay.port)/sensor.printer_progress"
            func watch(_ done: @escaping (JobStatus) -> Bool) throws -> [JobStatus] { try service.watch(job, within: 30, follower: follower, until: done) }

            // Down at the start: one line; the job appears once the server answers.
            #expect(BackgroundProcess.eventually(within: 10) { !self.lines(follower, containing: "cannot connect to 127.0.0.1:\(relay.port)").isEmpty }, "\(follower.stderr)")
            Thread.sleep(forTimeInterval: 2)
            #expect(lines(follower, containing: "cannot connect").count == 1, "\(follower.stderr)")
            try relay.start()
            _ = try watch { $0.phase == "active" && $0.percent == 40 }

            for (mode, said) in [("huge", "sent more than 8 MiB; the answer was refused"), ("malformed", "not the JSON expected"),
                                 ("garbage", "127.0.0.1:\(relay.port)"), ("hang-up", "127.0.0.1:\(relay.port)")] {
                let before = follower.stderr.split(separator: "\n").count
                try relay.mode(mode)
                _ = try watch { $0.phase == "stale" }
                Thread.sleep(forTimeInterval: 3)
                let new = follower.stderr.split(separator: "\n").dropFirst(before)
                #expect(new.count == 1 && new.first?.contains(said) == true, "\(mode): one line: \(Array(new))")
                try relay.mode("pass")
                _ = try watch { $0.phase == "active" }
                #expect(follower.stderr.split(separator: "\n").last?.contains("reachable again") == true, "\(follower.stderr)")
            }
        }

        /// A proxy that does not pass WebSocket upgrades: one line that says so, and the entity
        /// followed by asking, as without a socket.
        @Test func aProxyThatDoesNotPassTheUpgradeIsOneLineAndTheLooksGoOn() throws {
            let relay = FaultRelay(upstream: home.url)
            try relay.mode("no-upgrade")
            try relay.start()
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["homeassistant", relay.url, "--token-file", try home.ownTokenFile(), "--entity", "sensor.printer_progress",
                                                                              "--interval", "1", "--idle-interval", "1", "--socket", service.socket])
            defer { follower.signal(SIGTERM) }
            let job = "home/127.0.0.1:\(relay.port)/sensor.printer_progress"
            _ = try service.watch(job, within: 20, follower: follower) { $0.phase == "active" && $0.percent == 40 }
            // Tried again after 5 s and 10 s: still one line.
            Thread.sleep(forTimeInterval: 16)
            let said = lines(follower, containing: "WebSocket")
            #expect(said.count == 1 && said.first?.contains("did not take the WebSocket upgrade (HTTP 400)") == true, "\(follower.stderr)")
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 55}"#)
            _ = try service.watch(job, within: 10, follower: follower) { $0.percent == 55 }
            try home.call("input_number.set_value", #"{"entity_id": "input_number.print_progress", "value": 40}"#)
        }

        /// A server that sends as fast as it can over the WebSocket, in each way the fault relay
        /// knows (pings, messages about nothing followed, change notifications, messages just under
        /// the size limit), to ten sources at once: the follower's memory stays under 64 MiB, each
        /// socket is closed with one line, the job is still followed by its looks, and SIGTERM is
        /// answered within a second.
        @Test(arguments: ["flood-ping", "flood-text", "flood-change", "flood-large"])
        func aServerFloodingItsWebSocketCannotTakeTheFollower(mode: String) throws {
            let relay = FaultRelay(upstream: home.url)
            try relay.mode(mode)
            try relay.start()
            let entities = ["sensor.printer_progress", "sensor.washer_remaining_time", "binary_sensor.washer", "update.hall_light_firmware", "timer.tea",
                            "input_number.print_progress", "input_number.washer_minutes", "input_number.firmware_percentage",
                            "input_boolean.washer_running", "input_boolean.firmware_installing"]
            let token = try home.ownTokenFile()
            let config = relay.folder.appendingPathComponent("ci.yaml")
            try ("sources:\n" + entities.map { "  - homeassistant: \(relay.url)\n    token-file: \(token)\n    entities: [\($0)]\n" }.joined())
                .write(to: config, atomically: true, encoding: .utf8)
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["--config", config.path, "--socket", service.socket])
            defer { follower.signal(SIGKILL) }
            let job = "home/127.0.0.1:\(relay.port)/sensor.printer_progress"
            _ = try service.watch(job, within: 20, follower: follower) { $0.phase == "active" && $0.percent == 40 }
            // Ten seconds of floods, the sockets tried again after 5 s: the job never reads stale.
            let until = Date().addingTimeInterval(10)
            while Date() < until {
                let status = try service.status().first { $0.job == job }
                #expect(status?.phase == "active", "\(mode): \(String(describing: status)) \(follower.stderr)")
                usleep(200_000)
            }
            let peak = Self.peakMemory(of: follower.pid)
            #expect(peak > 0 && peak <= 64 << 20, "\(mode): headway-ci's peak memory was \(peak >> 20) MiB")
            let closed = lines(follower, containing: "messages or 4 MiB in 10 s; the WebSocket was closed")
            #expect((1...entities.count).contains(closed.count), "\(mode): one line a socket: \(follower.stderr)")
            let asked = Date()
            follower.signal(SIGTERM)
            #expect(follower.waitForExit(seconds: 1) == 0, "\(mode): SIGTERM was not answered within a second")
            print("\(mode): peak \(peak >> 10) KiB, \(closed.count) sockets closed, SIGTERM answered in \(Int(Date().timeIntervalSince(asked) * 1000)) ms")
        }

        /// The first socket upgrades at once, whether or not the connection had room for the
        /// upgrade request the moment it was made.
        @Test func theFirstSocketUpgradesAtOnce() throws {
            let relay = FaultRelay(upstream: home.url)
            try relay.start()
            var took: [Int] = []
            for _ in 0..<8 {
                let started = Date()
                let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["homeassistant", relay.url, "--token-file", try home.ownTokenFile(), "--entity", "sensor.printer_progress",
                                                                                  "--socket", service.socket])
                defer { follower.signal(SIGTERM) }
                #expect(BackgroundProcess.eventually(within: 3) { follower.stderr.contains("told of changes over its WebSocket") }, "\(follower.stderr)")
                took.append(Int(Date().timeIntervalSince(started) * 1000))
            }
            print("the first socket up after (ms): \(took)")
        }

        /// VmHWM: the most memory the process has had resident.
        static func peakMemory(of pid: Int32) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
            return (Int(line.split(separator: " ")[1]) ?? 0) << 10
        }

        @Test func homeAssistantRestartedInTheMiddleOfAJob() throws {
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), ["homeassistant", home.url, "--token-file", try home.ownTokenFile(), "--entity", "sensor.printer_progress",
                                                                              "--interval", "1", "--idle-interval", "1", "--socket", service.socket])
            defer { follower.signal(SIGTERM) }
            let job = "home/\(home.host)/sensor.printer_progress"
            _ = try service.watch(job, within: 20, follower: follower) { $0.phase == "active" && $0.percent == 40 }
            #expect(try home.restart(), "Home Assistant did not come back")
            let seen = try service.watch(job, within: 40, follower: follower) { $0.phase == "active" && $0.percent == 40 && follower.stderr.contains("reachable again") }
            #expect(follower.stderr.contains("cannot connect") || seen.contains { $0.phase == "stale" }, "\(seen) \(follower.stderr)")
        }
    }
}
