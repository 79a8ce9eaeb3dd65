import Foundation
import HeadwayCore
import Testing

/// The estimator on scripted timelines: each builds a job's reports, then compares the ETA with
/// the time the job really had left at that moment.
@Suite("Rate and ETA estimation")
struct EstimatorTests {
    private func eta(_ reports: [(Seconds, Double)], total: Double, at now: Seconds) -> Seconds? {
        var estimator = RateEstimator()
        for (time, value) in reports where time <= now { estimator.record(value: value, at: time) }
        return estimator.timeRemaining(total: total, at: now)
    }

    /// A rate read from a second or two is a guess (a backup's buffers filling read four times
    /// faster than its upload): none until three seconds of progress were seen.
    @Test func nothingUntilThreeSecondsAreSeen() {
        var estimator = RateEstimator()
        estimator.record(value: 0, at: 0)
        #expect(estimator.rate == nil)
        estimator.record(value: 20, at: 1)
        #expect(estimator.rate == nil)
        estimator.record(value: 25, at: 2.5)
        #expect(estimator.rate == nil)
        estimator.record(value: 30, at: 3)
        #expect(estimator.rate == 10)
    }

    /// A job in stages of different work (apt: its download is the first half of its scale, the
    /// installation the second): the download's pace says nothing of the installation's, so no
    /// time is told while another stage follows, and the last stage's is read from its own pace.
    /// The stage is kept through a restart.
    @Test func aStageFollowedByOtherWorkTellsNoTimeAndTheLastIsReadOnItsOwn() throws {
        var job = try ProgressJob(label: "apt", at: 0)
        // The download: 50 of 100 in 40 s.
        for second in 0...40 { try job.update(value: Double(second) * 50 / 40, total: 100, stageEnd: 50, at: Double(second)) }
        #expect(job.snapshot(at: 40).phase == .active && job.snapshot(at: 40).timeRemaining == nil)
        let restored = try JSONDecoder().decode(ProgressJob.self, from: JSONEncoder().encode(job))
        #expect(restored.stageEnd == 50)
        // The installation: 5 a second, 80 at 46 s.
        for second in 41...46 { try job.update(value: 50 + Double(second - 40) * 5, total: 100, at: Double(second)) }
        #expect(job.stageEnd == nil)
        let left = try #require(job.snapshot(at: 46).timeRemaining)
        #expect(abs(left - 4) < 0.1, "\(left) s (at the download's pace it would be 16 s)")
        // A stage end below the value is refused, and the job keeps what it had.
        #expect(throws: ProgressError.invalidStageEnd(70)) { try job.update(value: 90, total: 100, stageEnd: 70, at: 47) }
        #expect(job.kind == .determinate(value: 80, total: 100))
    }

    @Test func steady() throws {
        // 1 unit a second, reported every second, 100 in all.
        let reports = (0...100).map { (Double($0), Double($0)) }
        let at40 = try #require(eta(reports, total: 100, at: 40))
        #expect(abs(at40 - 60) < 0.01)
        // Between reports the ETA counts down with the clock instead of standing still.
        let between = try #require(eta(reports, total: 100, at: 40.5))
        #expect(abs(between - 59.5) < 0.01)
    }

    @Test func burstyReportsWeighByTimeNotByCount() throws {
        // 10 units arrive in a burst of ten reports 1 ms apart, every 10 s: 1 unit/s on average.
        var reports: [(Seconds, Double)] = []
        for burst in 0..<12 {
            for i in 1...10 { reports.append((Double(burst) * 10 + Double(i) * 0.001, Double(burst * 10 + i))) }
        }
        var estimator = RateEstimator()
        for (time, value) in reports { estimator.record(value: value, at: time) }
        let rate = try #require(estimator.rate)
        #expect(rate > 0.6 && rate < 1.6, "rate \(rate) should be near 1/s")
        // A per-update average would be dominated by the 1 ms intervals (thousands per second).
    }

    @Test func slowStartConverges() throws {
        // 0.2 units/s for 20 s, then 2 units/s; total 200.
        var reports: [(Seconds, Double)] = []
        for t in 0...20 { reports.append((Double(t), 0.2 * Double(t))) }
        for t in 21...120 { reports.append((Double(t), 4 + 2 * Double(t - 20))) }
        let truth = { (t: Double) in (200 - (4 + 2 * (t - 20))) / 2 }
        let early = try #require(eta(reports, total: 200, at: 25))
        #expect(early > truth(25), "five seconds after the change the ETA is still pessimistic")
        let later = try #require(eta(reports, total: 200, at: 80))
        #expect(abs(later - truth(80)) / truth(80) < 0.1, "ETA \(later) vs \(truth(80)) a minute after the change")
    }

    @Test func stallThenResume() throws {
        // 1 unit/s until 30 s, silent for 90 s, then 1 unit/s again; total 100.
        let policy = LifecyclePolicy(grace: 2, stallAfter: 15, linger: 3, loseAfter: 600)
        var job = try ProgressJob(kind: .determinate(value: 0, total: 100), policy: policy, at: 0)
        for t in 1...30 { try job.update(value: Double(t), at: Double(t)) }
        #expect(job.snapshot(at: 44).timeRemaining != nil)
        let stalled = job.snapshot(at: 100)
        #expect(stalled.phase == .stalled(silence: 70))
        #expect(stalled.timeRemaining == nil && stalled.timeText == "stalled 1m10s")
        for t in 121...130 { try job.update(value: Double(t - 90), at: Double(t)) }
        let resumed = try #require(job.snapshot(at: 130).timeRemaining)
        // 60 units left at 1/s; the 90 s silence was a pause, not a slow stretch.
        #expect(abs(resumed - 60) / 60 < 0.05, "ETA after resuming \(resumed)")
    }

    /// Regression: a pace that changes every few seconds (a link that slows and recovers) had its
    /// ETA follow the last burst. The window of three quarters of the time seen averages over the
    /// changes.
    @Test func aPaceThatAlternatesIsAveraged() throws {
        // 3 units/s for 10 s, then 1 unit/s for 10 s, again and again: 2 units/s on average; 500 in all.
        var reports: [(Seconds, Double)] = []
        var value = 0.0
        for t in 1...250 {
            value += (t - 1) % 20 < 10 ? 3 : 1
            reports.append((Double(t), value))
        }
        // Each at the end of a fast stretch, where the last burst misleads most.
        for at in [81.0, 121, 161] {
            let done = reports.last { $0.0 <= at }!.1
            let truth = (500 - done) / 2
            let left = try #require(eta(reports, total: 500, at: at))
            #expect(abs(left - truth) / truth < 0.05, "at \(at) s: ETA \(left), truth about \(truth)")
        }
    }

    /// A job that reports a hundred times a second for an hour keeps a bounded history.
    @Test func theHistoryIsBounded() throws {
        var estimator = RateEstimator()
        for step in 0..<360_000 { estimator.record(value: Double(step), at: Double(step) / 100) }
        let rate = try #require(estimator.rate)
        #expect(abs(rate - 100) < 0.5)
        let written = String(decoding: try JSONEncoder().encode(estimator), as: UTF8.self)
        #expect(written.count < 4096, "\(written.count) bytes")
    }

    /// A job written by a service of the version before (its estimator an exponential average) is
    /// read back: the rate starts afresh from its next reports.
    @Test func anEstimatorWrittenBeforeIsReadBack() throws {
        let before = #"{"timeConstant":20,"stallThreshold":30,"minimumObservation":1,"base":{"time":5,"value":5},"latest":{"time":5,"value":5},"smoothedRate":1,"weight":0.2,"observed":5}"#
        var estimator = try JSONDecoder().decode(RateEstimator.self, from: Data(before.utf8))
        #expect(estimator.rate == nil)
        for t in 6...10 { estimator.record(value: Double(t), at: Double(t)) }
        #expect(estimator.rate == 1)
    }

    @Test func regressionRebasesWithoutChangingRate() throws {
        var estimator = RateEstimator()
        for t in 0...10 { estimator.record(value: Double(t), at: Double(t)) }
        let before = try #require(estimator.rate)
        estimator.record(value: 2, at: 11)
        #expect(estimator.rate == before)
    }
}
