import Foundation
import Headway
import HeadwayProtocol
@testable import HeadwayService
import HeadwaySimulator
import Synchronization
import Testing

/// systemd units as jobs, on a manual clock: the states systemd reports for a unit's run (as its
/// D-Bus signals carry them, org.freedesktop.systemd1(5)) given to the service core, and what
/// `headway status` and the ring show at each moment. The real bus is exercised in the booted
/// Debian of `Scripts/kernel-test systemd`.
@Suite("systemd units as jobs")
struct UnitJourneyTests {
    /// The service with a ring, a clock by hand, a wall clock 02:00 local at 0 s, and its log kept.
    final class Room {
        let clock = ManualClock(startingAt: 1000)
        let ring: SimulatedLEDChain
        let core: ServiceCore
        let state: URL
        let log = LogLines()

        init(countdown: TimerCountdown? = nil) {
            state = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
            ring = try! .ws2812(name: "ring", count: 24, layout: .ring(), bus: VirtualSPIBus(clock: clock))
            let outputs = [ServiceOutput(name: "ring", medium: .leds(LEDOutput(ring.driver, layout: .ring())), framesPerSecond: 50, countdown: countdown)]
            let clock = clock
            let log = log
            let logger = ServiceLogger(label: "test") { level, text in log.lines.withLock { $0.append((level, text)) } }
            // Wall clock: 1 700 000 000 s at the manual clock's 1000 s, moving with it.
            core = ServiceCore(
                devices: ServiceDevices(outputs: outputs, buttons: []), clock: clock, wallClock: { 1_700_000_000 + clock.now - 1000 },
                localTime: { seconds in
                    let day = Int(seconds) % 86_400
                    return LocalTime(hour: day / 3600, minute: day % 3600 / 60, second: day % 60)
                }, durations: DurationStore(folder: state.path, logger: logger), logger: logger)
        }

        deinit { try? FileManager.default.removeItem(at: state) }

        @discardableResult
        func send(_ request: Request, uid: UInt32 = 0) -> Reply? {
            let peer = Peer(connection: 7, credentials: PeerCredentials(pid: 4242, uid: uid, gid: uid))
            return Reply.parse(core.handle(line: request.line, from: peer).reply)
        }

        func systemd(_ event: UnitEvent) { _ = core.unit(event) }

        func wait(until time: Seconds) {
            clock.set(to: max(clock.now, 1000 + time))
            _ = core.tick()
        }

        var jobs: [JobStatus] {
            guard case .jobs(let jobs, _, _, _)? = send(.status) else { return [] }
            return jobs
        }

        var timers: [TimerStatus] {
            guard case .jobs(_, _, _, let timers)? = send(.status) else { return [] }
            return timers
        }

        func status(_ job: String) -> JobStatus? { jobs.first { $0.job == job } }

        func logged(_ level: ServiceLogger.Level, containing text: String) -> Int {
            log.lines.withLock { $0.filter { $0.0 == level && $0.1.contains(text) }.count }
        }

        var ringIsLit: Bool { ring.levels.contains { $0 != .off } }
    }

    final class LogLines: Sendable {
        let lines = Mutex<[(ServiceLogger.Level, String)]>([])
    }

    /// A unit's state as systemd reports it; `at` is seconds after the room's start.
    static func unit(
        _ active: String, sub: String = "", type: String = "oneshot", result: String = "success", timer: String? = "backup.timer",
        startedAt: Seconds? = nil, exit: MainExit? = nil, description: String = "Nightly backup"
    ) -> UnitState {
        unit("backup.service", active, sub: sub, type: type, result: result, timer: timer, startedAt: startedAt, exit: exit, description: description)
    }

    static func unit(
        _ name: String, _ active: String, sub: String = "", type: String = "oneshot", result: String = "success", timer: String? = "backup.timer",
        startedAt: Seconds? = nil, exit: MainExit? = nil, description: String = "Nightly backup"
    ) -> UnitState {
        var state = UnitState(name: name)
        state.loadState = "loaded"
        state.activeState = active
        state.subState = sub
        state.serviceType = type
        state.result = result
        state.description = description
        state.triggeredBy = timer.map { [$0] } ?? []
        state.startedAt = startedAt.map { 1000 + $0 }
        state.mainExit = exit
        return state
    }

    @Test("A timer's backup run is a job from start to end, labelled by its Description, never stalled; its duration is learned for the next run")
    func timerStartedBackup() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("inactive", sub: "dead")))
        #expect(room.jobs.isEmpty, "an inactive unit is no job")

        room.systemd(.state(Self.unit("activating", sub: "start", startedAt: 0)))
        room.wait(until: 1)
        #expect(room.status("backup.service")?.phase == "pending")
        room.wait(until: 3)
        #expect(room.status("backup.service")?.phase == "active")
        #expect(room.status("backup.service")?.label == "Nightly backup")
        #expect(room.ringIsLit)
        for minute in 1...4 {
            room.wait(until: Double(minute) * 60)
            #expect(room.status("backup.service")?.phase == "active", "silent for \(minute) min, and never stalled: the unit says it runs")
        }
        room.systemd(.state(Self.unit("inactive", sub: "dead", startedAt: 0)))
        #expect(room.status("backup.service")?.phase == "succeeded")
        #expect(room.logged(.info, containing: "backup.service succeeded after 4m") == 1)
        room.wait(until: 250)
        #expect(room.jobs.isEmpty, "shown for its linger, then gone")

        // The next night: an estimate from the last run (240 s).
        room.wait(until: 1000)
        room.systemd(.state(Self.unit("activating", sub: "start", startedAt: 1000)))
        room.wait(until: 1120)
        let halfway = room.status("backup.service")
        #expect(halfway?.estimate == true)
        #expect(halfway?.percent == 50)
        room.wait(until: 1300)
        #expect(room.status("backup.service")?.overdueSeconds == 60, "past its estimate: overdue, never a false 100 %")
        #expect(room.status("backup.service")?.percent == 99)
        room.systemd(.state(Self.unit("inactive", sub: "dead", startedAt: 1000)))
        #expect(room.status("backup.service")?.phase == "succeeded")
    }

    @Test("A unit that fails ends its job failed, with systemd's reason in status and the log")
    func failingUnit() {
        let room = Room()
        _ = room.core.watchUnits(["encode.service"])
        room.systemd(.state(Self.unit("encode.service", "inactive", timer: nil, description: "Nightly encode")))
        room.systemd(.state(Self.unit("encode.service", "activating", sub: "start", timer: nil, startedAt: 0, description: "Nightly encode")))
        room.wait(until: 20)
        room.systemd(.state(Self.unit("encode.service", "failed", sub: "failed", result: "exit-code", timer: nil, startedAt: 0, exit: MainExit(code: 1, status: 3))))
        let failed = room.status("encode.service")
        #expect(failed?.phase == "failed")
        #expect(failed?.reason == "exit status 3")
        #expect(room.logged(.warning, containing: "encode.service failed after 20s: exit status 3") == 1)
        room.wait(until: 21)
        #expect(room.ring.levels.contains { $0.red > $0.green + 40 }, "the ring shows the failure")
    }

    @Test("Each Result gives its outcome and reason", arguments: [
        ("timeout", MainExit?.none, "timed out"), ("signal", MainExit(code: 2, status: 9), "killed by signal 9"),
        ("core-dump", MainExit(code: 3, status: 11), "dumped core (signal 11)"), ("oom-kill", nil, "killed: out of memory"),
        ("watchdog", nil, "watchdog timeout"), ("start-limit-hit", nil, "started too often (start limit hit)"),
    ])
    func results(result: String, exit: MainExit?, reason: String) {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("activating", startedAt: 0)))
        room.wait(until: 5)
        room.systemd(.state(Self.unit("failed", result: result, startedAt: 0, exit: exit)))
        #expect(room.status("backup.service")?.phase == "failed")
        #expect(room.status("backup.service")?.reason == reason)
    }

    @Test("headway run inside the unit reports into the unit's job: one job, its progress, the unit's end")
    func runInsideTheUnit() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("activating", sub: "start", startedAt: 0)))
        // What `headway run -- restic backup …` sends from inside backup.service (its job id is the unit's).
        #expect(room.send(.begin(job: "backup.service", BeginOptions(label: "backup.service", name: "backup.service", pid: 4242))) == .ok)
        #expect(room.send(.update(job: "backup.service", value: 40, total: 100, label: nil)) == .ok)
        room.wait(until: 5)
        #expect(room.jobs.count == 1, "no duplicate")
        #expect(room.status("backup.service")?.label == "Nightly backup", "the unit's own name is no label: the Description stays")
        #expect(room.status("backup.service")?.percent == 40)
        #expect(room.send(.update(job: "backup.service", value: 100, total: 100, label: "restic: backing up")) == .ok)
        #expect(room.status("backup.service")?.label == "restic: backing up", "a label the command gives is taken")
        // The command is done, and names the job by its own label again (the unit's name); the unit is not yet done.
        #expect(room.send(.label(job: "backup.service", label: "backup.service")) == .ok)
        #expect(room.send(.finish(job: "backup.service", outcome: .succeeded)) == .ok)
        room.wait(until: 8)
        #expect(room.status("backup.service")?.phase == "active")
        #expect(room.status("backup.service")?.percent == 99, "at most 99 % until the unit has ended")
        room.systemd(.state(Self.unit("inactive", sub: "dead", startedAt: 0)))
        #expect(room.status("backup.service")?.phase == "succeeded")
        // Regression: it read "backup.service", the name the command knew it by.
        #expect(room.status("backup.service")?.label == "Nightly backup", "a finished unit's job reads its Description, not the tool's last step")
        room.wait(until: 9)
        #expect(room.status("backup.service")?.percent == 100)
    }

    @Test("headway run's begin arriving before systemd's signal: its job becomes the unit's, progress kept, the unit's name learning the duration")
    func runSpeaksFirst() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(room.send(.begin(job: "backup.service", BeginOptions(label: "backup.service", name: "backup.service", pid: pid))) == .ok)
        #expect(room.send(.update(job: "backup.service", value: 3, total: 10, label: nil)) == .ok)
        room.systemd(.state(Self.unit("activating", sub: "start", startedAt: 0)))
        room.wait(until: 5)
        #expect(room.jobs.count == 1)
        #expect(room.status("backup.service")?.percent == 30)
        #expect(room.status("backup.service")?.label == "Nightly backup")
        #expect(room.send(.finish(job: "backup.service", outcome: .failed)) == .ok)
        #expect(room.status("backup.service")?.phase == "active", "the command's end does not end the unit's job")
        room.wait(until: 100)
        room.systemd(.state(Self.unit("inactive", sub: "dead", startedAt: 0)))
        #expect(room.status("backup.service")?.phase == "succeeded", "the unit's Result decides")
        #expect(room.core.durations.expected(for: "backup.service") == 100)
    }

    @Test("systemctl stop during the run, or the command cancelled, ends the job cancelled")
    func stopped() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("activating", sub: "start", startedAt: 0)))
        room.wait(until: 10)
        // A stop replaces the running start job, which ends "canceled"; the oneshot's main process
        // dies of the SIGTERM.
        room.systemd(.jobRemoved(unit: "backup.service", result: "canceled"))
        room.systemd(.state(Self.unit("deactivating", sub: "stop-sigterm", startedAt: 0)))
        room.systemd(.state(Self.unit("failed", sub: "failed", result: "signal", startedAt: 0, exit: MainExit(code: 2, status: 15))))
        #expect(room.status("backup.service")?.phase == "cancelled")

        // A timer-started simple service, active, stopped: a stop job queued while it runs.
        room.wait(until: 100)
        room.systemd(.state(Self.unit("sync.service", "inactive", type: "simple", timer: "sync.timer")))
        _ = room.core.watchUnits(["backup.service", "sync.service"])
        room.systemd(.state(Self.unit("sync.service", "active", sub: "running", type: "simple", timer: "sync.timer", startedAt: 100)))
        room.wait(until: 110)
        room.systemd(.jobQueued(unit: "sync.service"))
        room.systemd(.state(Self.unit("sync.service", "inactive", sub: "dead", type: "simple", timer: "sync.timer", startedAt: 100)))
        #expect(room.status("sync.service")?.phase == "cancelled", "not a success: somebody stopped it")
    }

    @Test("A long press on a unit's job cancels its headway run; with no command the unit is not the service's to stop")
    func buttonOnAUnit() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("activating", startedAt: 0)))
        room.wait(until: 5)
        guard case .error(let error)? = room.send(.stop(job: "backup.service")) else { Issue.record("a stop was taken"); return }
        #expect(error.message.contains("sudo systemctl stop backup.service"))
        #expect(room.status("backup.service")?.phase == "active")
        #expect(room.core.button(.longPress).isEmpty)
        #expect(room.status("backup.service")?.phase == "active", "a press does not end what the service cannot stop")
    }

    @Test("A watched unit that does not exist is one warning; the others work, and it is picked up when it appears")
    func missingUnit() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service", "nightly-encode.service"])
        var missing = UnitState(name: "nightly-encode.service")
        missing.loadState = "not-found"
        missing.activeState = "inactive"
        room.systemd(.state(missing))
        room.systemd(.state(missing))
        #expect(room.logged(.warning, containing: "nightly-encode.service does not exist") == 1)
        room.systemd(.state(Self.unit("activating", startedAt: 0)))
        room.wait(until: 3)
        #expect(room.status("backup.service")?.phase == "active")
        room.systemd(.state(Self.unit("nightly-encode.service", "inactive", timer: nil)))
        #expect(room.logged(.info, containing: "nightly-encode.service is there now") == 1)
    }

    @Test("A reload keeps the jobs of units still watched; a unit dropped from the list ends its job with no known result")
    func reload() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service", "encode.service"])
        room.systemd(.state(Self.unit("activating", startedAt: 0)))
        room.systemd(.state(Self.unit("encode.service", "activating", startedAt: 0)))
        room.wait(until: 5)
        _ = room.core.watchUnits(["backup.service"])
        #expect(room.status("backup.service")?.phase == "active")
        #expect(room.status("encode.service")?.phase == "ended")
    }

    @Test("A long-running service is a job only while it starts; its failure is shown")
    func daemon() {
        let room = Room()
        _ = room.core.watchUnits(["web.service"])
        room.systemd(.state(Self.unit("web.service", "inactive", type: "notify", timer: nil)))
        room.systemd(.state(Self.unit("web.service", "activating", type: "notify", timer: nil, startedAt: 0)))
        room.wait(until: 8)
        #expect(room.status("web.service")?.phase == "active", "a slow start-up is shown")
        room.systemd(.state(Self.unit("web.service", "active", sub: "running", type: "notify", timer: nil, startedAt: 0)))
        #expect(room.status("web.service")?.phase == "succeeded")
        room.wait(until: 3600)
        #expect(room.jobs.isEmpty, "running for an hour is no job")
        room.systemd(.state(Self.unit("web.service", "failed", sub: "failed", type: "notify", result: "signal", timer: nil, startedAt: 0, exit: MainExit(code: 2, status: 6))))
        #expect(room.status("web.service")?.phase == "failed")
        #expect(room.status("web.service")?.reason == "killed by signal 6")
    }

    @Test("Units cannot be followed: one warning, running unit jobs end with no known result")
    func unavailable() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        room.systemd(.state(Self.unit("activating", startedAt: 0)))
        room.wait(until: 3)
        room.systemd(.unavailable("the system bus went away"))
        #expect(room.logged(.warning, containing: "systemd units are not watched: the system bus went away") == 1)
        #expect(room.status("backup.service")?.phase == "ended")
    }

    @Test("status lists each timer followed with its next elapse, from either clock; a timer with none says so")
    func timersInStatus() {
        let room = Room()
        _ = room.core.watchUnits(["backup.service"])
        var timer = UnitState(name: "backup.timer")
        timer.loadState = "loaded"
        timer.activeState = "active"
        // Next at 1 700 018 000 s (wall), 5 h after now: 02:00 + 5 h local in the room's zone.
        timer.timer = TimerFacts(nextRealtime: 1_700_000_000 + 5 * 3600, unit: "backup.service")
        room.systemd(.state(timer))
        let listed = room.timers
        #expect(listed.count == 1)
        #expect(listed.first?.at == "03:13")
        #expect(listed.first.flatMap(\.inSeconds).map { abs($0 - 5 * 3600) < 0.001 } == true)
        #expect(listed.first?.summary == "backup.timer  next 03:13 (in 5h00m), starts backup.service")
        // A monotonic elapse earlier than the calendar one wins.
        timer.timer?.nextMonotonic = 1000 + 600
        room.systemd(.state(timer))
        #expect(room.timers.first.flatMap(\.inSeconds).map { abs($0 - 600) < 0.001 } == true)
        timer.timer = TimerFacts(unit: "backup.service")
        room.systemd(.state(timer))
        #expect(room.timers.first?.summary == "backup.timer  no next elapse, starts backup.service")
    }

    @Test("An output counts down to its timer's next elapse within its window, honestly: dark before, dark after, nothing without an elapse")
    func countdown() {
        let room = Room(countdown: TimerCountdown(timer: "backup.timer", within: 300))
        var timer = UnitState(name: "backup.timer")
        timer.loadState = "loaded"
        timer.activeState = "active"
        timer.timer = TimerFacts(nextMonotonic: 1000 + 600, unit: "backup.service")
        room.systemd(.state(timer))
        room.systemd(.state(Self.unit("inactive")))
        #expect(room.core.nextWakeup().map { abs($0 - 1300) < 0.001 } == true, "the loop sleeps until the window opens: \(String(describing: room.core.nextWakeup()))")
        room.wait(until: 100)
        #expect(!room.ringIsLit, "before its window the output stays dark")
        #expect(room.core.nextWakeup().map { abs($0 - 1300) < 0.001 } == true)
        room.wait(until: 300)
        room.wait(until: 450)
        #expect(room.ringIsLit, "half of the last five minutes left")
        let tinted = room.ring.levels.filter { $0.blue > 64 }.count
        #expect((10...14).contains(tinted), "about half the ring in the tint: \(tinted) LEDs")
        room.wait(until: 601)
        #expect(!room.ringIsLit, "after the elapse it goes dark")
        timer.timer = TimerFacts(unit: "backup.service")
        room.systemd(.state(timer))
        #expect(room.core.nextWakeup() == nil, "no elapse: no countdown and no wake-ups")
    }
}
