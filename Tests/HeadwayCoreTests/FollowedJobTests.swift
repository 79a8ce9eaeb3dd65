import HeadwayCore
import Testing

/// Jobs that run elsewhere and are followed (a CI run polled by its follower), jobs waiting in a
/// queue at their source, jobs the service owns, and a job's own estimate of its time left.
@Suite("Followed, queued and owned jobs")
struct FollowedJobTests {
    let policy = LifecyclePolicy(grace: 2, stallAfter: 30, linger: 3, loseAfter: 600)

    /// A CI step of 15 minutes changes nothing in the steps count: the source says the run goes
    /// on, so the job never reads as stalled while the follower's looks arrive.
    @Test func aFollowedJobNeverStallsWhileItsFollowerLooks() throws {
        var job = try ProgressJob(kind: .determinate(value: 5, total: 12), policy: policy, liveness: .followed(interval: 10), at: 0)
        for t in stride(from: 10.0, through: 900, by: 10) {
            try job.heartbeat(at: t)
            #expect(job.phase(at: t + 5) == .active, "at \(t + 5) s")
        }
    }

    /// The follower stops looking (it died, or its machine did): stale after two missed looks,
    /// lost after ten (or loseAfter when longer); a look brings it back.
    @Test func aFollowedJobWhoseLooksStopTurnsStaleThenLost() throws {
        var job = try ProgressJob(policy: policy, liveness: .followed(interval: 10), at: 0)
        try job.heartbeat(at: 50)
        #expect(job.phase(at: 69.9) == .active)
        #expect(job.nextPhaseChange(after: 60) == 70)
        #expect(job.phase(at: 70) == .stale(silence: 20))
        #expect(job.snapshot(at: 95).timeText == "stale 45s")
        #expect(job.phase(at: 649.9).isStale)
        #expect(job.phase(at: 650) == .lost)
        try job.heartbeat(at: 120)
        #expect(job.phase(at: 121) == .active)
    }

    /// The follower knows at once that it cannot reach the source: stale now, until it hears again.
    @Test func aReporterCanSayItLostSightOfTheJob() throws {
        var job = try ProgressJob(kind: .determinate(value: 3, total: 10), policy: policy, liveness: .followed(interval: 30), at: 0)
        try job.markStale(at: 40)
        #expect(job.phase(at: 40) == .stale(silence: 0))
        try job.markStale(at: 70)
        #expect(job.phase(at: 100) == .stale(silence: 60), "the first report of it counts")
        #expect(job.snapshot(at: 100).timeRemaining == nil, "no ETA for a job nobody can see")
        try job.update(value: 4, at: 110)
        #expect(job.phase(at: 111) == .active)
        var plain = try ProgressJob(policy: policy, at: 0)
        try plain.markStale(at: 5)
        #expect(plain.phase(at: 6).isStale)
        try plain.heartbeat(at: 7)
        #expect(plain.phase(at: 8) == .active)
    }

    /// A queued run is shown as queued (after the grace delay) until it starts; it never stalls,
    /// and its time in the queue is not running time, so an estimate starts with the work.
    @Test func aQueuedJobWaitsThenItsEstimateStartsWithTheWork() throws {
        var job = try ProgressJob(label: "build", policy: policy, liveness: .followed(interval: 10), expectedDuration: 100, queued: true, at: 0)
        #expect(job.phase(at: 1) == .pending)
        for t in stride(from: 10.0, through: 300, by: 10) { try job.heartbeat(at: t) }
        #expect(job.phase(at: 305) == .queued)
        #expect(job.snapshot(at: 305).timeText == "queued 5m05s")
        #expect(job.snapshot(at: 305).fraction == nil, "nothing is done while queued")
        #expect(job.runningTime(at: 305) == 0)
        try job.indeterminate(at: 310)
        #expect(job.phase(at: 311) == .active)
        for t in stride(from: 320.0, through: 360, by: 10) { try job.heartbeat(at: t) }
        #expect(job.runningTime(at: 360) == 50)
        let snapshot = job.snapshot(at: 360)
        #expect(snapshot.isEstimate && snapshot.fraction == 0.5 && snapshot.timeRemaining == 50)
    }

    /// A run its follower found already running began before the follower saw it: shown at once
    /// (its grace delay long over), its estimate counting from its real start.
    @Test func aJobSeenLateBeganWhenItsSourceSays() throws {
        let job = try ProgressJob(policy: policy, liveness: .followed(interval: 10), expectedDuration: 600, startedAt: 700, at: 1000)
        #expect(job.phase(at: 1000) == .active)
        #expect(job.snapshot(at: 1000).fraction == 0.5)
        #expect(job.snapshot(at: 1000).elapsed == 300)
        #expect(throws: ProgressError.self) { try ProgressJob(policy: policy, startedAt: 1001, at: 1000) }
    }

    /// A job the service follows itself (a systemd unit) is never lost and never stalls for
    /// silence; progress reported into it that stops does stall.
    @Test func anOwnedJobLastsUntilItsOwnerEndsIt() throws {
        var job = try ProgressJob(policy: policy, liveness: .owned, at: 0)
        #expect(job.phase(at: 48 * 3600) == .active)
        #expect(job.nextPhaseChange(after: 10) == nil)
        try job.update(value: 1, total: 4, at: 100)
        #expect(job.phase(at: 131) == .stalled(silence: 31))
        #expect(job.phase(at: 48 * 3600).isStalled, "stalled, never lost")
    }

    /// A tool's own ETA is shown as an estimate, counts down between its reports, is replaced by
    /// the next and dropped by a report without one or once it has run out (the rate estimate
    /// takes over).
    @Test func aJobsOwnTimeRemainingIsShownAsAnEstimate() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 10, total: 100, timeRemaining: 90, at: 10)
        var snapshot = job.snapshot(at: 15)
        #expect(snapshot.timeRemaining == 85 && snapshot.timeRemainingIsReported)
        #expect(snapshot.timeText == "ETA ~1m25s")
        try job.update(value: 20, timeRemaining: 4, at: 20)
        #expect(job.snapshot(at: 20).timeRemaining == 4)
        // Run out with work left: Headway's own estimate speaks (1 a second, 80 left, 9 s since), never 0 s.
        #expect(job.snapshot(at: 29).timeRemaining == 71 && !job.snapshot(at: 29).timeRemainingIsReported)
        try job.update(value: 30, at: 30)
        snapshot = job.snapshot(at: 30)
        #expect(!snapshot.timeRemainingIsReported)
        #expect(snapshot.timeText?.hasPrefix("ETA ~") == false)
        #expect(throws: ProgressError.invalidTimeRemaining(-1)) { try job.update(value: 40, timeRemaining: -1, at: 40) }
        #expect(throws: ProgressError.self) { try job.update(value: 40, timeRemaining: .nan, at: 40) }
        #expect(job.snapshot(at: 41).timeRemaining != nil, "a refused report leaves the job as it was")
    }
}
