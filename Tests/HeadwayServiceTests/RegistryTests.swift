import Headway
import HeadwayProtocol
@testable import HeadwayService
import Testing

/// The job registry under load and against hostile use, with a manual clock.
@Suite("Job registry")
struct RegistryTests {
    let policy = LifecyclePolicy(grace: 2, stallAfter: 30, linger: 3, loseAfter: 600)

    /// Regression: 100k jobs made `begin` 810 ms and `status` fail. The registry holds at most its
    /// limit; one more is refused with a message that says what to do, and nothing else changes.
    @Test func theJobLimitIsEnforcedAndSaysWhy() throws {
        var registry = JobRegistry(policy: policy, limit: 10_000)
        for index in 0..<10_000 { try registry.begin("job-\(index)", label: nil, kind: .indeterminate, requester: 1000, at: 0) }
        #expect(throws: JobRefusal.tooManyJobs(limit: 10_000)) {
            try registry.begin("one-more", label: nil, kind: .indeterminate, requester: 1000, at: 0)
        }
        // A job that exists may begin again; once jobs are over, room is made.
        try registry.begin("job-5", label: "again", kind: .indeterminate, requester: 1000, at: 1)
        for index in 0..<10 {
            try registry.change("job-\(index)", requester: 1000, at: 3) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(.succeeded, at: 3) }
        }
        _ = registry.advance(to: 7)
        #expect(registry.count == 9_990)
        try registry.begin("one-more", label: nil, kind: .indeterminate, requester: 1000, at: 7)
    }

    /// The service's next wake-up and the jobs it draws never cost a walk over every job.
    @Test func nextChangeAndNewestVisibleStayCheapWithTenThousandJobs() throws {
        var registry = JobRegistry(policy: policy)
        for index in 0..<10_000 { try registry.begin("job-\(index)", label: nil, kind: .determinate(value: 0, total: 10), requester: nil, at: Double(index) * 0.001) }
        #expect(registry.nextChange() == 2)
        _ = registry.advance(to: 12.5)
        #expect(registry.visibleCount == 10_000)
        let shown = registry.newestVisible(at: 12.5, limit: 3)
        #expect(shown.map(\.id) == ["job-9999", "job-9998", "job-9997"])
        // 100 000 updates leave one live timer per job on the heap, not one per update.
        for round in 0..<10 {
            for index in 0..<10_000 {
                try registry.change("job-\(index)", requester: nil, at: 12.5 + Double(round)) { (job: inout ProgressJob) throws(ProgressError) in
                    try job.update(value: Double(round), at: 12.5 + Double(round))
                }
            }
        }
        #expect(registry.timerCount <= 2 * 10_000)
        let (listed, omitted) = registry.all(at: 30, limit: 1000)
        #expect(listed.count == 1000 && omitted == 9000 && listed.last?.id == "job-9999")
    }

    /// Regression: `nobody` relabelled and cancelled root's job. Only the user who began a job (or
    /// root) may change it; the service itself (a button) always may.
    @Test func onlyTheOwnerOrRootChangesAJob() throws {
        var registry = JobRegistry(policy: policy)
        try registry.begin("build", label: "mine", kind: .indeterminate, requester: 1000, at: 0)
        #expect(throws: JobRefusal.belongsToAnotherUser(job: "build", owner: 1000)) {
            try registry.change("build", requester: 65534, at: 1) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel("pwned", at: 1) }
        }
        #expect(throws: JobRefusal.belongsToAnotherUser(job: "build", owner: 1000)) {
            try registry.begin("build", label: "taken", kind: .indeterminate, requester: 65534, at: 1)
        }
        #expect(registry["build"]?.job.label == "mine")
        try registry.change("build", requester: 0, at: 1) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel("root may", at: 1) }
        try registry.change("build", requester: nil, at: 1) { (job: inout ProgressJob) throws(ProgressError) in try job.pause(at: 1) }
        try registry.begin("build", label: "restarted by root", kind: .indeterminate, requester: 0, at: 2)
        #expect(registry["build"]?.owner == 1000, "a restart keeps the job's owner")
    }

    /// Regression: a job finished inside the grace delay stayed `hidden` for ever on an idle
    /// service. It is forgotten after the linger, and the idle service knows when to wake for it.
    @Test func quickJobsAreForgottenWhileIdle() throws {
        var registry = JobRegistry(policy: policy)
        try registry.begin("quick", label: nil, kind: .indeterminate, requester: nil, at: 0)
        try registry.change("quick", requester: nil, at: 0.5) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(.succeeded, at: 0.5) }
        #expect(registry.visibleCount == 0)
        // An idle service sleeps until the next timer (one may fire early and set the next).
        var departures: [JobRegistry.Departure] = []
        while let next = registry.nextChange() {
            #expect(next <= 3.5)
            departures += registry.advance(to: next).departures
        }
        #expect(departures == [JobRegistry.Departure(id: "quick", lost: false)])
        #expect(registry.count == 0)
    }

    /// A failure inside the grace delay is shown all the same: it is news however short the job.
    @Test func quickFailuresAreShown() throws {
        var registry = JobRegistry(policy: policy)
        try registry.begin("oops", label: nil, kind: .indeterminate, requester: nil, at: 0)
        try registry.change("oops", requester: nil, at: 0.5) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(.failed, at: 0.5) }
        #expect(registry.visibleCount == 1)
        #expect(registry.newestVisible(at: 1, limit: 1).first?.snapshot.phase == .finished(.failed))
    }
}
