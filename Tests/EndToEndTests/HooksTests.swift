import Foundation
import Testing

/// The job-runner hooks in examples/, run with their runners' variables against the simulator.
extension EndToEnd {
@Suite("Job-runner hooks")
struct HooksTests {
    static let examples = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("examples")

    func hook(_ service: SimulatedService, _ path: String, _ environment: [String: String]) throws -> SimulatedService.Run {
        try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [Self.examples.appendingPathComponent(path).path], environment: environment.merging(["HEADWAY_SOCKET": service.socket]) { $1 })
    }

    @Test func githubActions() throws {
        let service = try SimulatedService()
        let env = ["GITHUB_RUN_ID": "1234", "GITHUB_JOB": "test", "GITHUB_REPOSITORY": "acme/widgets"]
        #expect(try hook(service, "github-actions/job-started.sh", env).status == 0)
        var job = try #require(try service.status().first)
        #expect(job.job == "gh-1234-test" && job.label == "widgets test")
        // A failing job reports itself (after the grace delay: quicker jobs are never shown); the
        // completed hook keeps that outcome and still succeeds.
        usleep(500_000)
        try service.headway(["fail"], environment: env)
        let completed = try hook(service, "github-actions/job-completed.sh", env)
        #expect(completed.status == 0)
        job = try #require(try service.status().first)
        #expect(job.phase == "failed")
    }

    @Test func gitlabRunner() throws {
        let service = try SimulatedService()
        let env = ["CI_JOB_ID": "42", "CI_PROJECT_NAME": "widgets", "CI_JOB_NAME": "lint"]
        #expect(try hook(service, "gitlab/pre_build_script.sh", env).status == 0)
        usleep(500_000)
        #expect(try hook(service, "gitlab/post_build_script.sh", env.merging(["CI_JOB_STATUS": "canceled"]) { $1 }).status == 0)
        #expect(try service.status().first?.phase == "cancelled")
    }

    @Test(arguments: [("0", "succeeded"), ("2", "failed")])
    func buildkite(exitStatus: String, phase: String) throws {
        let service = try SimulatedService()
        let env = ["BUILDKITE_JOB_ID": "job-\(exitStatus)", "BUILDKITE_PIPELINE_SLUG": "widgets", "BUILDKITE_LABEL": ":hammer: build"]
        #expect(try hook(service, "buildkite/hooks/pre-command", env).status == 0)
        usleep(500_000)
        #expect(try hook(service, "buildkite/hooks/post-command", env.merging(["BUILDKITE_COMMAND_EXIT_STATUS": exitStatus]) { $1 }).status == 0)
        #expect(try service.status().first?.phase == phase)
    }

    @Test func cronBackupWithRsync() throws {
        // A backup this small is over in milliseconds: without a grace delay it is still shown.
        let service = try SimulatedService(grace: 0)
        let source = service.folder.appendingPathComponent("source"), target = service.folder.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        for i in 0..<20 { try Data(repeating: UInt8(i), count: 200_000).write(to: source.appendingPathComponent("file\(i)")) }
        let run = try hook(service, "cron/backup.sh", ["SOURCE": source.path + "/", "TARGET": target.path + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("file19").path))
        let job = try #require(try service.status().first)
        #expect(job.job.hasPrefix("backup-") && job.label == "Nightly backup" && job.phase == "succeeded")
    }

    @Test func hooksWithoutADaemonStillSucceed() throws {
        let env = ["HEADWAY_SOCKET": "/nonexistent/headway.sock", "BUILDKITE_JOB_ID": "x", "BUILDKITE_COMMAND_EXIT_STATUS": "0"]
        for path in ["buildkite/hooks/pre-command", "buildkite/hooks/post-command"] {
            let run = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [Self.examples.appendingPathComponent(path).path], environment: env)
            #expect(run.status == 0)
        }
    }
}
}
