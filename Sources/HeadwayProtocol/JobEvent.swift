import HeadwayCore

/// Something that happened to a job, sent to subscribers.
public struct JobEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, CaseIterable {
        /// Someone held the job's button: the client should stop the job and report it cancelled.
        case cancelRequested = "cancel-requested"
        /// The job was paused (its controller must stop its work).
        case paused
        /// The job was resumed (its controller continues its work).
        case resumed
        /// The job ended, with its ``JobEvent/outcome``.
        case finished
        /// The job's liveness ended without a finish: it is forgotten.
        case lost
        /// A job began (or began again), sent to those who follow every job.
        case begun
    }

    /// What happened.
    public var kind: Kind
    /// The job it happened to.
    public var job: String
    /// How the job ended (``Kind/finished`` only).
    public var outcome: Outcome?

    /// An event of `kind` about `job`.
    public init(_ kind: Kind, job: String, outcome: Outcome? = nil) {
        self.kind = kind
        self.job = job
        self.outcome = outcome
    }

    /// The event as one line of JSON (no newline).
    public var line: String {
        var members: [(String, JSONValue)] = [("v", .number(Double(WireProtocol.version))), ("event", .string(kind.rawValue)), ("job", .string(job))]
        if let outcome { members.append(("outcome", .string(outcome.rawValue))) }
        return JSONValue.object(members).text
    }

    /// Reads an event line; nil when the line is not an event (a reply, say).
    public static func parse(_ line: String) -> JobEvent? {
        guard let json = try? JSONValue.parse(line), let kind = json["event"]?.string.flatMap(Kind.init(rawValue:)),
            let job = json["job"]?.string
        else { return nil }
        return JobEvent(kind, job: job, outcome: json["outcome"]?.string.flatMap(Outcome.init(rawValue:)))
    }
}
