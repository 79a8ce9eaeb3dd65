import Foundation
import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySimulator
import HeadwaySystem
import Testing

/// CI jobs as each runner's hooks drive them, over their real length (25 minutes) on a manual clock,
/// against the service core with the simulator's ring, strip and OLED: what a person sees at every
/// minute, not only the mechanisms.
@Suite("CI journeys")
struct JourneyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var packageRoot: URL { Self.packageRoot }

    /// The service with the default timings (30 s stall, 10 min lose, 6 h alive without reports).
    final class Board {
        let clock = ManualClock()
        let ring: SimulatedLEDChain
        let oled: SimulatedOLED
        let core: ServiceCore
        let state: URL

        init() {
            state = FileManager.default.temporaryDirectory.appendingPathComponent("journey-\(UUID().uuidString)")
            ring = try! .ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
            oled = SimulatedOLED(name: "oled", configuration: try! OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: clock))
            core = ServiceCore(devices: Self.devices(ring, oled), clock: clock, durations: DurationStore(folder: state.path, logger: .standardError(label: "test")))
        }

        deinit { try? FileManager.default.removeItem(at: state) }

        static func devices(_ ring: SimulatedLEDChain, _ oled: SimulatedOLED) -> ServiceDevices {
            ServiceDevices(
                outputs: [
                    ServiceOutput(name: "ring", medium: .leds(LEDOutput(ring.driver, layout: .ring())), framesPerSecond: 50),
                    ServiceOutput(name: "oled", medium: .display(DisplayOutput(oled.driver)), framesPerSecond: 20),
                ], buttons: [])
        }

        @discardableResult
        func send(_ request: Request) -> Reply? {
            let peer = Peer(connection: 1, credentials: PeerCredentials(pid: 4242, uid: 1000, gid: 1000))
            return Reply.parse(core.handle(line: request.line, from: peer).reply)
        }

        /// Lets time pass to `time`, drawing a frame there.
        func wait(until time: Seconds) {
            clock.set(to: max(clock.now, time))
            _ = core.tick()
        }

        func status(_ job: String) -> JobStatus? {
            guard case .jobs(let jobs, _, _, _)? = send(.status) else { return nil }
            return jobs.first { $0.job == job }
        }

        /// No LED of the ring shows the stalled colour (amber: red well above blue).
        var ringIsNotAmber: Bool { ring.levels.allSatisfy { Int($0.red) <= Int($0.blue) + 8 } }
        var ringIsLit: Bool { ring.levels.contains { $0 != .off } }
        var oledText: String { "\(oled.picture.litCount())" }
    }

    /// A process standing in for a runner's worker: alive until killed. Killed with SIGKILL, as
    /// test threads hand their blocked signals (SIGTERM among them) on to the processes they start.
    final class Runner {
        let process = Process()

        init() throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["3600"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }

        func die() {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }

        deinit { if process.isRunning { die() } }
    }

    /// What each runner's started hook sends (examples/*), and how its completed hook ends the job.
    enum Hook: String, CaseIterable {
        case github, gitlab, buildkite

        func begin(job: String, runner: Runner?) -> Request {
            switch self {
            case .github: .begin(job: job, BeginOptions(label: "widgets build", name: "acme/widgets/ci/build", pid: runner?.pid))
            case .gitlab: .begin(job: job, BeginOptions(label: "widgets build", name: "acme/widgets/build", pid: runner?.pid))
            case .buildkite: .begin(job: job, BeginOptions(label: "widgets :hammer:", name: "widgets/build"))
            }
        }

        var watchesItsRunner: Bool { self != .buildkite }
    }

    /// Regression: a hook-started job that never reports progress — the normal CI job — read
    /// "stalled" (amber) 30 s in and was lost and forgotten after 10 minutes, so a job longer than
    /// that never showed its result. It reads as running for all of its 25 minutes, then shows
    /// success or failure.
    @Test(arguments: Hook.allCases, [Outcome.succeeded, .failed])
    func aTwentyFiveMinuteJobReadsRunningThroughoutAndEndsRight(hook: Hook, outcome: Outcome) throws {
        let board = Board()
        let runner = try Runner()
        #expect(board.send(hook.begin(job: "job-1", runner: hook.watchesItsRunner ? runner : nil)) == .ok)
        for minute in stride(from: 0.5, through: 25, by: 0.5) {
            board.wait(until: minute * 60)
            let status = try #require(board.status("job-1"), "minute \(minute): the job is gone")
            #expect(status.phase == "active", "minute \(minute): \(status.phase)")
            #expect(board.ringIsLit && board.ringIsNotAmber, "minute \(minute): the ring \(board.ring.levels)")
        }
        #expect(board.send(.finish(job: "job-1", outcome: outcome)) == .ok)
        board.wait(until: 25 * 60 + 1)
        #expect(board.status("job-1")?.phase == outcome.rawValue)
        let lit = board.ring.levels.filter { $0 != .off }
        if outcome == .succeeded {
            #expect(lit.count == 24 && lit.allSatisfy { $0.green > $0.red && $0.green > $0.blue }, "green for success")
        } else {
            #expect(lit.allSatisfy { $0.red > $0.green && $0.red > $0.blue }, "red for failure")
        }
        board.wait(until: 25 * 60 + 10)
        #expect(board.status("job-1") == nil, "forgotten once its signal is over")
        #expect(!board.ringIsLit)
    }

    /// With history from earlier runs, a job that reports no progress is shown as an estimate (a
    /// dashed ring, "~" on the display, never 100 %), then as overdue once it runs past it.
    @Test func pastRunsGiveAnEstimateThenOverdue() throws {
        let board = Board()
        for (run, minutes) in [20.0, 22, 24].enumerated() {
            let start = board.clock.now
            board.send(Hook.github.begin(job: "run-\(run)", runner: nil))
            board.wait(until: start + minutes * 60)
            board.send(.finish(job: "run-\(run)", outcome: .succeeded))
            board.wait(until: start + minutes * 60 + 10)
        }
        // A failed run does not change the estimate.
        let failedStart = board.clock.now
        board.send(Hook.github.begin(job: "run-failed", runner: nil))
        board.wait(until: failedStart + 60)
        board.send(.finish(job: "run-failed", outcome: .failed))
        board.wait(until: failedStart + 70)
        #expect(abs((board.core.durations.expected(for: "acme/widgets/ci/build") ?? 0) - 22 * 60) < 0.01)

        let start = board.clock.now
        board.send(Hook.github.begin(job: "run-now", runner: nil))
        board.wait(until: start + 11 * 60)
        var status = try #require(board.status("run-now"))
        #expect(status.phase == "active" && status.estimate && status.percent == 50 && status.etaSeconds == 11 * 60)
        let levels = board.ring.levels
        #expect(levels[0] != levels[1] && levels[13] == levels[15], "half the ring, dashed: \(levels)")
        #expect(board.ringIsNotAmber)
        board.wait(until: start + 21.9 * 60)
        #expect(board.status("run-now")?.percent == 99, "never 100 % before the end")
        board.wait(until: start + 25 * 60)
        status = try #require(board.status("run-now"))
        #expect(status.phase == "active" && status.overdueSeconds == 180 && status.percent == 99)
        #expect(board.ring.levels.contains { $0.red > 40 && $0.blue > $0.green }, "the overdue colour")
        board.send(.finish(job: "run-now", outcome: .succeeded))
        board.wait(until: start + 25 * 60 + 2)
        #expect(board.status("run-now")?.phase == "succeeded")
        // The new run counts: the mean of the last three successes (22, 24 and 25 minutes).
        #expect(abs((board.core.durations.expected(for: "acme/widgets/ci/build") ?? 0) - (22 + 24 + 25) * 60 / 3) < 0.01)
    }

    /// Learned durations outlive the service: a new core on the same state folder knows them.
    @Test func learnedDurationsSurviveARestart() throws {
        let board = Board()
        board.send(Hook.gitlab.begin(job: "a", runner: nil))
        board.wait(until: 300)
        board.send(.finish(job: "a", outcome: .succeeded))
        // Written off the service's loop, within a second.
        let file = board.state.appendingPathComponent("durations").path
        for _ in 0..<40 where !FileManager.default.fileExists(atPath: file) { Thread.sleep(forTimeInterval: 0.05) }
        let restarted = DurationStore(folder: board.state.path, logger: .standardError(label: "test"))
        #expect(restarted.expected(for: "acme/widgets/build") == 300)
    }

    /// A build that reports its steps (`headway run --name … make`): 80 quick steps in 20 s, then
    /// 20 slow ones in 60 s. Its first run's rate promises the end far too soon; its next run, on
    /// a service restarted in between, reads the time from the first.
    @Test func aBuildsNextRunReadsItsTimeFromTheLast() throws {
        let board = Board()
        func build(_ job: String, steps: ClosedRange<Int>) {
            for step in steps {
                board.clock.set(to: step <= 80 ? Double(step) * 0.25 : 20 + Double(step - 80) * 3)
                board.send(.update(job: job, value: Double(step), total: 100, label: nil))
            }
        }
        board.send(.begin(job: "first", BeginOptions(label: "make", name: "make widgets")))
        build("first", steps: 1...80)
        board.wait(until: 20)
        #expect((board.status("first")?.etaSeconds ?? 0) < 30, "the first run has only its rate")
        build("first", steps: 81...100)
        board.wait(until: 80)
        board.send(.finish(job: "first", outcome: .succeeded))
        let file = board.state.appendingPathComponent("durations").path
        for _ in 0..<40 where (try? String(contentsOfFile: file, encoding: .utf8))?.contains("pace:") != true { Thread.sleep(forTimeInterval: 0.05) }

        let clock = ManualClock()
        clock.set(to: 1000)
        let restarted = ServiceCore(devices: .none, clock: clock, durations: DurationStore(folder: board.state.path, logger: .standardError(label: "test")))
        let peer = Peer(connection: 1, credentials: PeerCredentials(pid: 4242, uid: 1000, gid: 1000))
        func send(_ request: Request) { _ = restarted.handle(line: request.line, from: peer) }
        send(.begin(job: "second", BeginOptions(label: "make", name: "make widgets")))
        for step in 1...80 {
            clock.set(to: 1000 + Double(step) * 0.25)
            send(.update(job: "second", value: Double(step), total: 100, label: nil))
        }
        _ = restarted.tick()
        guard case .jobs(let jobs, _, _, _)? = Reply.parse(restarted.handle(line: Request.status.line, from: peer).reply) else {
            Issue.record("no status")
            return
        }
        let eta = try #require(jobs.first { $0.job == "second" }?.etaSeconds)
        #expect(abs(eta - 60) <= 1, "a minute left, as the last run took: \(eta) s")
    }

    /// A build followed at its server (Buildbot: five steps, the third taking most of the time)
    /// tells no rate while its long step runs: the ETA is what its earlier runs took, less the
    /// time it has run, and once that has run out it reads overdue, never "0 s".
    @Test func aBuildWhoseStepsTellNoRateReadsItsTimeFromEarlierRuns() throws {
        let board = Board()
        board.send(.begin(job: "googletest/1", BeginOptions(label: "googletest", name: "buildbot/googletest", follow: 3)))
        board.wait(until: 100)
        board.send(.finish(job: "googletest/1", outcome: .succeeded))
        board.wait(until: 110)
        let start = board.clock.now
        board.send(.begin(job: "googletest/2", BeginOptions(label: "googletest: compile (4/5)", name: "buildbot/googletest", follow: 3, elapsed: 20)))
        board.send(.update(job: "googletest/2", value: 3, total: 5, label: nil))
        for second in stride(from: 3.0, through: 60, by: 3) {
            board.wait(until: start + second)
            board.send(.alive(job: "googletest/2"))
        }
        let status = try #require(board.status("googletest/2"))
        #expect(status.phase == "active" && status.percent == 60)
        #expect(status.etaSeconds == 20, "100 s learned, 80 s run: \(String(describing: status.etaSeconds))")
        for second in stride(from: 63.0, through: 150, by: 3) {
            board.wait(until: start + second)
            board.send(.alive(job: "googletest/2"))
        }
        let late = try #require(board.status("googletest/2"))
        #expect(late.etaSeconds == nil && late.overdueSeconds == 70, "past the learned time: overdue, not 0 s")
    }

    /// A job whose runner process dies without reporting an end is failed, as soon as the kernel
    /// says the process ended.
    @Test func aJobWhoseRunnerDiesFailsWithinSeconds() throws {
        let board = Board()
        let runner = try Runner()
        #expect(board.send(Hook.github.begin(job: "doomed", runner: runner)) == .ok)
        board.wait(until: 300)
        let (pid, fd) = try #require(board.core.processDescriptors.first)
        #expect(pid == runner.pid)
        runner.die()
        #expect(!SystemIO.poll([(fd, .readable)], timeout: 2)[0].isEmpty, "the pidfd says so at once")
        let events = board.core.processEnded(pid)
        #expect(events == [JobEvent(.finished, job: "doomed", outcome: .failed)])
        board.wait(until: 301)
        #expect(board.status("doomed")?.phase == "failed")
        #expect(board.core.processDescriptors.isEmpty)
        // A job that ended first is not failed by its runner's end.
        let second = try Runner()
        board.send(Hook.github.begin(job: "fine", runner: second))
        board.send(.finish(job: "fine", outcome: .succeeded))
        second.die()
        #expect(board.core.processEnded(second.pid).isEmpty)
    }

    /// A process id that does not exist is refused with what to pass instead.
    @Test func anUnknownProcessIsRefused() {
        let board = Board()
        guard case .error(let error)? = board.send(.begin(job: "x", BeginOptions(pid: 4_000_000))) else { Issue.record("accepted"); return }
        #expect(error.field == "pid" && error.message.contains("no process 4000000") && error.message.contains("$PPID"))
    }

    /// A reload in the middle of a job (new devices, new timings) keeps the job, its liveness and
    /// its look; new jobs follow the new timings.
    @Test func aReloadInTheMiddleKeepsTheJob() throws {
        let board = Board()
        let runner = try Runner()
        board.send(Hook.github.begin(job: "long", runner: runner))
        board.wait(until: 600)
        let ring = try SimulatedLEDChain.ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: board.clock))
        let oled = SimulatedOLED(name: "oled", configuration: try OLEDConfiguration(controller: .ssd1306), bus: VirtualI2CBus(clock: board.clock))
        board.core.reconfigure(Board.devices(ring, oled), settings: ServiceSettings(policy: LifecyclePolicy(grace: 5)))
        board.wait(until: 601)
        #expect(board.status("long")?.phase == "active")
        #expect(ring.levels.contains { $0 != .off }, "the new ring shows it")
        #expect(board.core.processDescriptors.map(\.pid) == [runner.pid], "still watching its runner")
        board.send(.begin(job: "new", label: nil, total: nil))
        board.wait(until: 603)
        #expect(board.status("new")?.phase == "pending", "new jobs follow the new grace delay (5 s)")
    }

    /// A reload whose file has a typo (or whose devices do not open) keeps the job, and the
    /// configuration in force: its devices, its timings. A good file after that is taken.
    @Test func aBrokenReloadKeepsTheJobAndTheOldConfiguration() throws {
        let board = Board()
        let file = board.state.appendingPathComponent("rig.yaml")
        try FileManager.default.createDirectory(at: board.state, withIntermediateDirectories: true)
        let preset = try String(contentsOf: packageRoot.appendingPathComponent("Boards/simulator.yaml"), encoding: .utf8)
        try (preset + "timings:\n  grace: 1\n").write(to: file, atomically: true, encoding: .utf8)
        var current = try ConfigurationLoader.load(path: file.path)
        board.core.reconfigure(Board.devices(board.ring, board.oled), settings: current.settings)
        var opened = 0
        let reload = Reload(
            load: { () throws(ConfigurationError) in try ConfigurationLoader.load(path: file.path) },
            open: { _ in
                opened += 1
                return Board.devices(board.ring, board.oled)
            },
            logger: .standardError(label: "test"))
        let runner = try Runner()
        board.send(Hook.gitlab.begin(job: "kept", runner: runner))
        board.wait(until: 120)

        try (preset + "timings:\n  grace: 1\n  stall-after: [\n").write(to: file, atomically: true, encoding: .utf8)
        guard case .kept(let problem) = reload(from: current, core: board.core) else { Issue.record("a broken file was taken"); return }
        #expect(problem.contains(#/rig\.yaml:\d+: /#), "says where: \(problem)")
        #expect(opened == 0, "the devices in force were never let go")
        #expect(board.core.settings.policy.grace == 1)
        board.wait(until: 121)
        #expect(board.status("kept")?.phase == "active" && board.ringIsLit && board.ringIsNotAmber)
        #expect(board.core.processDescriptors.map(\.pid) == [runner.pid])

        try (preset + "timings:\n  grace: 4\n").write(to: file, atomically: true, encoding: .utf8)
        guard case .reloaded(let next) = reload(from: current, core: board.core) else { Issue.record("a good file was refused"); return }
        current = next
        #expect(board.core.settings.policy.grace == 4 && opened == 1)
        board.wait(until: 122)
        #expect(board.status("kept")?.phase == "active" && board.ringIsLit)
    }

    /// Heartbeats keep a job without progress running; when they stop, it stalls, then is lost.
    @Test func heartbeatsKeepAJobAlive() {
        let board = Board()
        board.send(.begin(job: "beat", BeginOptions(heartbeat: 60)))
        for minute in 1...20 {
            board.send(.alive(job: "beat"))
            board.wait(until: Double(minute) * 60)
            #expect(board.status("beat")?.phase == "active")
        }
        board.wait(until: 20 * 60 + 121)
        #expect(board.status("beat")?.phase == "stalled")
        board.wait(until: 20 * 60 + 600)
        #expect(board.status("beat") == nil, "lost after ten minutes without a heartbeat")
    }

    /// Regression: `begin --total 10; sleep 3; set 4` read `active 40% (4/10) 0s` from +5 s to +25 s:
    /// "0 s" told the person the job was about to end. Once the estimate's time is used up with no
    /// new report, the job reads overdue by how much, until it stalls; a report brings an ETA back.
    @Test func anEstimateThatRanOutReadsOverdueNeverZero() {
        let board = Board()
        board.send(.begin(job: "ten", label: "Ten steps", total: 10))
        board.wait(until: 3)
        board.send(.update(job: "ten", value: 4, total: 10, label: nil))
        board.wait(until: 4)
        let early = board.status("ten")
        #expect(early?.phase == "active" && (early?.etaSeconds ?? 0) > 0 && early?.overdueSeconds == nil, "\(String(describing: early))")
        var silent = 0.0
        for second in stride(from: 5.0, through: 25, by: 0.25) {
            board.wait(until: second)
            let status = board.status("ten")
            #expect(status?.etaSeconds.map { $0 > 0 } ?? true, "at +\(second) s: never 0 s left while the job goes on: \(String(describing: status))")
            #expect(status?.overdueSeconds.map { $0 >= 1 } ?? true, "at +\(second) s: never overdue by 0 s: \(String(describing: status))")
            if status?.phase == "active", status?.etaSeconds == nil, status?.overdueSeconds == nil { silent += 0.25 }
        }
        // Only in the second between the estimate's end and "overdue 1s" does it say nothing of time.
        #expect(silent > 0 && silent <= 1, "an active job says how it stands against its estimate but for \(silent) s")
        #expect(board.status("ten")?.overdueSeconds.map { $0 > 10 } == true, "\(String(describing: board.status("ten")))")
        board.send(.update(job: "ten", value: 6, total: 10, label: nil))
        #expect(board.status("ten")?.etaSeconds.map { $0 > 0 } == true && board.status("ten")?.overdueSeconds == nil, "a report brings an estimate back")
    }

    /// A tool's own ETA is shown as the tool's while it lasts; once it has run out (or the tool says
    /// "ETA 0s" with work left), Headway's estimate speaks: never "~0s" of a job that goes on.
    @Test func aToolsEstimateThatRanOutGivesWayToHeadways() {
        let board = Board()
        board.send(.begin(job: "sync", label: "Sync", total: 10))
        board.wait(until: 2)
        board.send(.update(job: "sync", value: 4, total: 10, label: nil, eta: 3))
        board.wait(until: 3)
        let told = board.status("sync")
        #expect(told?.etaReported == true && told?.etaSeconds == 2, "\(String(describing: told))")
        // The tool said 3 s at +2 s: from +5 s on its estimate has run out.
        for time in stride(from: 5.5, through: 8, by: 0.5) {
            board.wait(until: time)
            let status = board.status("sync")
            #expect(status?.etaReported == false && status?.etaSeconds.map { $0 > 0 } ?? true, "at \(time) s: \(String(describing: status))")
        }
        board.send(.update(job: "sync", value: 8, total: 10, label: nil, eta: 0))
        let zero = board.status("sync")
        #expect(zero?.etaReported == false && zero?.etaSeconds.map { $0 > 0 } ?? true, "a tool's \"ETA 0s\" at 80 %: \(String(describing: zero))")
    }

    /// Regression: `status` read `pending 1% (5/20)` and `5% (2/20)`, the page "150 of 200 (49 %)":
    /// the eased value of the glass leaked into text. Text gives the value last reported and its
    /// percentage at once, below 100 until the job has succeeded.
    @Test func textReadsTheReportedValueNotTheEase() {
        let board = Board()
        board.send(.begin(job: "copy", label: "Copying", total: 20))
        board.send(.update(job: "copy", value: 5, total: 20, label: nil))
        #expect(board.status("copy")?.percent == 25, "pending, just reported: \(String(describing: board.status("copy")))")
        board.wait(until: 3)
        board.send(.update(job: "copy", value: 2, total: 20, label: nil))
        #expect(board.status("copy")?.percent == 10)
        board.send(.update(job: "copy", value: 150, total: 200, label: nil))
        #expect(board.status("copy")?.percent == 75)
        board.send(.update(job: "copy", value: 200, total: 200, label: nil))
        #expect(board.status("copy")?.percent == 99, "never 100 % before the end")
        board.send(.finish(job: "copy", outcome: .succeeded))
        #expect(board.status("copy")?.percent == 100)
    }

    /// Regression: `set 35%` on a job of 120 replaced its total with 100, and `set 50/120` then stuck.
    @Test func percentReportsApplyToTheCurrentTotal() {
        let board = Board()
        board.send(.begin(job: "files", label: "Copying", total: 120))
        board.send(.updatePercent(job: "files", percent: 35, label: nil))
        var status = board.status("files")
        #expect(status?.value == 42 && status?.total == 120)
        board.send(.update(job: "files", value: 50, total: 120, label: nil))
        board.wait(until: 5)
        status = board.status("files")
        #expect(status?.value == 50 && status?.total == 120 && status?.percent == 41)
    }

    /// Countdowns from the protocol: so many seconds from now, or until a time of day.
    @Test func countdownsRunOnTheClock() {
        let board = Board()
        #expect(board.send(.begin(job: "tea", BeginOptions(label: "Tea", countdown: 300))) == .ok)
        board.wait(until: 3)
        // Regression: `status` read "tea active 98% 3m57s", and a percentage falling from 98 reads
        // as a job nearly done. A countdown reads in time, as seconds left of its whole.
        let tea = board.status("tea")
        #expect(tea?.percent == nil && tea?.countdown == true && tea?.value == 297 && tea?.total == 300 && tea?.unit == .seconds, "\(String(describing: tea))")
        #expect(tea?.countdownText == "4m57s left of 5m")
        board.wait(until: 150)
        #expect(board.status("tea")?.countdownText == "2m30s left of 5m" && board.status("tea")?.etaSeconds == 150)
        board.wait(until: 300)
        board.wait(until: 300.1)
        #expect(board.status("tea")?.phase == "succeeded", "a countdown is done when it runs out, never stalled")
        let wall = Date().timeIntervalSince1970
        #expect(board.send(.begin(job: "train", BeginOptions(until: wall + 600))) == .ok)
        board.wait(until: 600)
        let left = board.status("train")?.value ?? -1
        #expect((290...310).contains(left) && board.status("train")?.total.map { abs($0 - 600) < 1 } == true, "\(String(describing: board.status("train")))")
        guard case .error(let error)? = board.send(.begin(job: "late", BeginOptions(until: wall - 60))) else { Issue.record("accepted"); return }
        #expect(error.field == "until" && error.message.contains("in the past"))
    }
}
