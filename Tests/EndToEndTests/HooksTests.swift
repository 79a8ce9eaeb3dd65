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

    /// GitHub tells its completed hook nothing about the result: the job ends neutral ("ended")
    /// unless the workflow reported one, which stands.
    @Test func githubActions() throws {
        let service = try SimulatedService()
        let env = ["GITHUB_RUN_ID": "1234", "GITHUB_JOB": "test", "GITHUB_REPOSITORY": "acme/widgets"]
        #expect(try hook(service, "github-actions/job-started.sh", env).status == 0)
        var job = try #require(try service.status().first)
        #expect(job.job == "gh-1234-test" && job.label == "widgets test")
        TestTime.sleep(0.5)
        #expect(try hook(service, "github-actions/job-completed.sh", env).status == 0)
        #expect(try service.status().first?.phase == "ended", "no result claimed")

        let reported = ["GITHUB_RUN_ID": "1235", "GITHUB_JOB": "test", "GITHUB_REPOSITORY": "acme/widgets"]
        #expect(try hook(service, "github-actions/job-started.sh", reported).status == 0)
        TestTime.sleep(0.5)
        // The workflow's last step: `headway finish "${{ job.status }}"`.
        try service.headway(["finish", "failure"], environment: reported)
        #expect(try hook(service, "github-actions/job-completed.sh", reported).status == 0)
        job = try #require(try service.status().first { $0.job == "gh-1235-test" })
        #expect(job.phase == "failed")
    }

    /// What the post_build_script hook makes of each CI_JOB_STATUS a runner may pass: reaching it
    /// means the script succeeded ("running" there); no status or an unknown one never reads as a
    /// success.
    @Test(arguments: [("running", "succeeded"), ("success", "succeeded"), ("failed", "failed"), ("canceled", "cancelled"), (nil, "ended"), ("skipped", "ended")])
    func gitlabRunner(status: String?, phase: String) throws {
        let service = try SimulatedService()
        var env = ["CI_JOB_ID": "42", "CI_PROJECT_NAME": "widgets", "CI_JOB_NAME": "lint"]
        #expect(try hook(service, "gitlab/pre_build_script.sh", env).status == 0)
        TestTime.sleep(0.5)
        env["CI_JOB_STATUS"] = status
        #expect(try hook(service, "gitlab/post_build_script.sh", env).status == 0)
        #expect(try service.status().first?.phase == phase)
    }

    /// A GitLab job whose script fails never reaches post_build_script: its build shell exits, and
    /// the service, watching that shell since pre_build_script, shows the job failed within seconds.
    @Test func aFailingGitlabScriptShowsFailed() throws {
        let service = try SimulatedService()
        let pre = Self.examples.appendingPathComponent("gitlab/pre_build_script.sh").path
        let post = Self.examples.appendingPathComponent("gitlab/post_build_script.sh").path
        // The build shell as the runner writes it: hooks and script in one shell that stops at
        // the first failure.
        let script = "set -eo pipefail; bash \(pre); sleep 1; false; bash \(post)"
        let shell = try BackgroundProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script],
            environment: ["HEADWAY_SOCKET": service.socket, "CI_JOB_ID": "43", "CI_PROJECT_NAME": "widgets", "CI_JOB_NAME": "test", "CI_JOB_STATUS": "running"])
        #expect(shell.waitForExit() == 1)
        let ended = Date()
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first?.phase == "failed" })
        #expect(Date().timeIntervalSince(ended) < 2)
    }

    @Test(arguments: [("0", "succeeded"), ("2", "failed"), (nil, "ended")])
    func buildkite(exitStatus: String?, phase: String) throws {
        let service = try SimulatedService()
        var env = ["BUILDKITE_JOB_ID": "job-\(exitStatus ?? "none")", "BUILDKITE_PIPELINE_SLUG": "widgets", "BUILDKITE_LABEL": ":hammer: build"]
        #expect(try hook(service, "buildkite/hooks/pre-command", env).status == 0)
        TestTime.sleep(0.5)
        env["BUILDKITE_COMMAND_EXIT_STATUS"] = exitStatus
        #expect(try hook(service, "buildkite/hooks/post-command", env).status == 0)
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

    static let hooks = [
        "github-actions/job-started.sh", "github-actions/job-completed.sh", "gitlab/pre_build_script.sh", "gitlab/post_build_script.sh",
        "buildkite/hooks/pre-command", "buildkite/hooks/post-command",
    ]

    @Test(arguments: hooks)
    func hooksWithoutADaemonStillSucceed(path: String) throws {
        let env = ["HEADWAY_SOCKET": "/nonexistent/headway.sock", "BUILDKITE_JOB_ID": "x", "GITHUB_RUN_ID": "1", "CI_JOB_ID": "2", "BUILDKITE_COMMAND_EXIT_STATUS": "0"]
        let run = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [Self.examples.appendingPathComponent(path).path], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Regression: where `headway` was not installed the hooks exited 127, failing the runner's job.
    @Test(arguments: hooks)
    func hooksWithoutHeadwayInstalledStillSucceed(path: String) throws {
        let env = ["PATH": "/usr/bin:/bin", "BUILDKITE_JOB_ID": "x", "GITHUB_RUN_ID": "1", "CI_JOB_ID": "2"]
        let run = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [Self.examples.appendingPathComponent(path).path], environment: env)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
    }
}
}
