import HeadwayCore
@testable import HeadwayProtocol
import Testing

/// Jobs written as JSON and read back are the same jobs: every kind, liveness, phase and the
/// estimator's and easing's state, through the text a state file holds.
@Suite("Codable values as JSON")
struct JSONValueCodingTests {
    static func jobs() throws -> [ProgressJob] {
        let policy = LifecyclePolicy.standard
        var determinate = try ProgressJob(label: "Backup \"nightly\"", policy: policy, at: 100.25)
        try determinate.update(value: 3, total: 7, label: "files", timeRemaining: 42, at: 101.5)
        try determinate.update(value: 4.5, at: 103.125)
        var timer = try ProgressJob(kind: .timer(start: 10, end: 70, countsDown: true), policy: policy, liveness: .heartbeat(interval: 5), at: 10)
        timer.completesAtEnd = true
        var paused = try ProgressJob(label: nil, policy: policy, liveness: .process(pid: 4242), expectedDuration: 600, at: 0)
        try paused.pause(at: 30)
        var finished = try ProgressJob(label: "ünïcödé ✓", policy: policy, liveness: .followed(interval: 15), queued: true, at: 5)
        try finished.finish(.failed, at: 9)
        return [determinate, timer, paused, finished]
    }

    @Test func jobsRoundTripThroughText() throws {
        for job in try Self.jobs() {
            let text = try JSONValueCoding.encode(job).text
            let back = try JSONValueCoding.decode(ProgressJob.self, from: try JSONValue.parse(text))
            #expect(back == job, "\(text)")
        }
    }

    @Test func aDamagedValueIsAnErrorWithItsPlace() throws {
        let job = try Self.jobs()[0]
        guard case .object(var members) = try JSONValueCoding.encode(job) else { Issue.record("an object"); return }
        members = members.map { $0.0 == "kind" ? ($0.0, .string("sideways")) : $0 }
        #expect(throws: JSONValueCoding.Mismatch.self) { try JSONValueCoding.decode(ProgressJob.self, from: .object(members)) }
        #expect(throws: JSONValueCoding.Mismatch.self) { try JSONValueCoding.decode(ProgressJob.self, from: .array([])) }
    }

    /// The text is made in one allocation of its final size: the length counted first is the text's.
    @Test func theLengthCountedIsTheTexts() throws {
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .number(42), .number(-0.125), .number(1e300), .number(.nan), .string(""),
            .string("quote \" back \\ line\n\r\t bell \u{7} é 中 🙂"), .array([]), .array([.number(1), .string("a"), .null]),
            .object([]), .object([("k", .array([.object([("é", .bool(true))])])), ("", .string("\u{1F}"))]),
            try JSONValueCoding.encode(Self.jobs()[0]),
        ]
        for value in values { #expect(value.textLength == value.text.utf8.count, "\(value.text)") }
    }

    @Test func aShiftedJobGoesOnWhereItWas() throws {
        let job = try Self.jobs()[0]
        let moved = job.shifted(by: 1000)
        #expect(moved.snapshot(at: 1103.125 + 5) == job.snapshot(at: 103.125 + 5).shiftedTime(by: 1000))
    }
}

extension ProgressSnapshot {
    func shiftedTime(by delta: Double) -> ProgressSnapshot {
        var moved = self
        moved.time += delta
        moved.phaseEndsAt = phaseEndsAt.map { $0 + delta }
        return moved
    }
}
