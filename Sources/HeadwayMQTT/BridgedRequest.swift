import HeadwayCore
import HeadwayProtocol

/// A message from a job topic turned into the request a display's service takes: the payload read
/// by the socket protocol's own parser (so a malformed, huge or hostile payload is refused the
/// same way as on the socket), its kind matched to its topic, and the job named by the topic —
/// never by the payload, so that a broker's ACL on topics decides who may drive which job.
public enum BridgedRequest {
    /// Why a message was not taken: what was wrong with its topic or payload.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// nil for an empty payload (a retained message being cleared) and for a command (displays
    /// send those; reporters take them).
    public static func request(topic: String, payload: [UInt8]) throws(Refusal) -> Request? {
        guard let (source, job, kind) = JobTopics.parse(topic) else {
            throw Refusal(description: "not a job topic (\(JobTopics.jobs)/SOURCE/JOB/KIND, SOURCE and JOB percent-encoded UTF-8)")
        }
        // Checked as the socket checks a job id: a topic is no looser a way in.
        if let problem = Identifier.problem(source) { throw Refusal(description: "the topic's source \(problem)") }
        if let problem = Identifier.problem(job) { throw Refusal(description: "the topic's job id \(problem)") }
        guard !payload.isEmpty, kind != .command else { return nil }
        guard payload.count <= WireProtocol.maxLineBytes else {
            throw Refusal(description: "\(payload.count) bytes; a request is at most \(WireProtocol.maxLineBytes)")
        }
        guard let line = String(validating: payload, as: UTF8.self) else { throw Refusal(description: "not UTF-8") }
        let request: Request
        do { request = try Request.parse(line) } catch { throw Refusal(description: error.description) }
        let id = displayJob(source: source, job: job)
        switch (kind, request) {
        case (.begin, .begin(_, var options)):
            // A process of another machine: never one to watch here.
            options.pid = nil
            return .begin(job: id, options)
        case (.progress, .update(_, let value, let total, let label, let eta, let unit, let stageEnd)):
            return .update(job: id, value: value, total: total, label: label, eta: eta, unit: unit, stageEnd: stageEnd)
        case (.progress, .updatePercent(_, let percent, let label, let eta)): return .updatePercent(job: id, percent: percent, label: label, eta: eta)
        case (.progress, .indeterminate): return .indeterminate(job: id)
        case (.label, .label(_, let label)): return .label(job: id, label: label)
        case (.alive, .alive): return .alive(job: id)
        case (.alive, .stale): return .stale(job: id)
        case (.end, .finish(_, let outcome)): return .finish(job: id, outcome: outcome)
        case (.pause, .pause): return .pause(job: id)
        case (.pause, .resume): return .resume(job: id)
        default: throw Refusal(description: "a \(kind.rawValue) topic does not take this request")
        }
    }

    /// Whether a begin's reporter takes commands (`"commands":true`): a display's buttons may
    /// then stop, pause and resume it.
    public static func takesCommands(_ payload: [UInt8]) -> Bool {
        guard let text = String(validating: payload, as: UTF8.self), let json = try? JSONValue.parse(text) else { return false }
        return json["commands"]?.bool == true
    }

    /// A command sent to a reporter (on its job's `command` topic): `stop`, `pause` or `resume`.
    public static func command(_ payload: [UInt8]) -> Request? {
        guard payload.count <= WireProtocol.maxLineBytes, let text = String(validating: payload, as: UTF8.self),
              let request = try? Request.parse(text) else { return nil }
        switch request {
        case .stop, .pause, .resume: return request
        default: return nil
        }
    }

    /// The job's id on the display: the source and the job, so that two runners' jobs of the same
    /// id stay apart; cut to the protocol's 128 bytes from the left (the job's end is kept).
    public static func displayJob(source: String, job: String) -> String {
        let whole = DisplayText.sanitised("\(source)/\(job)")
        guard whole.utf8.count > WireProtocol.maxJobBytes else { return whole }
        var cut = Substring(whole)
        while cut.utf8.count > WireProtocol.maxJobBytes - "…".utf8.count { cut = cut.dropFirst() }
        return "…" + cut
    }
}
