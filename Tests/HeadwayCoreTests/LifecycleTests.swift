import HeadwayCore
import Testing

@Suite("Job lifecycle")
struct LifecycleTests {
    let policy = LifecyclePolicy(grace: 2, stallAfter: 30, linger: 3, loseAfter: 600)

    @Test func pendingDuringGraceThenActive() throws {
        var job = try ProgressJob(label: "build", policy: policy, at: 100)
        #expect(job.phase(at: 100) == .pending)
        #expect(job.phase(at: 101.999) == .pending)
        #expect(!job.snapshot(at: 101).isVisible)
        #expect(job.snapshot(at: 101).phaseEndsAt == 102)
        #expect(job.phase(at: 102) == .active)
        try job.update(value: 1, total: 10, at: 103)
        #expect(job.phase(at: 104) == .active)
    }

    @Test func quickJobNeverShows() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 0.5, at: 0.5)
        try job.finish(.succeeded, at: 1.9)
        for t in stride(from: 0.0, through: 10, by: 0.1) {
            #expect(!job.phase(at: t).isVisible, "visible at \(t)")
        }
    }

    /// Regression: a job that failed inside the grace delay was never shown. Quick successes and
    /// cancellations stay hidden; a failure is news whatever the length.
    @Test func aFailureInsideTheGraceDelayIsShown() throws {
        let policy = LifecyclePolicy(grace: 2, linger: 3)
        var failed = try ProgressJob(policy: policy, at: 0)
        try failed.finish(.failed, at: 0.5)
        #expect(failed.phase(at: 0.6) == .finished(.failed))
        #expect(failed.phase(at: 3.6) == .hidden)
        var quick = try ProgressJob(policy: policy, at: 0)
        try quick.finish(.succeeded, at: 0.5)
        #expect(quick.phase(at: 0.6) == .hidden)
    }

    /// A job that reports no progress reads as running while it is alive: never stalled, and lost
    /// only after `aliveWithoutReports` without a word; a watched process is never lost by time.
    @Test func aJobWithoutProgressReportsIsAliveUntilItsLivenessEnds() throws {
        let policy = LifecyclePolicy(grace: 2, stallAfter: 30, linger: 3, loseAfter: 600, aliveWithoutReports: 6 * 3600)
        let silent = try ProgressJob(policy: policy, at: 0)
        for minute in stride(from: 1.0, to: 359, by: 7) { #expect(silent.phase(at: minute * 60) == .active, "minute \(minute)") }
        #expect(silent.phase(at: 6 * 3600) == .lost)
        let watched = try ProgressJob(policy: policy, liveness: .process(pid: 1), at: 0)
        #expect(watched.phase(at: 48 * 3600) == .active && watched.nextPhaseChange(after: 10) == nil)
        var reporting = try ProgressJob(kind: .determinate(value: 1, total: 10), policy: policy, at: 0)
        try reporting.update(value: 2, at: 10)
        #expect(reporting.phase(at: 41) == .stalled(silence: 31), "one that reports progress still stalls")
    }

    @Test func stalledAfterSilenceThenLost() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 3, total: 10, at: 5)
        #expect(job.phase(at: 34.99) == .active)
        #expect(job.phase(at: 35) == .stalled(silence: 30))
        #expect(job.phase(at: 45) == .stalled(silence: 40))
        #expect(job.snapshot(at: 45).timeText == "stalled 40s")
        #expect(job.snapshot(at: 45).timeRemaining == nil)
        #expect(job.phase(at: 604.9) != .lost)
        #expect(job.phase(at: 605) == .lost)
        #expect(!job.snapshot(at: 605).isVisible)
    }

    @Test func anyReportEndsAStall() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 1, total: 10, at: 1)
        #expect(job.phase(at: 32) == .stalled(silence: 31))
        try job.update(value: 2, at: 32)
        #expect(job.phase(at: 32) == .active)
        try job.setLabel("still going", at: 70)
        #expect(job.phase(at: 71) == .active)
        // A heartbeat is no report of progress: the job stalls all the same.
        try job.heartbeat(at: 95)
        #expect(job.phase(at: 101) == .stalled(silence: 31))
    }

    @Test func finishedLingersThenHides() throws {
        for outcome in Outcome.allCases {
            var job = try ProgressJob(policy: policy, at: 0)
            try job.update(value: 5, total: 10, at: 4)
            try job.finish(outcome, at: 10)
            #expect(job.phase(at: 10) == .finished(outcome))
            #expect(job.phase(at: 12.99) == .finished(outcome))
            #expect(job.phase(at: 13) == .hidden)
            #expect(job.snapshot(at: 11).phaseElapsed == 1)
            #expect(job.snapshot(at: 11).phaseEndsAt == 13)
        }
    }

    @Test func finishedJobRefusesReports() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.finish(.failed, at: 5)
        let before = job
        #expect(throws: ProgressError.alreadyFinished(.failed)) { try job.update(value: 1, at: 6) }
        #expect(throws: ProgressError.alreadyFinished(.failed)) { try job.finish(.succeeded, at: 6) }
        #expect(job == before)
    }

    @Test func timerIsNotStalledWhileItRuns() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.startTimer(from: 0, to: 100, countsDown: true, at: 0)
        #expect(job.phase(at: 90) == .active)
        #expect(job.phase(at: 129) == .active)
        #expect(job.phase(at: 130) == .stalled(silence: 30))
    }
}
