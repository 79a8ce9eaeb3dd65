import HeadwayCore

/// Something that happened to a job, sent to subscribers.
public struct JobEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Someone held the job's button: the client should stop the job and report it cancelled.
        case cancelRequested = "cancel-requested"
        case paused, resumed, finished, lost
        /// A job began (or began again), sent to those who follow every job.
        case begun
    }

    public var kind: Kind
    public var job: String
    public var outcome: Outcome?

    public init(_ kind: Kind, job: String, outcome: Outcome? = nil) {
        self.kind = kind
        self.job = job
        self.outcome = outcome
    }

    public var line: String {
        var members: [(String, JSONValue)] = [("v", .number(Double(WireProtocol.version))), ("event", .string(kind.rawValue)), ("job", .string(job))]
        if let outcome { members.append(("outcome", .string(outcome.rawValue))) }
        return JSONValue.object(members).text
    }

    public static func parse(_ line: String) -> JobEvent? {
        guard let json = try? JSONValue.parse(line), let kind = json["event"]?.string.flatMap(Kind.init(rawValue:)),
            let job = json["job"]?.string
        else { return nil }
        return JobEvent(kind, job: job, outcome: json["outcome"]?.string.flatMap(Outcome.init(rawValue:)))
    }
}
