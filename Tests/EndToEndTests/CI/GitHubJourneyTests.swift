import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealPrograms {
    /// The journey of issue's kind: a display (`headway-sim serve`), `headway-ci github …` pointed
    /// at the local HTTPS server (the CI server fixture, its test CA added with --ca-file), a run of
    /// 12 steps over 10 minutes shown step by step, then its result; the server's faults one after
    /// another; and a short run in real time.
    @Suite("headway-ci and the CI server fixture", .serialized)
    struct GitHubJourneyTests {
        /// github-journey.json with a token allowed enough requests for looks every second.
        static func journey(faults: String = "[]") throws -> String {
            let file = CIServerFixture.root.appendingPathComponent("scenarios/github-journey.json")
            var scenario = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            var github = scenario["github"] as! [String: Any]
            github["tokens"] = [["token": "ghp_journey", "login": "octocat", "limit": 1_000_000]]
            scenario["github"] = github
            scenario["faults"] = try JSONSerialization.jsonObject(with: Data(faults.utf8))
            return String(decoding: try JSONSerialization.data(withJSONObject: scenario), as: UTF8.self)
        }

        static let steps = ["Set up job", "Run actions/checkout@v4", "Set up Swift", "Restore cache", "Resolve packages", "Build", "Run unit tests",
                            "Run end-to-end tests", "Package", "Upload artifact", "Post Restore cache", "Complete job"]
        /// When each step starts, in the scenario's seconds (the job starts at 20).
        static let starts: [Double] = [20, 25, 35, 80, 100, 140, 320, 470, 560, 590, 605, 615]

        final class Setup {
            let server: CIServerFixture
            let service = try! SimulatedService(linger: 30)
            let follower: BackgroundProcess
            let token: URL

            init(scenario: String, manualClock: Bool = true, arguments: [String] = [], environment: [String: String] = [:]) throws {
                server = try CIServerFixture(scenario: scenario, manualClock: manualClock)
                token = server.folder.appendingPathComponent("github.token")
                try "ghp_journey\n".write(to: token, atomically: true, encoding: .utf8)
                follower = try BackgroundProcess(Binaries.url("headway-ci"), [
                    "github", "acme/widgets", "--api", server.url, "--ca-file", server.caFile, "--token-file", token.path,
                    "--interval", "1", "--idle-interval", "1", "--budget", "100000", "--socket", service.socket,
                ] + arguments, environment: environment)
            }

            deinit { follower.signal(SIGTERM) }

            /// The job of run 9001 once `done` holds (within `seconds`), and what was seen meanwhile.
            @discardableResult
            func await(_ what: String, within seconds: Double = 10, _ done: (JobStatus) -> Bool) throws -> JobStatus? {
                var last: JobStatus?
                let seen = try BackgroundProcess.eventually(within: seconds) {
                    last = try service.status().first { $0.job == "acme/widgets/9001" }
                    return last.map(done) ?? false
                }
                #expect(seen, "\(what): \(last.map { "\($0.phase) \($0.label ?? "") \($0.percent ?? -1)%" } ?? "no job") \(follower.stderr)")
                return last
            }
        }

        @Test func aRunOfTwelveStepsShownStepByStepThenItsResult() throws {
            let setup = try Setup(scenario: try Self.journey())
            try setup.server.advance(to: 10)
            try setup.await("queued") { $0.phase == "queued" && $0.label == "CI #562" }
            var percents: [Int] = []
            for (index, step) in Self.steps.enumerated() {
                try setup.server.advance(to: Self.starts[index] + 1)
                let job = try setup.await("step \(index + 1)") { $0.phase == "active" && $0.label == "build: \(step) (\(index + 1)/12)" }
                percents.append(job?.percent ?? -1)
            }
            // Steps done of twelve, as GitHub says, never ahead of it and never backwards.
            #expect(percents == percents.sorted(), "\(percents)")
            #expect(percents.allSatisfy { $0 < 100 })
            try setup.server.advance(to: 625)
            try setup.await("the result") { $0.phase == "succeeded" }
            // Idle looks at an unchanged list are answered 304 to the ETag sent.
            TestTime.sleep(3)
            // What was asked: conditional requests with the token, never the token in the log.
            let requests = try setup.server.requests()
            #expect(requests.contains { (($0["request_headers"] as? [String: Any])?["If-None-Match"]) != nil }, "no conditional request")
            #expect(requests.allSatisfy { (($0["request_headers"] as? [String: Any])?["Authorization"] as? [String: Any])?["scheme"] as? String == "Bearer" })
            #expect(requests.contains { $0["status"] as? Int == 304 })
            #expect(!setup.follower.stderr.contains("ghp_journey"))
        }

        /// Through the proxy `https_proxy` names (a real tinyproxy on loopback): every request is
        /// tunnelled by it, and the run shows as without one.
        @Test(.enabled(if: try Needed.programs("/usr/bin/tinyproxy"), "tinyproxy is not installed (Scripts/test installs it)"))
        func throughTheProxyTheEnvironmentNames() throws {
            let server = try CIServerFixture(scenario: try Self.journey())
            let proxy = try Tinyproxy(connectPort: server.port)
            let service = try SimulatedService(linger: 30)
            let token = server.folder.appendingPathComponent("github.token")
            try "ghp_journey\n".write(to: token, atomically: true, encoding: .utf8)
            let follower = try BackgroundProcess(Binaries.url("headway-ci"), [
                "github", "acme/widgets", "--api", server.url, "--ca-file", server.caFile, "--token-file", token.path,
                "--interval", "1", "--idle-interval", "1", "--budget", "100000", "--socket", service.socket,
            ], environment: ["https_proxy": proxy.url, "HTTPS_PROXY": proxy.url, "no_proxy": "", "NO_PROXY": ""])
            defer { follower.signal(SIGTERM) }
            try server.advance(to: 150)
            let shown = try BackgroundProcess.eventually(within: 10) {
                try service.status().first { $0.job == "acme/widgets/9001" }?.label == "build: Build (6/12)"
            }
            #expect(shown, "\(follower.stderr)")
            // tinyproxy's log says the requests went through it, not beside it.
            #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port) "), "\(proxy.log)")
        }

        /// Faults placed on the runs list one after another: each is one line naming the source and
        /// what to do, the job reads stale meanwhile (never succeeded or stalled), and comes back.
        @Test func theServersFaultsOneAfterAnother() throws {
            let list = #"^/repos/acme/widgets/actions/runs\\?per_page"#
            let faults = """
                [{"path": "\(list)", "kind": "status", "status": 502, "from": 100, "until": 110},
                 {"path": "\(list)", "kind": "delay", "seconds": 4, "from": 150, "until": 160},
                 {"path": "\(list)", "kind": "malformed_json", "from": 200, "until": 210},
                 {"path": "\(list)", "kind": "huge", "bytes": 52428800, "from": 300, "until": 310},
                 {"path": "\(list)", "kind": "redirect_loop", "from": 400, "until": 410},
                 {"path": "\(list)", "kind": "unauthorized", "from": 500, "until": 510},
                 {"path": "\(list)", "kind": "rate_limit", "status": 403, "reset_in": 3000, "from": 550, "until": 560}]
                """
            let setup = try Setup(scenario: try Self.journey(faults: faults), arguments: ["--timeout", "2"])
            try setup.server.advance(to: 90)
            try setup.await("running") { $0.phase == "active" }
            let cases: [(at: Double, says: String)] = [
                (100, "127.0.0.1:\(setup.server.port) answered 502"),
                (150, "did not answer within 2 s"),
                (200, "not the JSON expected"),
                (300, "sent more than 8 MiB; the answer was refused"),
                (400, "redirected more than 5 times"),
                (500, "GitHub refused the token"),
            ]
            for (at, says) in cases {
                try setup.server.advance(to: at)
                let logged = BackgroundProcess.eventually(within: 15) { setup.follower.stderr.contains(says) }
                #expect(logged, "at \(at): \(setup.follower.stderr)")
                try setup.await("stale at \(at)") { $0.phase == "stale" }
                try setup.server.advance(to: at + 20)
                try setup.await("back after \(at)", within: 15) { $0.phase == "active" }
            }
            #expect(setup.follower.stderr.components(separatedBy: "reachable again").count - 1 == cases.count)
            // A 50 MB answer was refused as it came: the follower's memory stayed small.
            let status = try String(contentsOfFile: "/proc/\(setup.follower.pid)/status", encoding: .utf8)
            let rss = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            // (AddressSanitizer's shadow memory and quarantine make a sanitized build's larger.)
            if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil { #expect(rss > 0 && rss < 40_000, "peak RSS \(rss) KiB") }
            try setup.server.advance(to: 550)
            let limited = BackgroundProcess.eventually(within: 15) { setup.follower.stderr.contains("is rate limiting these requests (403); asking again in") }
            #expect(limited, "\(setup.follower.stderr)")
            #expect(!setup.follower.stderr.contains("ghp_journey"))
        }

        /// A short run in real time: created at once, its job starting after 2 s, three steps of 3 s.
        @Test func aShortRunInRealTime() throws {
            let scenario = """
                {"github": {"tokens": [{"token": "ghp_journey", "limit": 1000000}], "repositories": [{"owner": "acme", "name": "widgets", "private": false,
                  "workflows": [{"id": 1, "name": "CI", "path": ".github/workflows/ci.yml"}],
                  "runs": [{"id": 9001, "workflow": "ci.yml", "run_number": 7, "branch": "main", "attempts": [{"created": 0, "jobs": [{"name": "build",
                    "start": 2, "steps": [{"name": "Build", "seconds": 3}, {"name": "Run unit tests", "seconds": 3}, {"name": "Package", "seconds": 3}]}]}]}]}]}}
                """
            let setup = try Setup(scenario: scenario, manualClock: false)
            var labels: [String] = []
            let done = try BackgroundProcess.eventually(within: 30) {
                guard let job = try setup.service.status().first(where: { $0.job == "acme/widgets/9001" }) else { return false }
                if let label = job.label, labels.last != label { labels.append(label) }
                return job.phase == "succeeded"
            }
            #expect(done, "\(labels) \(setup.follower.stderr)")
            #expect(labels.contains("build: Build (1/3)") && labels.contains("build: Run unit tests (2/3)") && labels.contains("build: Package (3/3)"), "\(labels)")
        }

        /// Mistakes the user can make, each named with its fix.
        @Test func mistakesNamedWithTheirFix() throws {
            let server = try CIServerFixture(scenario: try Self.journey())
            let service = try SimulatedService()
            func run(_ arguments: [String], until text: String) throws -> String {
                let follower = try BackgroundProcess(Binaries.url("headway-ci"), arguments + ["--socket", service.socket])
                let said = BackgroundProcess.eventually(within: 10) { follower.stderr.contains(text) }
                follower.signal(SIGTERM)
                #expect(said, "\(arguments): \(follower.stderr)")
                return follower.stderr
            }
            // Its CA not given: TLS fails, naming the host.
            _ = try run(["github", "acme/widgets", "--api", server.url], until: "TLS with 127.0.0.1:\(server.port) failed")
            _ = try run(["github", "acme/nothing", "--api", server.url, "--ca-file", server.caFile], until: "no such repository or workflow at 127.0.0.1")
            // A token over plain HTTP to another machine is warned about (a documentation address,
            // RFC 5737: the warning comes before any request); to this machine's own, not.
            let token = server.folder.appendingPathComponent("t")
            try "ghp_journey\n".write(to: token, atomically: true, encoding: .utf8)
            let warned = try run(["github", "acme/widgets", "--api", "http://192.0.2.1:9", "--token-file", token.path], until: "the token goes over plain HTTP")
            #expect(!warned.contains("ghp_journey"))
            let local = try run(["github", "acme/widgets", "--api", "http://127.0.0.1:9", "--token-file", token.path], until: "following ")
            #expect(!local.contains("plain HTTP"), "\(local)")
            let usage = try SimulatedService.run(Binaries.url("headway-ci"), ["github", "acme"])
            #expect(usage.status != 0 && usage.stderr.contains("is not OWNER/REPO"), "\(usage.stderr)")
        }
    }
}

extension RealPrograms.GitHubJourneyTests {
    /// The service restarts in the middle of a run: the follower begins the run again on the new
    /// one, with the time it has already run, and goes on with its steps.
    @Test func theServiceRestartedMidRun() throws {
        let server = try CIServerFixture(scenario: try Self.journey())
        let folder = server.folder
        let socket = folder.appendingPathComponent("h.sock").path
        let config = folder.appendingPathComponent("rig.yaml")
        try (try SimulatedService.configuration() + "state-directory: \(folder.appendingPathComponent("state").path)\n").write(to: config, atomically: true, encoding: .utf8)
        func serve() throws -> BackgroundProcess {
            let service = try BackgroundProcess(Binaries.url("headway-sim"), ["serve", "--headless", "--config", config.path, "--socket", socket])
            #expect(BackgroundProcess.eventually(within: 5) { FileManager.default.fileExists(atPath: socket) })
            return service
        }
        func job() -> JobStatus? {
            do {
                let connection = try ServiceConnection(path: socket, budget: 2)
                let reply = try connection.send(Request.status)
                guard case .jobs(let jobs, _, _, _) = reply else { return nil }
                return jobs.first { $0.job == "acme/widgets/9001" }
            } catch {
                return nil
            }
        }
        var service = try serve()
        let token = folder.appendingPathComponent("token")
        try "ghp_journey\n".write(to: token, atomically: true, encoding: .utf8)
        let follower = try BackgroundProcess(Binaries.url("headway-ci"), [
            "github", "acme/widgets", "--api", server.url, "--ca-file", server.caFile, "--token-file", token.path,
            "--interval", "1", "--idle-interval", "1", "--budget", "100000", "--socket", socket,
        ])
        defer { follower.signal(SIGTERM) }
        try server.advance(to: 150)
        #expect(BackgroundProcess.eventually(within: 10) { job()?.label == "build: Build (6/12)" }, "\(follower.stderr)")
        service.signal(SIGKILL)
        _ = service.waitForExit()
        try? FileManager.default.removeItem(atPath: socket)
        service = try serve()
        try server.advance(to: 330)
        // Begun again on the new service, 310 s into the run by the server's clock, and followed on.
        #expect(BackgroundProcess.eventually(within: 10) { job()?.label == "build: Run unit tests (7/12)" && job()?.phase == "active" }, "\(String(describing: job())) \(follower.stderr)")
        try server.advance(to: 625)
        #expect(BackgroundProcess.eventually(within: 10) { job()?.phase == "succeeded" }, "\(String(describing: job()))")
        service.signal(SIGKILL)
    }
}
