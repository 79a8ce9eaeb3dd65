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

    @Test func totalDefaultsToOneAndValuesAreClamped() throws {
        var job = try ProgressJob(policy: policy, at: 0)
        try job.update(value: 0.25, at: 1)
        #expect(job.kind == .determinate(value: 0.25, total: 1))
        try job.update(value: 7, at: 2)
        #expect(job.kind == .determinate(value: 1, total: 1))
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
        #expect(job.displayedFraction(at: 11.3)! < 1)
        #expect(job.displayedFraction(at: 11.6) == 1)
        #expect(job.snapshot(at: 11.6).percentText == "100%")
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
        #expect(job.snapshot(at: 40).timeText == "30s left")
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
