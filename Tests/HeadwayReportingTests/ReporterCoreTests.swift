import HeadwayCore
import HeadwayProtocol
@testable import HeadwayReporting
import Testing

/// The client core every reporter runs, driven by hand: what it sends on each connection, how it
/// reads replies (by code, whatever their words), when it connects again.
@Suite("Client core")
struct ReporterCoreTests {
    static func core(policy: ConnectionPolicy = .socket, processID: Int32? = 77, interval: Seconds = 0.1) -> ReporterCore {
        ReporterCore(settings: ReporterCore.Settings(timeout: 0.2, progressInterval: interval, policy: policy, processID: processID, place: "the service at /x"))
    }

    /// Opens a link and takes the requests the core sends on it now.
    static func connect(_ core: inout ReporterCore, at now: Seconds) -> [Request] {
        #expect(core.plan(now: now, canWrite: false).connect)
        core.linkOpened()
        return core.plan(now: now, canWrite: true).requests
    }

    /// Answers every request in flight with `reply` (ok by default).
    static func answer(_ core: inout ReporterCore, _ count: Int, with reply: Reply = .ok, at now: Seconds) {
        core.received(Array(repeating: reply.line, count: count), now: now)
    }

    static func refusal(_ code: ProtocolErrorCode, _ words: String = "anything at all") -> Reply {
        .error(ProtocolError(code, field: "job", words))
    }

    /// A core whose job `id` was begun at 0 on a connection that answered.
    static func running(_ id: String, _ options: BeginOptions) -> (ReporterCore, JobKey) {
        var core = Self.core()
        let key = core.begin(id, options: options, follows: false, now: 0)
        Self.answer(&core, Self.connect(&core, at: 0).count, at: 0)
        return (core, key)
    }

    static func update(_ core: inout ReporterCore, _ key: JobKey, to value: Double, label: String? = nil, at now: Seconds) {
        try? core.change(key) { (job: inout ReportedJob) throws(ProgressError) in try job.update(value: value, total: nil, label: label, timeRemaining: nil, now: now) }
    }

    @Test func aNewConnectionIsToldEveryRunningJobAgain() {
        var core = Self.core()
        let key = core.begin("backup", options: BeginOptions(label: "Backup", total: 100, name: "nightly"), follows: true, controls: .all, now: 10)
        var first = Self.connect(&core, at: 10)
        #expect(first == [.begin(job: "backup", BeginOptions(label: "Backup", total: 100, name: "nightly", pid: 77)), .subscribe(job: "backup", controls: true)])
        Self.answer(&core, first.count, at: 10)
        #expect(core.connection == .connected)
        Self.update(&core, key, to: 30, label: "Copying", at: 11)
        first = core.plan(now: 11, canWrite: true).requests
        #expect(first == [.update(job: "backup", value: 30, total: 100, label: "Copying", eta: nil)])
        core.received([JobEvent(.paused, job: "backup").line], now: 11)
        core.lost("the service at /x closed the connection", now: 12, quietly: false)
        #expect(core.connection == .unavailable(reason: "the service at /x closed the connection"))
        Self.update(&core, key, to: 42, at: 12.05)
        // After the back-off, the new connection hears the begin with the time it has run, the
        // latest label and progress, the subscription and the pause.
        #expect(core.plan(now: 12.05, canWrite: false).connect == false)
        let again = Self.connect(&core, at: 12.2)
        #expect(again == [
            .begin(job: "backup", BeginOptions(label: "Copying", total: 100, name: "nightly", pid: 77, elapsed: 2.2)),
            .subscribe(job: "backup", controls: true), .pause(job: "backup"),
            .update(job: "backup", value: 42, total: 100, label: nil, eta: nil),
        ])
    }

    /// A job's stage (apt's download, a stage of its own) goes with its progress, on every
    /// connection: a service that heard the value without it would read the download's pace as
    /// the installation's.
    @Test func aStageGoesWithItsProgressAfterAReconnection() {
        var (core, key) = Self.running("apt", BeginOptions(label: "apt", total: 100))
        core.apply(.update(job: "apt", value: 20, total: 100, label: nil, stageEnd: 50), now: 1)
        let sent = core.plan(now: 1, canWrite: true).requests
        #expect(sent == [.update(job: "apt", value: 20, total: 100, label: nil, stageEnd: 50)])
        Self.answer(&core, sent.count, at: 1)
        core.lost("the service at /x closed the connection", now: 2, quietly: false)
        let again = Self.connect(&core, at: 2.5)
        #expect(again.contains(.update(job: "apt", value: 20, total: 100, label: nil, stageEnd: 50)), "\(again)")
        Self.answer(&core, again.count, at: 2.5)
        // The installation: the last stage, said by a value without a stage end.
        core.apply(.update(job: "apt", value: 60, total: 100, label: nil), now: 3)
        #expect(core.jobs["apt"]?.key == key)
        #expect(core.plan(now: 3, canWrite: true).requests == [.update(job: "apt", value: 60, total: 100, label: nil)])
    }

    /// A follower that controls its job (a printer paused at its own screen) tells the service of
    /// the pause itself, once; a pause the service made (its button) is not sent back.
    @Test func aControllerPausesAndResumesItsJobItself() {
        var core = Self.core(processID: nil)
        _ = core.begin("printer/cube", options: BeginOptions(label: "cube"), follows: true, controls: .all, now: 0)
        Self.answer(&core, Self.connect(&core, at: 0).count, at: 0)
        core.apply(.pause(job: "printer/cube"), now: 1)
        #expect(core.plan(now: 1, canWrite: true).requests == [.pause(job: "printer/cube")])
        Self.answer(&core, 1, at: 1)
        core.apply(.pause(job: "printer/cube"), now: 2)
        #expect(core.plan(now: 2, canWrite: true).requests == [], "already paused")
        core.apply(.resume(job: "printer/cube"), now: 3)
        #expect(core.plan(now: 3, canWrite: true).requests == [.resume(job: "printer/cube")])
        Self.answer(&core, 1, at: 3)
        // The button pauses it: the program hears of it, and the service is not told it back.
        core.received([JobEvent(.paused, job: "printer/cube").line], now: 4)
        #expect(core.takeNotes().jobEvents.map(\.1) == [JobEvent(.paused, job: "printer/cube")])
        core.apply(.pause(job: "printer/cube"), now: 5)
        #expect(core.plan(now: 5, canWrite: true).requests == [])
        // A job that takes no pauses never sends one.
        _ = core.begin("ci/run", options: BeginOptions(label: "run"), follows: false, now: 6)
        Self.answer(&core, core.plan(now: 6, canWrite: true).requests.count, at: 6)
        core.apply(.pause(job: "ci/run"), now: 7)
        #expect(core.plan(now: 7, canWrite: true).requests == [])
    }

    @Test func theLatestValueWinsAndProgressWaitsForItsInterval() {
        let (started, key) = Self.running("copy", BeginOptions(total: 1000))
        var core = started
        for value in 1...1000 {
            Self.update(&core, key, to: Double(value), at: 0.01)
        }
        #expect(core.plan(now: 0.01, canWrite: true).requests == [.update(job: "copy", value: 1000, total: 1000, label: nil, eta: nil)])
        Self.update(&core, key, to: 999, at: 0.05)
        let held = core.plan(now: 0.05, canWrite: true)
        #expect(held.requests.isEmpty && held.timeout != nil && held.timeout! <= 0.2 + 1e-9, "the first reply is due, or the interval passes")
        #expect(core.plan(now: 0.12, canWrite: true).requests == [.update(job: "copy", value: 999, total: 1000, label: nil, eta: nil)])
        // The same value again is nothing new.
        Self.update(&core, key, to: 999, at: 0.3)
        #expect(core.plan(now: 0.3, canWrite: true).requests.isEmpty)
    }

    /// A time left that stands still while the value does (a printer heating its hot end) is
    /// sent again: the service would otherwise count the last one down to nothing. One that
    /// counts down as the service counts it is nothing new.
    @Test func aTimeLeftThatStandsStillIsNews() {
        let (started, key) = Self.running("print", BeginOptions(total: 100))
        var core = started
        func update(left: Double, at now: Seconds) {
            try? core.change(key) { (job: inout ReportedJob) throws(ProgressError) in try job.update(value: 2, total: nil, label: nil, timeRemaining: left, now: now) }
        }
        update(left: 59, at: 1)
        #expect(core.plan(now: 1, canWrite: true).requests == [.update(job: "print", value: 2, total: 100, label: nil, eta: 59)])
        Self.answer(&core, 1, at: 1)
        update(left: 57, at: 3)
        #expect(core.plan(now: 3, canWrite: true).requests.isEmpty, "counted down as the service counts it")
        update(left: 59, at: 5)
        #expect(core.plan(now: 5, canWrite: true).requests == [.update(job: "print", value: 2, total: 100, label: nil, eta: 59)], "standing still")
    }

    /// A service that is behind is sent nothing more: what is in flight stays bounded however
    /// many jobs report.
    @Test func whatIsInFlightIsBounded() {
        var core = Self.core(interval: 0)
        var keys: [JobKey] = []
        for index in 0..<600 { keys.append(core.begin("job-\(index)", options: BeginOptions(), follows: false, now: 0)) }
        _ = Self.connect(&core, at: 0)
        #expect(core.inFlightCount >= 512 && core.inFlightCount < 600 + 512)
        let before = core.inFlightCount
        for key in keys { core.apply(.alive(job: key.id), now: 0.01) }
        #expect(core.plan(now: 0.01, canWrite: true).requests.isEmpty)
        #expect(core.inFlightCount == before)
    }

    /// What a refusal means is its code: the same words with another code mean something else,
    /// other words with the same code the same.
    @Test(arguments: ["no job \"copy\"; send begin first", "the service has never heard of it", ""])
    func aForgottenJobIsBegunAgainWhateverTheWords(words: String) {
        let (started, key) = Self.running("copy", BeginOptions(label: "Copy", total: 10))
        var core = started
        Self.update(&core, key, to: 3, at: 5)
        #expect(core.plan(now: 5, canWrite: true).requests.count == 1)
        Self.answer(&core, 1, with: Self.refusal(.noSuchJob, words), at: 5)
        #expect(core.lastRefusal == nil)
        let again = core.plan(now: 5, canWrite: true).requests
        #expect(again == [.begin(job: "copy", BeginOptions(label: "Copy", total: 10, pid: 77, elapsed: 5)), .update(job: "copy", value: 3, total: 10, label: nil, eta: nil)])
    }

    @Test func wordsThatSoundLikeAForgottenJobAreNotOne() {
        let (started, key) = Self.running("copy", BeginOptions(total: 10))
        var core = started
        Self.update(&core, key, to: 3, at: 1)
        _ = core.plan(now: 1, canWrite: true)
        Self.answer(&core, 1, with: Self.refusal(.notPermitted, "no job \"copy\" already finished"), at: 1)
        #expect(core.lastRefusal?.code == .notPermitted && core.lastRefusal?.job == "copy")
        #expect(core.plan(now: 2, canWrite: true).requests.isEmpty, "not begun again")
        #expect(core.record(key)?.isRunning == true)
    }

    /// A code from a newer service is kept as a refusal, like any the core cannot act on.
    @Test func anUnknownCodeIsARefusalNotAFailure() {
        let (started, key) = Self.running("copy", BeginOptions(total: 10))
        var core = started
        Self.update(&core, key, to: 3, at: 1)
        _ = core.plan(now: 1, canWrite: true)
        core.received([#"{"v":1,"ok":false,"error":{"code":"quota-exceeded","field":"job","message":"over quota"}}"#], now: 1)
        #expect(core.lastRefusal?.code == .unknown("quota-exceeded"))
        #expect(core.connection == .connected)
    }

    /// A job the service ended while its reporter goes on (a long press) is told nothing more
    /// until it is begun again; its finish, refused as finished, is no refusal.
    @Test func aJobTheServiceEndedIsLeftAloneUntilBegunAgain() {
        var core = Self.core()
        _ = core.begin("gh-1", options: BeginOptions(label: "build", follow: 15), follows: false, now: 0)
        Self.answer(&core, Self.connect(&core, at: 0).count, at: 0)
        core.apply(.update(job: "gh-1", value: 1, total: 5, label: nil), now: 1)
        _ = core.plan(now: 1, canWrite: true)
        Self.answer(&core, 1, with: Self.refusal(.jobFinished), at: 1)
        #expect(core.takeNotes().dismissed == ["gh-1"])
        core.apply(.update(job: "gh-1", value: 2, total: 5, label: nil), now: 2)
        core.apply(.finish(job: "gh-1", outcome: .succeeded), now: 3)
        #expect(core.plan(now: 3, canWrite: true).requests.isEmpty)
        #expect(core.lastRefusal == nil)
        core.apply(.begin(job: "gh-1", BeginOptions(label: "build again", follow: 15)), now: 4)
        #expect(core.plan(now: 4, canWrite: true).requests == [.begin(job: "gh-1", BeginOptions(label: "build again", pid: 77, follow: 15))])
        var other = Self.core()
        let key = other.begin("x", options: BeginOptions(), follows: false, now: 0)
        Self.answer(&other, Self.connect(&other, at: 0).count, at: 0)
        try? other.change(key) { (job: inout ReportedJob) throws(ProgressError) in job.finish(.succeeded) }
        #expect(other.plan(now: 1, canWrite: true).requests == [.finish(job: "x", outcome: .succeeded)])
        Self.answer(&other, 1, with: Self.refusal(.jobFinished), at: 1)
        #expect(other.lastRefusal == nil && other.jobs.isEmpty)
    }

    @Test func aRefusedBeginStopsTheJobUntilTheNextConnection() {
        var core = Self.core()
        let key = core.begin("j", options: BeginOptions(), follows: false, now: 0)
        _ = Self.connect(&core, at: 0)
        Self.answer(&core, 1, with: Self.refusal(.limitReached), at: 0)
        #expect(core.record(key)?.refusal?.code == .limitReached)
        core.apply(.label(job: "j", label: "x"), now: 1)
        #expect(core.plan(now: 1, canWrite: true).requests.isEmpty)
        core.lost("gone", now: 2, quietly: false)
        #expect(Self.connect(&core, at: 3) == [.begin(job: "j", BeginOptions(label: "x", pid: 77, elapsed: 3))])
    }

    /// A followed run's staleness and heartbeats: stale is said once and again after a restart;
    /// a heartbeat goes only when nothing else does; a queued run starts its clock when it leaves
    /// the queue.
    @Test func aFollowedRunsStalenessHeartbeatsAndQueue() {
        var core = Self.core(processID: nil)
        core.apply(.begin(job: "r", BeginOptions(label: "build", follow: 10, queued: true)), now: 0)
        #expect(Self.connect(&core, at: 0) == [.begin(job: "r", BeginOptions(label: "build", follow: 10, queued: true))])
        Self.answer(&core, 1, at: 0)
        core.apply(.alive(job: "r"), now: 10)
        #expect(core.plan(now: 10, canWrite: true).requests == [.alive(job: "r")])
        Self.answer(&core, 1, at: 10)
        core.apply(.indeterminate(job: "r"), now: 20)
        core.apply(.alive(job: "r"), now: 20)
        #expect(core.plan(now: 20, canWrite: true).requests == [.indeterminate(job: "r")], "the report is the heartbeat")
        Self.answer(&core, 1, at: 20)
        core.apply(.stale(job: "r"), now: 30)
        core.apply(.stale(job: "r"), now: 40)
        #expect(core.plan(now: 40, canWrite: true).requests == [.stale(job: "r")])
        Self.answer(&core, 1, at: 40)
        core.lost("restarted", now: 45, quietly: false)
        #expect(Self.connect(&core, at: 50) == [
            .begin(job: "r", BeginOptions(label: "build", follow: 10, elapsed: 30)), .indeterminate(job: "r"), .stale(job: "r"),
        ])
    }

    @Test func backOffDoublesUpToItsLongestWaitAndAnAnswerStartsItOver() {
        var backoff = Backoff(.socket)
        var waits: [Seconds] = []
        for attempt in 0..<8 {
            let now = Double(attempt) * 100
            backoff.failed(at: now)
            waits.append(backoff.retryAt - now)
        }
        #expect(waits.map { ($0 * 10).rounded() / 10 } == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5])
        backoff.answered()
        backoff.failed(at: 1000)
        #expect(backoff.retryAt == 1000.1)
        var broker = Backoff(.broker)
        for _ in 0..<10 { broker.failed(at: 0) }
        #expect(broker.retryAt == 30)
    }

    /// A hook's one exchange: one attempt; a failure fails its question at once and nothing is
    /// tried again; a silent service fails it at the deadline.
    @Test func aOneShotReporterTriesOnce() {
        var core = Self.core(policy: .oneShot)
        guard case .success(let ticket) = core.ask(.finish(job: "j", outcome: .succeeded), now: 0) else { Issue.record("not asked"); return }
        #expect(core.plan(now: 0, canWrite: false).connect)
        core.lost("cannot connect to /x: No such file or directory", now: 0, quietly: false)
        #expect(core.takeNotes().answers.map(\.ticket) == [ticket])
        #expect(core.plan(now: 100, canWrite: false).connect == false)
        guard case .failure = core.ask(.status, now: 100) else { Issue.record("asked again"); return }

        var silent = Self.core(policy: .oneShot)
        guard case .success(let asked) = silent.ask(.alive(job: "j"), now: 0) else { Issue.record("not asked"); return }
        #expect(Self.connect(&silent, at: 0) == [.alive(job: "j")])
        let waiting = silent.plan(now: 0.1, canWrite: true)
        #expect(waiting.timeout != nil && abs(waiting.timeout! - 0.1) < 1e-9)
        _ = silent.plan(now: 0.2, canWrite: true)
        let notes = silent.takeNotes()
        #expect(notes.answers.count == 1 && notes.answers[0].ticket == asked)
        guard case .failure(let failure) = notes.answers[0].answer else { Issue.record("answered"); return }
        #expect(failure.description.contains("did not answer in time"))
    }

    /// A job begun and ended while the service was away is never shown late; one the service
    /// may hold is told its end.
    @Test func jobsEndedWhileAwayAreNotShownLate() {
        var core = Self.core()
        let never = core.begin("never", options: BeginOptions(), follows: false, now: 0)
        try? core.change(never) { (job: inout ReportedJob) throws(ProgressError) in job.finish(.succeeded) }
        let shown = core.begin("shown", options: BeginOptions(), follows: false, now: 0)
        let first = Self.connect(&core, at: 0)
        #expect(first == [.begin(job: "shown", BeginOptions(pid: 77))], "the job that is over is not begun")
        #expect(core.record(never) == nil)
        Self.answer(&core, first.count, at: 0)
        core.lost("gone", now: 1, quietly: false)
        try? core.change(shown) { (job: inout ReportedJob) throws(ProgressError) in job.finish(.failed) }
        #expect(Self.connect(&core, at: 2) == [.finish(job: "shown", outcome: .failed)])
    }
}
