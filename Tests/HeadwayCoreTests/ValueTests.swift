import HeadwayCore
import Testing

@Suite("Reported and displayed values")
struct ValueTests {
    let policy = LifecyclePolicy(grace: 0, stallAfter: 30, linger: 3, loseAfter: 600, easing: 0.6)

    @Test(arguments: [Double.nan, -1, .infinity, -.infinity])
    func invalidValuesAreRefusedAndChangeNothing(value: Double) throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 2, total: 10, at: 1)
        let before = job
        #expect(throws: ProgressError.self) { try job.update(value: value, at: 2) }
        #expect(job == before)
    }

    @Test(arguments: [Double.nan, 0, -5, .infinity])
    func invalidTotalsAreRefused(total: Double) throws {
        var job = try ProgressJob(policy: policy, at: 0)
        #expect(throws: ProgressError.self) { try job.update(value: 0, total: total, at: 1) }
        #expect(job.kind == .indeterminate)
    }

    /// Regression: `set 42` on a job begun without a total read as 99 % for good, and a later
    /// `set 50%` could not bring it back. A value above the total is refused; the job keeps its
    /// last good value, and a percentage still works.
    @Test func totalDefaultsToOneAndValuesAboveItAreRefused() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 0.25, at: 1)
        #expect(job.kind == .determinate(value: 0.25, total: 1))
        let before = job
        #expect(throws: ProgressError.valueAboveTotal(value: 42, total: 1)) { try job.update(value: 42, at: 2) }
        #expect(job == before)
        #expect(throws: ProgressError.valueAboveTotal(value: 121, total: 120)) { try job.update(value: 121, total: 120, at: 2) }
        try job.update(value: 120, total: 120, at: 2)
        try job.update(percent: 50, at: 3)
        #expect(job.kind == .determinate(value: 60, total: 120))
        #expect(ProgressError.valueAboveTotal(value: 42, total: 1).description.hasPrefix("42 is above this job's total 1"))
    }

    /// What value and total count comes with the reports and stays until another is given.
    @Test func theUnitIsKeptUntilAnotherIsGiven() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 1_205_862_400, total: 3_145_728_000, unit: .bytes, at: 1)
        try job.update(value: 2_000_000_000, at: 2)
        #expect(job.snapshot(at: 3).valueText == "2/3.1 GB")
        try job.update(value: 2.6, total: 40, unit: .seconds, at: 4)
        #expect(job.snapshot(at: 5).valueText == "2s/40s")
    }

    @Test func errorMessagesSayHowToFix() {
        #expect(ProgressError.invalidValue(-1).description.contains("finite number ≥ 0"))
        #expect(ProgressError.indeterminateAfterDeterminate.description.contains("reset"))
    }

    @Test func easesWithoutOvershootAndNeverBackwards() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 40, total: 100, at: 1)
        var previous = 0.0
        for t in stride(from: 1.0, through: 2, by: 0.01) {
            let shown = try #require(job.displayedFraction(at: t))
            #expect(shown >= previous && shown <= 0.4)
            previous = shown
        }
        #expect(job.displayedFraction(at: 1.6) == 0.4)
        // A lower report (a larger total) holds the display still instead of moving it back.
        try job.update(value: 40, total: 200, at: 3)
        #expect(job.displayedFraction(at: 3.5) == 0.4)
        try job.update(value: 100, total: 200, at: 4)
        #expect(job.displayedFraction(at: 4.3)! > 0.4)
        #expect(job.displayedFraction(at: 5)! == 0.5)
    }

    @Test func neverShowsCompleteBeforeSuccess() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 100, total: 100, at: 1)
        #expect(job.displayedFraction(at: 10) == ProgressJob.unfinishedCeiling)
        #expect(job.snapshot(at: 10).percentText == "99%")
        try job.finish(.succeeded, at: 11)
        #expect(job.displayedFraction(at: 11) == 1)
        #expect(job.snapshot(at: 11).percentText == "100%")
    }

    /// Regression: `set 1000; done` read "succeeded 99% (1000/1000)", and a report just before a
    /// failure was not reached: the ease under way when a job ends is cut short, so a finished job
    /// reads the truth from its first moment.
    @Test func aFinishedJobReadsTheTruthAtOnce() throws {
        var done = try ProgressJob(policy: policy, at: 0)
        try done.update(value: 0, total: 1000, at: 1)
        try done.update(value: 1000, total: 1000, at: 1.1)
        try done.finish(.succeeded, at: 1.2)
        #expect(done.snapshot(at: 1.2).percentText == "100%")
        #expect(done.snapshot(at: 1.2).valueText == "1000/1000")
        var failed = try ProgressJob(policy: policy, at: 0)
        try failed.update(value: 0, total: 1000, at: 1)
        try failed.update(value: 420, total: 1000, at: 1.1)
        try failed.finish(.failed, at: 1.2)
        #expect(failed.snapshot(at: 1.2).percentText == "42%")
        var estimated = try ProgressJob(policy: policy, expectedDuration: 100, at: 0)
        try estimated.finish(.succeeded, at: 50)
        #expect(estimated.snapshot(at: 50).percentText == "100%")
    }

    @Test func failureKeepsTheFillWhereItWas() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 0.3, at: 1)
        try job.finish(.failed, at: 5)
        #expect(job.displayedFraction(at: 6) == 0.3)
    }

    @Test func indeterminateToDeterminateIsAnimatedAndNotReversible() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        #expect(job.displayedFraction(at: 1) == nil)
        try job.update(value: 0.5, at: 2)
        #expect(abs(job.snapshot(at: 2.2).determinateFor! - 0.2) < 1e-9)
        #expect(job.displayedFraction(at: 2)! == 0)
        #expect(job.displayedFraction(at: 2.3)! > 0)
        #expect(throws: ProgressError.indeterminateAfterDeterminate) { try job.indeterminate(at: 3) }
        try job.reset(at: 4)
        #expect(job.displayedFraction(at: 4) == nil)
        try job.indeterminate(at: 5)
        try job.update(value: 0.1, at: 6)
        #expect(job.displayedFraction(at: 7) == 0.1)
    }

    @Test func countdownIsDrivenByTheClock() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.startTimer(from: 10, to: 70, countsDown: true, at: 10)
        #expect(job.displayedFraction(at: 10) == 1)
        #expect(job.displayedFraction(at: 40) == 0.5)
        #expect(job.displayedFraction(at: 80) == 0)
        #expect(job.snapshot(at: 40).timeRemaining == 30)
        #expect(job.snapshot(at: 40).timeText == "30s left of 1m" && job.snapshot(at: 40).percentText == nil)
        var up = try ProgressJob(policy: policy, at: 0)
        try up.startTimer(from: 0, to: 10, countsDown: false, at: 0)
        #expect(up.displayedFraction(at: 5) == 0.5)
        #expect(up.displayedFraction(at: 20) == ProgressJob.unfinishedCeiling)
        #expect(throws: ProgressError.invalidInterval(start: 5, end: 5)) { try up.startTimer(from: 5, to: 5, at: 1) }
    }

    @Test func labelsAndValueText() throws {
        var job = try ProgressJob(label: "Copy", policy: policy, at: 0)
        try job.update(value: 3, total: 10, at: 1)
        #expect(job.snapshot(at: 2).valueText == "3/10")
        try job.setCurrentValueLabel("3 of 10 files", at: 2)
        #expect(job.snapshot(at: 2).valueText == "3 of 10 files")
        try job.update(value: 0.5, total: 1, label: "Verify", at: 3)
        #expect(job.snapshot(at: 3).label == "Verify")
    }

    @Test func durationText() {
        #expect(DurationText.short(0) == "0s")
        #expect(DurationText.short(59.4) == "59s")
        #expect(DurationText.short(59.2, rounding: .up) == "1m00s")
        #expect(DurationText.short(65) == "1m05s")
        #expect(DurationText.short(3 * 3600 + 125) == "3h02m")
        #expect(NumberText.compact(42) == "42")
        #expect(NumberText.compact(3.25) == "3.3")
    }
}
