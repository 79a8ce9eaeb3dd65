import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `headway` driving `headway-sim serve`, checked through what the virtual devices decoded.
extension EndToEnd {
@Suite("headway and the service, end to end")
struct ServiceTests {
    @Test func severalJobsAtOnce() throws {
        let service = try SimulatedService()
        for (job, total) in [("a", "100"), ("b", "100"), ("c", "100")] {
            #expect(try service.headway(["--job", job, "begin", "--label", "Job \(job)", "--total", total]).status == 0)
        }
        try service.headway(["--job", "a", "set", "90"])
        try service.headway(["--job", "b", "set", "50%"])
        try service.headway(["--job", "c", "set", "10/100", "--label", "Newest job"])
        TestTime.sleep(1.2)
        let jobs = try service.status()
        #expect(jobs.map(\.job) == ["a", "b", "c"])
        #expect(jobs.map(\.phase) == ["active", "active", "active"])
        let pictures = try service.snapshot("three")
        // The 60-LED strip shows the three jobs side by side, oldest first: 20 LEDs each.
        let strip = try ppmPixels(pictures.appendingPathComponent("strip.ppm"))
        let lit = strip.map { $0.2 > 100 }
        #expect(lit[0..<20].filter { $0 }.count >= 17, "job a at 90 %")
        #expect(lit[20..<40].filter { $0 }.count == 10, "job b at 50 %")
        #expect(lit[40..<60].filter { $0 }.count == 2, "job c at 10 %")
        // The OLED shows the newest job.
        let table = try service.headway(["status"]).stdout
        #expect(table.contains("Newest job") && table.contains("90%"))
        let oled = try Data(contentsOf: pictures.appendingPathComponent("oled.pbm"))
        #expect(oled.count > 1000)
    }

    @Test func aStalledJobShowsStalled() throws {
        let service = try SimulatedService(stallAfter: 1)
        try service.headway(["--job", "s", "begin", "--label", "Upload", "--total", "10"])
        try service.headway(["--job", "s", "set", "5"])
        TestTime.sleep(1.8)
        #expect(try service.status().first?.phase == "stalled")
        let ring = try ppmPixels(try service.snapshot("stalled").appendingPathComponent("ring.ppm"))
        let fill = ring[0]
        #expect(fill.0 > fill.2, "the fill turns amber: \(fill)")
        try service.headway(["--job", "s", "set", "6"])
        #expect(try service.status().first?.phase == "active")
    }

    @Test func aLongPressCancelsTheJobUnderRun() throws {
        let service = try SimulatedService()
        let process = Process()
        process.executableURL = Binaries.url("headway")
        process.arguments = ["--job", "r", "run", "--", "sh", "-c", "i=0; while [ $i -lt 100 ]; do i=$((i+1)); echo \"$i%\"; sleep \(TestTime.scaled(0.1)); done"]
        process.environment = ProgramEnvironment.with(["HEADWAY_SOCKET": service.socket])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let started = Date()
        try process.run()
        TestTime.sleep(1.5)
        #expect(try service.press(long: true).first?.contains("\"ok\":true") == true)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143, "the command was stopped with SIGTERM: \(stderr)")
        #expect(stderr.contains("cancel requested for r"))
        #expect(Date().timeIntervalSince(started) < TestTime.scaled(6))
        #expect(stdout.contains("10%"), "output passes through")
        #expect(try service.status().first?.phase == "cancelled")
    }

    /// `headway run` holds its job for its command's whole life through the client core: the
    /// service restarting in the middle costs one warning, and the new service is given the job
    /// again — its running time, its latest progress — and its controller, so a press still
    /// reaches the command.
    @Test func runTellsARestartedServiceItsJobAgain() throws {
        let folder = EndToEnd.HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("headway.sock").path
        var service: SimulatedService? = try SimulatedService(socket: socket)
        let run = try BackgroundProcess(Binaries.url("headway"), [
            "--job", "r", "run", "--", "sh", "-c", "i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo \"$i/400\"; sleep \(TestTime.scaled(0.05)); done",
        ], environment: ["HEADWAY_SOCKET": socket])
        defer { run.signal(SIGKILL) }
        #expect(BackgroundProcess.eventually(within: 3) { (try? service!.status().first?.value ?? 0) ?? 0 >= 5 })
        service!.signal(SIGTERM)
        #expect(service!.waitForExit() != nil)
        service = nil
        TestTime.sleep(0.5)
        service = try SimulatedService(socket: socket)
        var job: JobStatus?
        #expect(BackgroundProcess.eventually(within: 8) {
            job = try? service!.status().first { $0.job == "r" }
            return job.map { $0.phase == "active" && ($0.value ?? 0) > 20 } == true
        }, "begun again, shown at once with its progress: \(String(describing: job)) \(run.stderr)")
        #expect(run.stderr.components(separatedBy: "headway: warning:").count - 1 == 1, "one warning: \(run.stderr)")
        #expect(try service!.press(long: true).first?.contains("\"ok\":true") == true)
        #expect(run.waitForExit() == 143, "the press reached the command: \(run.stderr)")
        #expect(try service!.status().first { $0.job == "r" }?.phase == "cancelled")
    }

    @Test func runPassesTheExitStatusAndProgress() throws {
        let service = try SimulatedService()
        let run = try service.headway(["--job", "x", "run", "--pattern", #"done (\d+) of (\d+)"#, "--", "sh", "-c", "echo done 3 of 4; sleep 0.5; echo done 4 of 4; exit 7"])
        #expect(run.status == 7)
        #expect(run.stdout == "done 3 of 4\ndone 4 of 4\n")
        let job = try #require(try service.status().first)
        #expect(job.phase == "failed" && job.total == 4)
    }

    /// The command may start without "--", as after nice or env: from its first word on, every
    /// option is the command's (printf's --total here, as restic's --repo would be).
    @Test func runsCommandStartsAtItsFirstWord() throws {
        let service = try SimulatedService()
        let run = try service.headway(["--job", "w", "run", "--label", "Words", "printf", "%s\\n", "--total", "1/2", "2/2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "--total\n1/2\n2/2\n")
        let job = try #require(try service.status().first)
        // (Done within the grace delay, it may never have been shown: "hidden".)
        #expect(["succeeded", "hidden"].contains(job.phase) && job.label == "Words" && job.value == 2 && job.total == 2, "\(job)")
    }

    /// A job's process that reports its outcome and ends at once is shown with that outcome, not
    /// as a process that ended without one, even when the service takes both in one round.
    /// Stopping the service makes that round certain: the outcome waits in the socket and the
    /// process ends while the service cannot read; it reads both when it continues. `headway run`
    /// sends its outcome on the connection it holds, then exits; a hook's `done` comes on a new
    /// connection just before its runner ends.
    @Test func anOutcomeSentJustBeforeTheProcessEndsIsKept() throws {
        let service = try SimulatedService()
        let environment = ["HEADWAY_SOCKET": service.socket, "HEADWAY_TIMEOUT_MS": String(Int(300 * TestTime.scale))]
        let run = try BackgroundProcess(Binaries.url("headway"), ["--job", "run", "run", "--", "sleep", "1"], environment: environment)
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().contains { $0.job == "run" } })
        service.signal(SIGSTOP)
        #expect(run.waitForExit() == 0)
        service.signal(SIGCONT)
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first { $0.job == "run" }?.phase == "succeeded" }, "\(service.logged)")

        let runner = try BackgroundProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        #expect(try service.headway(["--job", "hook", "begin", "--pid", String(runner.pid)]).status == 0)
        service.signal(SIGSTOP)
        let done = try BackgroundProcess(Binaries.url("headway"), ["--job", "hook", "done"], environment: environment)
        #expect(done.waitForExit() == 0)
        runner.signal(SIGKILL)
        #expect(runner.waitForExit() != nil)
        service.signal(SIGCONT)
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first { $0.job == "hook" }?.phase == "succeeded" }, "\(service.logged)")
    }

    /// A service that stops answering for a moment (a daemon killed and started again by
    /// systemd): `headway run` warns once, and says when the job's progress is shown again, so
    /// its output does not leave the impression that it went unshown for good.
    @Test func runSaysWhenTheServiceAnswersAgain() throws {
        let service = try SimulatedService()
        let environment = ["HEADWAY_SOCKET": service.socket, "HEADWAY_TIMEOUT_MS": String(Int(300 * TestTime.scale))]
        let counting = "i=0; while [ $i -lt 25 ]; do i=$((i+1)); echo $i/25; sleep 0.2; done"
        let run = try BackgroundProcess(Binaries.url("headway"), ["--job", "blip", "run", "--", "sh", "-c", counting], environment: environment)
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().contains { $0.job == "blip" } })
        service.signal(SIGSTOP)
        let warnedWhileStopped = BackgroundProcess.eventually(within: 3) { run.stderr.contains("progress not shown") }
        #expect(warnedWhileStopped, "\(run.stderr)")
        service.signal(SIGCONT)
        #expect(run.waitForExit(seconds: 15) == 0)
        let said = run.stderr
        let warned = said.range(of: "progress not shown"), back = said.range(of: "the service answers again; the job's progress is shown")
        #expect(warned != nil && back != nil && warned!.lowerBound < back!.lowerBound, "\(said)")
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first { $0.job == "blip" }?.phase == "succeeded" }, "\(service.logged)")
    }

    @Test func pipeCountsBytes() throws {
        let service = try SimulatedService(grace: 0)
        let data = Data(repeating: 7, count: 300_000)
        let run = try service.headway(["--job", "p", "pipe", "--size", "300000"], stdin: data)
        #expect(run.status == 0)
        #expect(run.stdout.utf8.count == 300_000)
        // Its last words may still be in the socket when it has gone: the service reads them next.
        #expect(try BackgroundProcess.eventually(within: 1) { try service.status().first?.phase == "succeeded" })
        #expect(try service.status().first?.value == 300_000)
    }

    @Test func malformedInputGetsOneErrorEachAndNothingElseBreaks() throws {
        let service = try SimulatedService()
        try service.headway(["--job", "ok", "begin", "--total", "10"])
        let replies = try service.raw([
            "hello", #"{"v":1,"op":"update","job":"ok","value":"x"}"#, #"{"v":9,"op":"status"}"#,
            String(repeating: "z", count: 5000), #"{"v":1,"op":"update","job":"ok","value":4}"#,
        ])
        #expect(replies.count == 5, "\(replies)")
        let refusals = replies.prefix(4).map { line -> (ProtocolErrorCode, String?)? in
            guard case .error(let error)? = Reply.parse(line) else { return nil }
            return (error.code, error.field)
        }
        #expect(refusals[0]?.0 == .malformed && refusals[0]?.1 == nil)
        #expect(refusals[1]?.0 == .invalidMember && refusals[1]?.1 == "value")
        #expect(refusals[2]?.0 == .unsupportedVersion && refusals[2]?.1 == "v")
        #expect(refusals[3]?.0 == .lineTooLong && refusals[3]?.1 == nil)
        #expect(replies[4] == #"{"v":1,"ok":true}"#)
        #expect(try service.status().first?.value == 4)
    }

    @Test func anAbsentDaemonNeverBreaksAHook() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-daemon-\(UUID().uuidString).sock").path
        let run = try SimulatedService.run(Binaries.url("headway"), ["--job", "j", "set", "5"], environment: ["HEADWAY_SOCKET": missing])
        #expect(run.status == 0)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("warning"))
        let strict = try SimulatedService.run(Binaries.url("headway"), ["--strict", "--job", "j", "set", "5"], environment: ["HEADWAY_SOCKET": missing])
        #expect(strict.status == 1)
    }

    @Test func aSilentDaemonIsGivenUpOnWithin200Milliseconds() throws {
        // A socket that accepts connections (the kernel's backlog) but never answers.
        let mute = MuteSocket()
        defer { withExtendedLifetime(mute) {} }
        let path = mute.path
        let run = try SimulatedService.run(Binaries.url("headway"), ["--job", "j", "set", "5"], environment: ["HEADWAY_SOCKET": path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("did not answer in time"))
        #expect(run.seconds < TestTime.scaled(0.5), "gave up after \(run.seconds) s")
    }

    /// A slow machine gives every hook more time through the environment; a wrong value there is
    /// a hook's warning like any other.
    @Test func theTimeBudgetComesFromTheEnvironmentToo() throws {
        let mute = MuteSocket()
        defer { withExtendedLifetime(mute) {} }
        let path = mute.path
        let budget = 0.8 * TestTime.scale
        let run = try SimulatedService.run(Binaries.url("headway"), ["--job", "j", "set", "5"], environment: ["HEADWAY_SOCKET": path, "HEADWAY_TIMEOUT_MS": String(budget * 1000)])
        #expect(run.status == 0 && run.stderr.contains("did not answer in time"))
        #expect(run.seconds >= budget && run.seconds < budget + TestTime.scaled(0.5), "gave up after \(run.seconds) s")
        let wrong = try SimulatedService.run(Binaries.url("headway"), ["--job", "j", "set", "5"], environment: ["HEADWAY_SOCKET": path, "HEADWAY_TIMEOUT_MS": "soon"])
        #expect(wrong.status == 0 && wrong.stderr.contains("HEADWAY_TIMEOUT_MS=\"soon\" is not a number"), "\(wrong.stderr)")
    }

    @Test func systemdReadinessAndReloadKeepTheSocket() throws {
        // A datagram socket standing in for systemd's NOTIFY_SOCKET.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in path.utf8.enumerated() { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        defer {
            close(fd)
            unlink(path)
        }
        let service = try SimulatedService(environment: ["NOTIFY_SOCKET": path])
        func nextMessage() -> String {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 3000) == 1 else { return "" }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = recv(fd, &buffer, buffer.count, 0)
            return String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
        }
        #expect(nextMessage() == "READY=1\nSTATUS=driving ring, strip, oled, bar, stick from Raspberry Pi 4")
        try service.headway(["--job", "kept", "begin"])
        // SIGHUP (systemctl reload) reloads the configuration on the same socket; jobs stay.
        service.signal(SIGHUP)
        #expect(nextMessage().contains("RELOADING=1"))
        let ready = nextMessage()
        #expect(ready.contains("READY=1") && ready.contains("STATUS=driving"))
        #expect(try service.headway(["--strict", "--job", "after", "begin"]).status == 0)
        #expect(try service.status().map(\.job) == ["kept", "after"])
    }

    @Test func jobIdsComeFromTheRunner() throws {
        let service = try SimulatedService()
        try service.headway(["begin"], environment: ["GITHUB_RUN_ID": "77", "GITHUB_JOB": "build"])
        try service.headway(["begin"], environment: ["CI_JOB_ID": "88"])
        try service.headway(["begin"], environment: ["BUILDKITE_JOB_ID": "uuid-1"])
        #expect(try service.status().map(\.job) == ["gh-77-build", "gl-88", "bk-uuid-1"])
        // A hook outside a runner has no job id: a warning, never a failed job (but 2 with --strict).
        let missing = try service.headway(["begin"])
        #expect(missing.status == 0 && missing.stderr.contains("--job ID is needed"))
        #expect(try service.headway(["--strict", "begin"]).status == 2)
        // run and pipe hold their job for their whole life: outside a runner, the program's name
        // and headway's process id name it.
        let run = try service.headway(["run", "/bin/echo", "1/1"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(try service.status().contains { $0.job.hasPrefix("echo-") && Int($0.job.dropFirst(5)) != nil })
    }
}
}
