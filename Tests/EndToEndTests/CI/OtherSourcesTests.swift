import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealPrograms {
    /// GitLab, Jenkins and a cctray feed, each played by the CI server fixture's scenario on a
    /// manual clock, followed by the real `headway-ci` and shown by `headway-sim serve`.
    @Suite("headway-ci: GitLab, Jenkins and cctray")
    struct OtherSourcesTests {
        final class Watch {
            let server: CIServerFixture
            let service = try! SimulatedService(linger: 30)
            let follower: BackgroundProcess

            init(scenario: String, token: String? = nil, _ arguments: (CIServerFixture) -> [String]) throws {
                server = try CIServerFixture(scenario: scenario)
                var extra: [String] = []
                if let token {
                    let file = server.folder.appendingPathComponent("token")
                    try (token + "\n").write(to: file, atomically: true, encoding: .utf8)
                    extra = ["--token-file", file.path]
                }
                follower = try BackgroundProcess(Binaries.url("headway-ci"), arguments(server) + extra + [
                    "--ca-file", server.caFile, "--interval", "1", "--idle-interval", "1", "--budget", "100000", "--socket", service.socket,
                ])
            }

            deinit { follower.signal(SIGTERM) }

            @discardableResult
            func at(_ seconds: Double, _ job: String, _ what: String, _ done: (JobStatus) -> Bool) throws -> JobStatus? {
                try server.advance(to: seconds)
                var last: JobStatus?
                let seen = try BackgroundProcess.eventually(within: 10) {
                    last = try service.status().first { $0.job == job }
                    return last.map(done) ?? false
                }
                #expect(seen, "\(what) at \(seconds): \(last.map { "\($0.phase) \($0.label ?? "") \($0.percent ?? -1)%" } ?? "no job") \(follower.stderr)")
                return last
            }
        }

        /// Pipeline 201: compile pending, then build, test (two jobs side by side) and deploy stages,
        /// jobs finished of four, the time left estimated from main's last success; its result.
        @Test func aGitLabPipeline() throws {
            let watch = try Watch(scenario: "gitlab.json", token: "glpat-reader") { ["gitlab", "acme/widgets", "--branch", "main", "--api", $0.url + "/api/v4"] }
            try watch.at(5, "acme/widgets/201", "pending") { $0.phase == "queued" }
            try watch.at(20, "acme/widgets/201", "compiling") { $0.phase == "active" && $0.label == "build: compile (1/4)" }
            let testing = try watch.at(150, "acme/widgets/201", "testing") { $0.phase == "active" && $0.label?.hasPrefix("test: ") == true }
            #expect(testing?.label?.hasSuffix("(2/4)") == true, "\(testing?.label ?? "")")
            // Pipeline 190, main's last success, took 380 s from created to its last update: about
            // 140 s gone, the rest is GitLab's history's estimate.
            #expect(testing?.etaReported == true && (150...300).contains(testing?.etaSeconds ?? 0), "\(testing?.etaSeconds ?? -1)")
            try watch.at(460, "acme/widgets/201", "the result") { $0.phase == "succeeded" }
            #expect(!watch.follower.stderr.contains("glpat-reader"))
        }

        /// Build 6 runs 10…630 with Jenkins' estimatedDuration: shown as an estimate, then its result.
        @Test func aJenkinsBuildWithItsEstimate() throws {
            let watch = try Watch(scenario: "jenkins.json", token: "alice:11a1b2c3d4e5f60718293a4b5c6d7e8f90") { ["jenkins", $0.url + "/job/widgets"] }
            let running = try watch.at(300, "widgets/6", "running") { $0.phase == "active" && $0.estimate }
            #expect((40...55).contains(running?.percent ?? 0), "290 s of an estimate of about 600: \(running?.percent ?? -1)%")
            #expect(running?.label == "widgets #6")
            try watch.at(640, "widgets/6", "the result") { $0.phase == "succeeded" }
        }

        /// A cctray feed's project building, then its result.
        @Test func aCCTrayProject() throws {
            let watch = try Watch(scenario: "cctray.json") { ["cctray", $0.url + "/cc.xml", "--project", "widgets"] }
            let job = "127.0.0.1:\(watch.server.port)/widgets"
            try watch.at(100, job, "building") { $0.phase == "active" && $0.label == "widgets" }
            try watch.at(620, job, "the result") { $0.phase == "succeeded" }
        }
    }
}
