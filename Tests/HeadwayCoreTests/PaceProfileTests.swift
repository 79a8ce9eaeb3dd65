import Foundation
import HeadwayCore
import Testing

/// The last run's pace as the estimate of the next run of the same job: a build whose steps are
/// uneven, a backup that reads 100 % while its upload finishes.
@Suite("Learned pace")
struct PaceProfileTests {
    /// A build of 100 steps: 80 quick ones in 20 s, then 20 slow ones (the large files, the link)
    /// in 60 s; 80 s in all.
    private func build(_ job: inout ProgressJob, speed: Double = 1, until stop: Seconds = .infinity) throws {
        for step in 1...100 {
            let at = (step <= 80 ? Double(step) * 0.25 : 20 + Double(step - 80) * 3) / speed
            guard at <= stop else { return }
            try job.update(value: Double(step), total: 100, at: at)
        }
    }

    private func finishedBuild(speed: Double = 1) throws -> PaceProfile {
        var job = try ProgressJob(at: 0)
        try build(&job, speed: speed)
        try job.finish(.succeeded, at: 80 / speed)
        return try #require(job.pace)
    }

    /// Regression: a build's uneven steps made its rate promise the end far too soon (80 of 100
    /// steps in 20 s read "5 s left" when 60 s were); its second run reads the time from the first.
    @Test func theSecondRunOfABuildReadsItsTimeFromTheFirst() throws {
        var first = try ProgressJob(at: 0)
        try build(&first, until: 20)
        let guessed = try #require(first.snapshot(at: 20).timeRemaining)
        #expect(guessed < 30, "the first run has only its rate: \(guessed) s")

        var second = try ProgressJob(at: 0)
        second.learnedPace = try finishedBuild()
        try build(&second, until: 20)
        let learned = try #require(second.snapshot(at: 20).timeRemaining)
        #expect(abs(learned - 60) < 1, "the second run knows the rest takes a minute: \(learned) s")
    }

    /// A run slower than the last (a busier machine) is read at its own pace.
    @Test func aSlowerRunIsScaled() throws {
        var job = try ProgressJob(at: 0)
        job.learnedPace = try finishedBuild()
        try build(&job, speed: 0.5, until: 40)
        let left = try #require(job.snapshot(at: 40).timeRemaining)
        #expect(abs(left - 120) < 2, "twice as slow so far, twice as long to go: \(left) s")
    }

    /// A run more than three times faster or slower than the last is not the same work: its own
    /// rate speaks.
    @Test func aRunOfOtherWorkIsReadByItsRate() throws {
        let pace = try finishedBuild()
        #expect(pace.timeLeft(from: 0.5, running: 1) == nil)
        #expect(pace.timeLeft(from: 0.5, running: 10) != nil)
    }

    /// A backup that reported 100 % five seconds before it ended: the end is its exit, so the next
    /// run's time left includes those seconds.
    @Test func theEndIsTheRunsEndNotItsLastReport() throws {
        var job = try ProgressJob(at: 0)
        for t in 1...20 { try job.update(value: Double(t) * 5, total: 100, at: Double(t)) }
        try job.finish(.succeeded, at: 25)
        let pace = try #require(job.pace)
        #expect(pace.times.last == 25)
        let left = try #require(pace.timeLeft(from: 0.5, running: 10))
        #expect(abs(left - 15) < 0.01, "\(left)")
    }

    /// A profile read back must be whole and in order; anything else is dropped.
    @Test func onlyAWholeOrderedProfileIsReadBack() {
        #expect(PaceProfile(times: (1...20).map(Double.init)) != nil)
        #expect(PaceProfile(times: (1...19).map(Double.init)) == nil)
        #expect(PaceProfile(times: (1...20).map(Double.init).reversed()) == nil)
        #expect(PaceProfile(times: [Double.nan] + (2...20).map(Double.init)) == nil)
        #expect(PaceProfile(times: Array(repeating: 0, count: 20)) == nil)
    }

    /// The learned pace survives a restart with the job.
    @Test func thePaceIsKeptWithTheJob() throws {
        var job = try ProgressJob(at: 0)
        job.learnedPace = try finishedBuild()
        try build(&job, until: 20)
        let back = try JSONDecoder().decode(ProgressJob.self, from: JSONEncoder().encode(job))
        #expect(back.learnedPace == job.learnedPace && back.pace == job.pace)
        #expect(back.snapshot(at: 20).timeRemaining == job.snapshot(at: 20).timeRemaining)
    }
}
