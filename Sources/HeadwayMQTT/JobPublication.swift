import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// What a reporter publishes for each request of the socket protocol (docs/mqtt.md): the request's
/// own line as the payload, on the job's topic of its kind. A job's start clears what a previous
/// run of the same job left retained; its end clears everything retained, so a display that
/// starts later does not show a job that is over.
public enum JobPublication {
    /// One message to publish.
    public struct Message: Sendable, Equatable {
        /// Its topic.
        public var topic: String
        /// Its payload: a request line, or nothing to clear a retained message.
        public var payload: [UInt8]
        /// Whether the broker keeps it for later subscribers.
        public var retained: Bool
    }

    /// The messages, in order; nil for a request that has no meaning over MQTT (status and
    /// subscribe are questions; stop is a display's command). A begin from a reporter that
    /// `takesCommands` says so, so that displays offer their buttons for it.
    public static func messages(for request: Request, source: String, takesCommands: Bool = false) -> [Message]? {
        func line(_ job: String, _ kind: JobTopics.Kind, _ text: String = request.line) -> Message {
            Message(topic: JobTopics.topic(source: source, job: job, kind), payload: Array(text.utf8), retained: kind.retained)
        }
        func clear(_ job: String, _ kinds: [JobTopics.Kind]) -> [Message] {
            kinds.map { Message(topic: JobTopics.topic(source: source, job: job, $0), payload: [], retained: true) }
        }
        switch request {
        case .begin(let job, var options):
            // A process id means nothing on another machine: the connection's will stands for it.
            options.pid = nil
            var text = Request.begin(job: job, options).line
            if takesCommands { text = String(text.dropLast()) + #","commands":true}"# }
            return clear(job, [.progress, .label, .pause]) + [line(job, .begin, text)]
        case .update(let job, _, _, _, _, _, _), .updatePercent(let job, _, _, _), .indeterminate(let job): return [line(job, .progress)]
        case .label(let job, _): return [line(job, .label)]
        case .alive(let job), .stale(let job): return [line(job, .alive)]
        case .pause(let job), .resume(let job): return [line(job, .pause)]
        case .finish(let job, _): return [line(job, .end)] + clear(job, JobTopics.Kind.state)
        case .stop, .status, .subscribe: return nil
        }
    }

    /// A display's command to the reporter of a job (`stop`, `pause` or `resume` of the job).
    public static func command(_ request: Request, source: String, job: String) -> Message {
        Message(topic: JobTopics.topic(source: source, job: job, .command), payload: Array(request.line.utf8), retained: false)
    }

    /// The will of a reporter that holds a connection for a job (`headway run`): when the broker
    /// loses it — the runner's machine or process died — every display ends the job as failed.
    public static func will(source: String, job: String) -> MQTTSession.Will {
        MQTTSession.Will(topic: JobTopics.topic(source: source, job: job, .end), payload: Array(Request.finish(job: job, outcome: .failed).line.utf8), retained: false)
    }

    /// Who reports when nothing says: this machine's name.
    public static var defaultSource: String { Host.name }

    /// A client id for one reporting process (brokers refuse a second connection with the same id).
    public static func clientID(_ role: String) -> String { "headway-\(role)-\(Host.name.prefix(40))-\(Processes.id)" }

    /// The monotonic clock deadlines are measured on.
    public static var now: Double { MonotonicClock().now }
}
