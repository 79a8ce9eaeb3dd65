import Foundation
import Testing

/// A broker that floods a display: the bridge's log says each kind of refusal once a minute.
extension EndToEnd {
@Suite("MQTT floods")
struct MQTTBoundsTests {
    /// Regression: every refused message was a log line (200,000 refused begins wrote 299,000).
    @Test func refusalsThatRepeatAreLoggedOnceAMinute() throws {
        let broker = try MosquittoBroker()
        let display = try MQTTDisplay(broker: broker)
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("subscribed") })
        for index in 0..<40 { try broker.publish("headway/v1/jobs/flood/job-\(index)/begin", "not json \(index)") }
        // One that differs is said too.
        try broker.publish("headway/v1/jobs/flood/big/begin", String(repeating: "x", count: 5000))
        #expect(BackgroundProcess.eventually(within: 5) { display.bridge.stderr.contains("4096") }, "\(display.bridge.stderr)")
        TestTime.sleep(0.5)
        let refusals = display.bridge.stderr.components(separatedBy: "refused a message on").count - 1
        #expect(refusals == 2, "one line for the 40 alike, one for the other: \(display.bridge.stderr)")
    }
}
}
