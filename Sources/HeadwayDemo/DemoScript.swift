import Headway

/// The scripted job `headway-sim demo` plays, in simulated seconds: an indeterminate start, a switch
/// to determinate with a label and an ETA, a short stall, a resumption and success.
public enum DemoScript {
    /// Shorter stall and linger than the defaults, so every phase fits in the demo.
    public static let policy = LifecyclePolicy(grace: 2, stallAfter: 1.5, linger: 3, loseAfter: 600)
    /// The demo stops here, while the success signal is still up.
    public static let duration: Seconds = 16.5
    public static let firstLabel = "Fetching sources"

    public struct Event: Sendable {
        public let time: Seconds
        public let apply: @Sendable (ProgressIndicator) throws -> Void
    }

    public static var events: [Event] {
        var events = [Event(time: 3) { try $0.update(value: 0, total: 120, label: "Compiling 120 files") }]
        var value = 0.0
        for step in 1...20 {  // 3…8 s: 12 files a second
            value += 3
            let reported = value
            events.append(Event(time: 3 + Double(step) * 0.25) { try $0.update(value: reported) })
        }
        for step in 0..<15 {  // silent from 8 s to 11 s, then 16 files a second: all 120 at 14.5 s
            value += 4
            let reported = value
            events.append(Event(time: 11 + Double(step) * 0.25) { try $0.update(value: reported) })
        }
        events.append(Event(time: 13) { try $0.setLabel("Linking release build") })
        events.append(Event(time: 15) { try $0.finish(.succeeded) })
        return events.sorted { $0.time < $1.time }
    }
}
