import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension RealPrograms {
    /// headway-ci following a real Buildbot master and worker (not an imitation): builds forced
    /// through its API shown step by step on `headway-sim serve`, a failing step, a build stopped
    /// through the API, the master killed and started again in the middle of a build, a build
    /// waiting for the worker. One master for the suite, builds one after the other.
    @Suite("headway-ci and a real Buildbot", .serialized, .enabled(if: try Needed.that(BuildbotMaster.available, "a Buildbot venv that runs here (.build-buildbot/venv: Scripts/test makes it)"), "no Buildbot venv that runs here: Scripts/test makes one for its machine's python3 (.build-buildbot/venv)"))
    final class BuildbotSourceTests {
        let master: BuildbotMaster
        let service: SimulatedService
        let follower: BackgroundProcess

        init() throws {
            master = try BuildbotMaster()
            service = try SimulatedService(linger: 30)
            follower = try BackgroundProcess(Binaries.url("headway-ci"), ["buildbot", master.url, "--builder", "runtests", "--interval", "1", "--idle-interval", "1", "--budget", "20000",
                                                                          "--socket", service.socket])
        }

        deinit { follower.signal(SIGTERM) }

        /// Watches the job of build request `request` until `done` says so; every status seen.
        func watch(_ request: Int, within seconds: Double = 30, until done: (JobStatus) -> Bool) throws -> [JobStatus] {
            var seen: [JobStatus] = []
            let finished = try BackgroundProcess.eventually(within: seconds) {
                guard let job = try service.status().first(where: { $0.job == "runtests/\(request)" }) else { return false }
                if seen.last != job { seen.append(job) }
                return done(job)
            }
            #expect(finished, "runtests/\(request): \(seen.map { "\($0.phase) \($0.label ?? "")" }) \(follower.stderr)")
            return seen
        }

        @Test func buildsShownStepByStepThenTheirResults() throws {
            // The first build teaches how many steps a build of this builder has.
            try master.force()
            let first = try watch(1) { $0.phase == "succeeded" }
            #expect(first.contains { $0.phase == "active" && $0.label?.hasPrefix("runtests: ") == true })
            try master.force()
            let second = try watch(2) { $0.phase == "succeeded" }
            let labels = second.compactMap(\.label)
            #expect(labels.contains("runtests: test (3/5)"), "\(labels)")
            #expect(labels.contains("runtests: package (4/5)"), "\(labels)")
            let percents = second.filter { $0.phase == "active" }.compactMap(\.percent)
            #expect(percents.contains { $0 >= 40 && $0 < 100 }, "determinate: steps done of five, \(percents)")
            #expect(second.allSatisfy { $0.phase != "stalled" && $0.phase != "stale" })

            // A failing step fails the job.
            try master.force(fail: true)
            #expect(try watch(3) { $0.phase == "failed" }.last?.phase == "failed")

            // Stopped through the API: cancelled.
            try master.force()
            _ = try watch(4) { $0.label?.contains("test") == true }
            try master.stop(build: 4)
            #expect(try watch(4) { $0.phase == "cancelled" }.last?.phase == "cancelled")

            // Two builds for one worker: the second waits, shown queued, then runs.
            try master.force()
            try master.force()
            let waiting = try watch(6) { $0.phase == "queued" }
            #expect(waiting.last?.phase == "queued")
            _ = try watch(5) { $0.phase == "succeeded" }
            #expect(try watch(6) { $0.phase == "succeeded" }.contains { $0.phase == "active" })
        }

        @Test func theMasterKilledAndStartedAgainInTheMiddle() throws {
            try master.force()
            _ = try watch(1) { $0.label?.contains("test") == true }
            master.killMaster()
            // The source cannot be reached: stale, never succeeded or stalled.
            #expect(try watch(1, within: 10) { $0.phase == "stale" }.last?.phase == "stale")
            #expect(follower.stderr.contains("cannot connect to 127.0.0.1:\(master.webPort)"), "\(follower.stderr)")
            try master.startMaster()
            // Buildbot retries the build the crash interrupted: the same request, the same job.
            let after = try watch(1, within: 40) { $0.phase == "succeeded" }
            #expect(after.contains { $0.phase == "active" })
            #expect(follower.stderr.contains("reachable again"), "\(follower.stderr)")
        }
    }
}
