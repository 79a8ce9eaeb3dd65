import HeadwayMQTT
import HeadwayProtocol
import Testing

/// What a display's bridge remembers stays bounded by age and count, whatever a broker sends.
@Suite("What a bridge remembers")
struct BridgeMemoryTests {
    /// Regression: every distinct job id begun was remembered until its finish (200,000 begins
    /// took headway-mqtt from 16 to 93 MB).
    @Test func aFloodOfBeginsIsRememberedBoundedly() {
        var memory = BridgeMemory(capacity: 10_000)
        for index in 0..<200_000 {
            _ = memory.begin("flood/\(index)", remote: BridgeMemory.Remote(source: "flood", job: "\(index)"), at: Double(index) / 100)
        }
        #expect(memory.count <= 10_000)
        #expect(memory.isBegun("flood/199999") && !memory.isBegun("flood/0"), "the jobs heard from longest ago go first")
        #expect(memory.remote("flood/199999") == BridgeMemory.Remote(source: "flood", job: "199999"))
        // Progress for jobs never begun is held for a bounded number of them.
        for index in 0..<50_000 { _ = memory.take(.alive(job: "orphan/\(index)"), for: "orphan/\(index)", at: 2000) }
        #expect(memory.count <= 10_000 + memory.maxWaiting)
    }

    @Test func aJobIsForgottenAtItsFinishOrWhenSilentTooLong() {
        var memory = BridgeMemory(maxAge: 3600)
        // Progress before the begin waits for it, its last four requests.
        for value in 1...6 {
            let sent = memory.take(.update(job: "a", value: Double(value), total: 10, label: nil), for: "a", at: 0)
            #expect(!sent)
        }
        let held = memory.begin("a", remote: nil, at: 1)
        #expect(held.count == 4 && held.last == .update(job: "a", value: 6, total: 10, label: nil))
        let sent = memory.take(.alive(job: "a"), for: "a", at: 2)
        #expect(sent, "begun: sent at once")
        _ = memory.begin("b", remote: BridgeMemory.Remote(source: "s", job: "b"), at: 2)
        memory.forget("a")
        #expect(!memory.isBegun("a"))
        memory.forgetOld(at: 2 + 3601)
        #expect(memory.count == 0 && memory.remotes.isEmpty, "silent for longer than an hour: forgotten")
    }
}
