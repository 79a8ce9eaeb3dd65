import Foundation
import HeadwayClient
import Testing

extension EndToEnd {
/// HeadwayClient given a broker: a real mosquitto on loopback, `headway-mqtt` and
/// `headway-sim serve` as a Pi that shows the jobs.
@Suite("HeadwayClient over MQTT", .timeLimit(.minutes(1)), .enabled(if: try MosquittoBroker.needed, "mosquitto is not installed (Scripts/test installs it)"))
struct BrokerClientTests {
    @Test func aJobReportedOverTheBrokerShowsOnTheDisplay() async throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        let client = try HeadwayClient(broker: broker.url, source: "acme/widgets")
        let job = try await client.begin("gl-1", label: "Build widgets", total: 10)
        try job.update(value: 4)
        #expect(await HeadwayClientTests.eventually(within: 5) { display.percent(of: "acme/widgets/gl-1") == 40 }, "\(display.bridge.stderr)")
        #expect(client.isConnected)
        // jobs() lists what the broker holds, as headway --broker status does: this job, and
        // another program's.
        let other = try HeadwayClient(broker: broker.url, source: "lab")
        let render = try await other.begin("render", label: "Render", total: 4)
        try render.update(value: 1)
        await other.flush()
        var listed: [ServiceJob] = []
        #expect(await HeadwayClientTests.eventually(within: 5) {
            listed = (try? await client.jobs()) ?? []
            return listed.map(\.id) == ["acme/widgets/gl-1", "lab/render"] && listed.last?.percent == 25
        }, "\(listed)")
        #expect(listed.first.map { $0.label == "Build widgets" && $0.value == 4 && $0.total == 10 && $0.phase == .active } == true, "\(listed)")
        try await job.finish(.succeeded)
        // Succeeded on the outputs, or — when the other program's job stalled first (a sanitized
        // build is slow) and took the outputs — finished whole behind it.
        #expect(await HeadwayClientTests.eventually(within: 3) {
            let shown = (try? display.service.status())?.first { $0.job == "acme/widgets/gl-1" }
            return shown?.phase == "succeeded" || (shown?.phase == "hidden" && shown?.percent == 100)
        }, "\(String(describing: try? display.service.status())) \(display.bridge.stderr)")
        #expect(await HeadwayClientTests.eventually(within: 3) { (try? await client.jobs().map(\.id)) == ["lab/render"] })
        try await render.finish(.succeeded)
    }

    /// A long press on the Pi's button reaches the program as a cancel request.
    @Test func theDisplaysButtonReachesTheProgram() async throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        let client = try HeadwayClient(broker: broker.url, source: "lab")
        let job = try await client.begin("render", label: "Render", total: 10, controls: .all)
        try job.update(value: 2)
        let events = job.events()
        var iterator = events.makeAsyncIterator()
        #expect(await HeadwayClientTests.eventually(within: 5) { display.phase(of: "lab/render") == "active" }, "\(display.bridge.stderr)")
        _ = try display.service.press(long: false)
        #expect(await iterator.next()?.kind == .paused)
        #expect(await HeadwayClientTests.eventually(within: 3) { display.phase(of: "lab/render") == "paused" })
        _ = try display.service.press(long: false)
        #expect(await iterator.next()?.kind == .resumed)
        _ = try display.service.press(long: true)
        #expect(await iterator.next()?.kind == .cancelRequested)
        try await job.finish(.cancelled)
        #expect(await HeadwayClientTests.eventually(within: 3) { display.phase(of: "lab/render") == "cancelled" })
    }

    /// No broker: nothing waits, and the client says why.
    @Test func anAbsentBrokerCostsTheTimeoutOnce() async throws {
        let client = try HeadwayClient(broker: "mqtt://127.0.0.1:\(MosquittoBroker.freePort())", timeout: .milliseconds(300))
        let start = Date()
        let job = try await client.begin("x", total: 3)
        for value in 1...3 { try job.update(value: Double(value)) }
        try await job.finish()
        #expect(Date().timeIntervalSince(start) < 1, "\(Date().timeIntervalSince(start)) s")
        guard case .unavailable = client.connection else { Issue.record("\(client.connection)"); return }
        // Asked for its jobs, the absent broker says so within the timeout.
        let asked = Date()
        await #expect(throws: ClientError.self) { _ = try await client.jobs() }
        #expect(Date().timeIntervalSince(asked) < 1)
        #expect(throws: ClientError.self) { try HeadwayClient(broker: "http://broker.local") }
    }
}
}
