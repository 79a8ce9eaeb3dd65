import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a user does, in real time, with the programs found on PATH.
extension EndToEnd {
@Suite("Journeys, end to end")
struct JourneyTests {
    static let examples = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("examples")

    /// Regression: `headway-sim serve` run by name from PATH found no board preset ("known: ").
    @Test func anInstalledSimulatorFindsItsPresetsFromAnyDirectory() throws {
        let service = try SimulatedService.installed(arguments: ["--board", "raspberry-pi-5", "--hat", "pimoroni-blinkt", "--hat", "adafruit-pioled"])
        #expect(service.isRunning, "\(service.logged)")
        // The socket exists a moment before the line saying what the service drives is logged.
        #expect(BackgroundProcess.eventually(within: 3) {
            service.logged.contains("driving blinkt, pioled from Raspberry Pi 5 with Pimoroni Blinkt!, Adafruit PiOLED")
        }, "\(service.logged)")
        let unknown = try SimulatedService.installed(arguments: ["--board", "raspberry-pi-5", "--hat", "pi-hat"])
        #expect(unknown.waitForExit() == 1)
        #expect(unknown.logged.contains("\"pi-hat\" is not a HAT preset; the HATs are adafruit-7segment, adafruit-8x8-matrix, adafruit-bicolour-bargraph, adafruit-mini-pitft-1in14, "), "\(unknown.logged)")
    }

    /// Regression: a reload of a file with a typo made the service exit (and leave its socket).
    @Test func aBrokenReloadKeepsTheJobsAndTheConfigurationInForce() throws {
        let service = try SimulatedService()
        try service.headway(["--job", "kept", "begin", "--label", "Build"])
        let good = try String(contentsOf: service.config, encoding: .utf8)
        try (good + "outputs: [\n").write(to: service.config, atomically: true, encoding: .utf8)
        service.signal(SIGHUP)
        #expect(BackgroundProcess.eventually(within: 3) { service.logged.contains("reload failed, keeping the configuration in force") }, "\(service.logged)")
        #expect(service.logged.contains("rig.yaml:"), "says where in the file")
        #expect(service.isRunning)
        #expect(try service.status().map(\.job) == ["kept"])
        // The devices in force still show it.
        TestTime.sleep(0.5)
        let ring = try ppmPixels(try service.snapshot("kept").appendingPathComponent("ring.ppm"))
        #expect(ring.contains { $0 != (0, 0, 0) })
        try (good + "# edited\n").write(to: service.config, atomically: true, encoding: .utf8)
        service.signal(SIGHUP)
        #expect(BackgroundProcess.eventually(within: 3) { service.logged.contains("reloaded: driving") }, "\(service.logged)")
        #expect(try service.status().map(\.job) == ["kept"])
    }

    /// Regression: a short press paused only the picture; the command under `headway run` went on.
    @Test func aShortPressReallyPausesTheCommandUnderRun() throws {
        let service = try SimulatedService()
        let run = try BackgroundProcess(
            Binaries.url("headway"), ["--job", "r", "run", "--", "sh", "-c", "i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo \"$i/400\"; sleep 0.05; done"],
            environment: ["HEADWAY_SOCKET": service.socket])
        #expect(try BackgroundProcess.eventually(within: 5) { try service.status().first?.phase == "active" })
        let command = try #require(BackgroundProcess.children(of: run.pid).first)
        #expect(try service.press(long: false).first?.contains("\"ok\":true") == true)
        #expect(BackgroundProcess.eventually(within: 2) { BackgroundProcess.state(of: command) == "T" }, "the command is stopped")
        #expect(try service.status().first?.phase == "paused")
        // What was stopped, in words: "sh and its child", never "its 1 children".
        #expect(BackgroundProcess.eventually(within: 2) { run.stderr.contains("r paused: sh") }, "\(run.stderr)")
        #expect(!run.stderr.contains(" 1 children") && !run.stderr.contains(" 0 children"), "\(run.stderr)")
        let before = run.stdout
        TestTime.sleep(0.6)
        #expect(run.stdout == before, "no output while paused")
        #expect(try service.press(long: false).first?.contains("\"ok\":true") == true)
        #expect(BackgroundProcess.eventually(within: 2) { run.stdout.count > before.count }, "it goes on")
        #expect(try service.status().first?.phase == "active")
        // The CLI pauses and resumes it too.
        #expect(try service.headway(["--strict", "--job", "r", "pause"]).status == 0)
        #expect(BackgroundProcess.eventually(within: 2) { BackgroundProcess.state(of: command) == "T" })
        #expect(try service.headway(["--strict", "--job", "r", "resume"]).status == 0)
        #expect(BackgroundProcess.eventually(within: 2) { BackgroundProcess.state(of: command) != "T" })
        run.signal(SIGTERM)
        #expect(run.waitForExit() == 143)
    }

    /// A job nothing can stop is not shown paused: the pause is refused with the reason.
    @Test func pausingAJobNothingCanStopIsRefused() throws {
        let service = try SimulatedService()
        try service.headway(["--job", "hook", "begin"])
        let soft = try service.headway(["--job", "hook", "pause"])
        #expect(soft.status == 0 && soft.stderr.contains("cannot be paused") && soft.stderr.contains("headway run"), "\(soft.stderr)")
        #expect(try service.headway(["--strict", "--job", "hook", "pause"]).status == 1)
        #expect(try service.status().first?.phase != "paused")
    }

    /// Regression: Ctrl-C or SIGTERM (how CI cancels) on `headway run` showed the job as failed.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interruptingRunCancelsTheJob(signal: Int32, status: Int32) throws {
        let service = try SimulatedService()
        let run = try BackgroundProcess(Binaries.url("headway"), ["--job", "i", "run", "--", "sleep", "30"], environment: ["HEADWAY_SOCKET": service.socket])
        #expect(try BackgroundProcess.eventually(within: 5) { try service.status().first?.phase == "active" })
        run.signal(signal)
        #expect(run.waitForExit(seconds: 5) == status)
        // Its last words may still be in the socket when it has gone: the service reads them next.
        #expect(try BackgroundProcess.eventually(within: 1) { try service.status().first?.phase == "cancelled" })
    }

    /// Regression: labels over 120 characters were refused (the job never existed), and escapes in
    /// labels reached the terminals of `status` and `watch`.
    @Test func longAndHostileLabelsAreKeptAndCleaned() throws {
        let service = try SimulatedService()
        let long = String(repeating: "gitlab-job-name-", count: 20)
        #expect(try service.headway(["--strict", "--job", "long", "begin", "--label", long]).status == 0)
        #expect(try service.status().first?.label == long)
        let watch = try BackgroundProcess(Binaries.url("headway"), ["watch"], environment: ["HEADWAY_SOCKET": service.socket])
        TestTime.sleep(0.3)
        let hostile = "Deploy \u{1B}]0;owned\u{07}\u{1B}[31mred\nsecond line\r\u{9B}2J"
        #expect(try service.headway(["--strict", "--job", "evil", "begin", "--label", hostile]).status == 0)
        try service.headway(["--job", "evil", "cancel"])
        let table = try service.headway(["status"]).stdout
        #expect(BackgroundProcess.eventually(within: 2) { watch.stdout.contains("evil") })
        watch.signal(SIGTERM)
        _ = watch.waitForExit()
        for output in [table, watch.stdout] {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" || $0 == "\u{9B}" }, "\(output.debugDescription)")
        }
        let line = try #require(table.split(separator: "\n").first { $0.contains("evil") })
        #expect(line.contains("Deploy") && line.contains("second line"), "the label stays readable on one line: \(line)")
    }

    /// Regression: `set ''`, `set abc` and `set 1e400` exited 2 (breaking `set -e` hooks) with
    /// the whole usage text.
    @Test(arguments: ["", "abc", "1e400", "50/0", "120%"])
    func aWrongValueWarnsAndTheHookGoesOn(value: String) throws {
        let service = try SimulatedService()
        try service.headway(["--job", "v", "begin"])
        let run = try service.headway(["--job", "v", "set", value])
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("headway: warning:") && lines[1].hasPrefix("usage: headway set"), "\(run.stderr)")
        #expect(try service.headway(["--strict", "--job", "v", "set", value]).status == 2)
    }

    /// Regression: `run` missed the plainest progress line, `3/10`, and took a --pattern without
    /// capture groups silently.
    @Test func runReadsNOfMAndChecksItsPattern() throws {
        let service = try SimulatedService()
        let run = try service.headway(["--job", "n", "run", "--", "sh", "-c", "echo 3/10; sleep \(TestTime.scaled(0.6)); echo 7/10; sleep \(TestTime.scaled(0.6))"])
        #expect(run.status == 0)
        // Its last words may still be in the socket when it has gone: the service reads them next.
        #expect(try BackgroundProcess.eventually(within: 1) { try service.status().first?.phase == "succeeded" })
        #expect(try service.status().first?.total == 10)
        let bad = try service.headway(["--job", "p", "run", "--pattern", #"\d+ of \d+"#, "--", "true"])
        #expect(bad.status == 2 && bad.stderr.contains("capture group"), "\(bad.stderr)")
    }

    /// Countdowns from the command line, and a job that hides its percentage.
    @Test func countdownsAndAHiddenPercentage() throws {
        let service = try SimulatedService()
        #expect(try service.headway(["--strict", "--job", "tea", "begin", "--label", "Tea", "--countdown", "\(TestTime.scaled(4))s"]).status == 0)
        #expect(try service.headway(["--strict", "--job", "quiet", "begin", "--total", "10", "--no-percent"]).status == 0)
        try service.headway(["--job", "quiet", "set", "5"])
        TestTime.sleep(2)
        let jobs = try service.status()
        let tea = try #require(jobs.first { $0.job == "tea" })
        #expect(tea.percent == nil && tea.countdown && (TestTime.scaled(1)...TestTime.scaled(3)).contains(tea.etaSeconds ?? -1), "\(tea)")
        // The table reads it in time, never as a falling percentage.
        let table = try service.headway(["status"]).stdout
        let teaRow = table.split(separator: "\n").first { $0.hasPrefix("tea ") } ?? ""
        #expect(teaRow.contains("s left of") && !teaRow.contains("%"), "\(table)")
        #expect(jobs.first { $0.job == "quiet" }?.value == 5)
        // --until: a time of day later today (or tomorrow), or a date; never one in the past.
        let past = try service.headway(["--job", "late", "begin", "--until", "2020-01-01T00:00:00Z"])
        #expect(past.status == 0 && past.stderr.contains("in the past"), "\(past.stderr)")
        TestTime.sleep(2.5)
        #expect(try service.status().first { $0.job == "tea" }?.phase == "succeeded", "a countdown that ran out succeeded")
    }
}
}

/// The acceptance journey in real time: nothing fast-forwarded.
@Suite("A CI job in real time")
struct RealTimeJourneyTests {
    /// Regression: a job started by a runner's hook that reports no progress read "stalled"
    /// (amber) 30 s in. With the default configuration, found and run as installed, it reads as
    /// running after 40 s of silence, and ends neutral when the completed hook knows no result.
    @Test func aHookStartedJobReadsRunningAfterFortySecondsOfSilence() throws {
        let service = try SimulatedService.installed()
        let directory = EndToEnd.HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = ["GITHUB_RUN_ID": "9", "GITHUB_JOB": "build", "GITHUB_REPOSITORY": "acme/widgets", "HEADWAY_SOCKET": service.socket]
        let hooks = EndToEnd.JourneyTests.examples.appendingPathComponent("github-actions")
        let started = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [hooks.appendingPathComponent("job-started.sh").path], environment: env, directory: directory)
        #expect(started.status == 0, "\(started.stderr)")
        usleep(40_000_000)
        let job = try #require(try service.status().first)
        #expect(job.job == "gh-9-build" && job.phase == "active", "\(job)")
        let ring = try ppmPixels(try service.snapshot("forty").appendingPathComponent("ring.ppm"))
        #expect(ring.contains { $0 != (0, 0, 0) }, "the ring shows it")
        #expect(ring.allSatisfy { $0.0 <= $0.2 + 8 }, "never amber: \(ring)")
        let completed = try SimulatedService.run(URL(fileURLWithPath: "/bin/bash"), [hooks.appendingPathComponent("job-completed.sh").path], environment: env, directory: directory)
        #expect(completed.status == 0)
        #expect(try service.status().first?.phase == "ended")
    }
}
