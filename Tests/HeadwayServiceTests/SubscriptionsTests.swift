import HeadwayProtocol
@testable import HeadwayService
import Testing

/// Subscriptions end with their job, and the per-connection limit counts the jobs that go on.
@Suite("Subscriptions")
struct SubscriptionsTests {
    /// Regression: a connection that stays (headway-mqtt, controller of every remote `headway
    /// run`) was refused every subscription after 1,024, even to jobs long forgotten, so a long
    /// press on the next remote job never reached its runner.
    @Test func aConnectionThatStaysFollowsAnyNumberOfJobsInTurn() {
        let fixture = ServiceCoreTests.Fixture()
        var time = 0.0
        for round in 0..<12 {
            for index in 0..<100 {
                let job = "remote-\(round)-\(index)"
                #expect(fixture.send(.begin(job: job, label: nil, total: nil), from: 2).0 == .ok)
                let (reply, _) = fixture.send(.subscribe(job: job, controls: true), from: 9)
                #expect(reply == .ok, "subscription \(round * 100 + index + 1): \(String(describing: reply))")
            }
            for index in 0..<100 { fixture.send(.finish(job: "remote-\(round)-\(index)", outcome: .succeeded), from: 2) }
            // Shown as finished for the linger time, then forgotten.
            time += 10
            fixture.advance(to: time)
        }
        fixture.advance(to: time + 1)
        #expect(fixture.core.subscribers(for: "remote-0-0").isEmpty, "the subscription ended with its job")
        // The next remote job is controlled by it: a long press reaches its runner.
        fixture.send(.begin(job: "next", label: nil, total: nil), from: 2)
        #expect(fixture.send(.subscribe(job: "next", controls: true), from: 9).0 == .ok)
        fixture.advance(to: time + 3)
        #expect(fixture.core.button(.longPress) == [JobEvent(.cancelRequested, job: "next")])
    }

    /// A job's controller ends with the job: the same id begun again by a hook has none, and a
    /// pause of it is refused rather than sent to a connection that runs nothing of it.
    @Test func theControllerEndsWithItsJob() {
        let fixture = ServiceCoreTests.Fixture()
        fixture.send(.begin(job: "x", label: nil, total: nil), from: 2)
        fixture.send(.subscribe(job: "x", controls: true), from: 9)
        fixture.send(.finish(job: "x", outcome: .succeeded), from: 2)
        fixture.advance(to: 10)
        fixture.advance(to: 11)
        fixture.send(.begin(job: "x", label: nil, total: nil), from: 3)
        guard case .error(let refusal)? = fixture.send(.pause(job: "x"), from: 3).0 else { return #expect(Bool(false), "a pause was taken") }
        #expect(refusal.code == .notControllable)
    }

    /// A lost job's subscribers are told it is lost before their subscription ends.
    @Test func aLostJobIsToldBeforeItsSubscriptionsEnd() {
        var subscriptions = Subscriptions()
        #expect(subscriptions.subscribe(4, to: "quiet") == nil)
        subscriptions.depart(["quiet"])
        #expect(subscriptions.subscribers(for: "quiet") == [4], "still there to be told")
        subscriptions.endDeparted { _ in false }
        #expect(subscriptions.subscribers(for: "quiet").isEmpty && !subscriptions.has(4))
        // Begun again before the end: its subscribers stay.
        _ = subscriptions.subscribe(4, to: "again")
        subscriptions.depart(["again"])
        subscriptions.endDeparted { $0 == "again" }
        #expect(subscriptions.subscribers(for: "again") == [4])
    }

    /// The limit counts jobs that are alive: subscriptions to jobs never begun, or gone, make room.
    @Test func theLimitCountsWhatIsAlive() {
        var subscriptions = Subscriptions()
        for index in 0..<Subscriptions.limitPerConnection { #expect(subscriptions.subscribe(1, to: "j\(index)") == nil) }
        #expect(subscriptions.subscribe(1, to: "one more", alive: { _ in true })?.code == .limitReached, "all alive: the limit holds")
        #expect(subscriptions.subscribe(1, to: "one more", alive: { $0 != "j7" }) == nil, "j7 is gone: room for one")
        #expect(subscriptions.count(of: 1) == Subscriptions.limitPerConnection)
        #expect(subscriptions.subscribers(for: "j7").isEmpty)
        // A refused subscription does not make its connection the job's controller.
        #expect(subscriptions.subscribe(1, to: "refused", controls: true)?.code == .limitReached)
        #expect(subscriptions.controller(of: "refused") == nil)
    }
}
