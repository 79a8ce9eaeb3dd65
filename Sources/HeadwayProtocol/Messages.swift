import HeadwayCore

/// The wire protocol between `headway` and the daemon: one JSON object per line over a Unix stream
/// socket, each carrying `"v":1`. See docs/protocol.md.
public enum WireProtocol {
    public static let version = 1
    /// Longest request line accepted, in bytes (a longer one is answered with an error and skipped).
    public static let maxLineBytes = 4096
    /// Longest label, in characters.
    public static let maxLabelLength = 120
    /// Longest job id, in characters.
    public static let maxJobLength = 128
}

/// A request that could not be taken: which field was wrong and how.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String?
    public var message: String

    public init(field: String?, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}

/// What a client asks of the daemon.
public enum Request: Sendable, Equatable {
    /// Starts (or restarts) a job; with a total it is determinate from the start.
    case begin(job: String, label: String?, total: Double?)
    case update(job: String, value: Double, total: Double?, label: String?)
    case label(job: String, label: String)
    case indeterminate(job: String)
    case finish(job: String, outcome: Outcome)
    /// A reply listing every job.
    case status
    /// Events from now on, for one job or (without a job) for all.
    case subscribe(job: String?)
    /// A simulated button press (only `headway-sim serve` takes it).
    case press(long: Bool)
    /// Writes what the virtual devices show to a folder (only `headway-sim serve` takes it).
    case snapshot(folder: String)

    /// Parses one line.
    public static func parse(_ line: String) throws(ProtocolError) -> Request {
        guard line.utf8.count <= WireProtocol.maxLineBytes else {
            throw ProtocolError(field: nil, "the line is \(line.utf8.count) bytes; the limit is \(WireProtocol.maxLineBytes)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw ProtocolError(field: nil, "\(error)") }
        guard case .object = json else { throw ProtocolError(field: nil, "a request is a JSON object, e.g. {\"v\":1,\"op\":\"status\"}") }
        guard let version = json["v"] else { throw ProtocolError(field: "v", "missing; this daemon speaks version \(WireProtocol.version)") }
        guard version.number == Double(WireProtocol.version) else {
            throw ProtocolError(field: "v", "version \(version.text) is not supported; this daemon speaks version \(WireProtocol.version)")
        }
        guard let op = json["op"]?.string else { throw ProtocolError(field: "op", "missing or not a string; one of begin, update, label, indeterminate, finish, status, subscribe") }
        switch op {
        case "begin":
            return .begin(job: try job(json), label: try label(json, required: false), total: try number(json, "total", required: false, positive: true))
        case "update":
            return .update(
                job: try job(json), value: try number(json, "value", required: true, positive: false)!,
                total: try number(json, "total", required: false, positive: true), label: try label(json, required: false))
        case "label":
            return .label(job: try job(json), label: try label(json, required: true)!)
        case "indeterminate":
            return .indeterminate(job: try job(json))
        case "finish":
            guard let text = json["outcome"]?.string, let outcome = Outcome(rawValue: text) else {
                throw ProtocolError(field: "outcome", "must be \"succeeded\", \"failed\" or \"cancelled\"")
            }
            return .finish(job: try job(json), outcome: outcome)
        case "status":
            return .status
        case "subscribe":
            return .subscribe(job: json["job"] == nil ? nil : try job(json))
        case "press":
            return .press(long: json["long"]?.bool ?? false)
        case "snapshot":
            guard let folder = json["folder"]?.string, !folder.isEmpty else { throw ProtocolError(field: "folder", "missing or not a string") }
            return .snapshot(folder: folder)
        default:
            throw ProtocolError(field: "op", "\"\(op)\" is not an operation; one of begin, update, label, indeterminate, finish, status, subscribe")
        }
    }

    private static func job(_ json: JSONValue) throws(ProtocolError) -> String {
        guard let job = json["job"]?.string else { throw ProtocolError(field: "job", "missing or not a string") }
        guard !job.isEmpty, job.count <= WireProtocol.maxJobLength else {
            throw ProtocolError(field: "job", "must be 1…\(WireProtocol.maxJobLength) characters")
        }
        guard job.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw ProtocolError(field: "job", "must not contain control characters")
        }
        return job
    }

    private static func label(_ json: JSONValue, required: Bool) throws(ProtocolError) -> String? {
        guard let value = json["label"] else {
            if required { throw ProtocolError(field: "label", "missing") }
            return nil
        }
        guard let label = value.string else { throw ProtocolError(field: "label", "must be a string") }
        guard label.count <= WireProtocol.maxLabelLength else {
            throw ProtocolError(field: "label", "is \(label.count) characters; the limit is \(WireProtocol.maxLabelLength)")
        }
        return label
    }

    private static func number(_ json: JSONValue, _ field: String, required: Bool, positive: Bool) throws(ProtocolError) -> Double? {
        guard let value = json[field] else {
            if required { throw ProtocolError(field: field, "missing") }
            return nil
        }
        guard let number = value.number else { throw ProtocolError(field: field, "must be a number, not \(value.text)") }
        if positive, number <= 0 { throw ProtocolError(field: field, "must be greater than 0, not \(JSONValue.format(number))") }
        if !positive, number < 0 { throw ProtocolError(field: field, "must be 0 or more, not \(JSONValue.format(number))") }
        return number
    }

    /// The request as one line of JSON (no newline).
    public var line: String {
        var members: [(String, JSONValue)] = [("v", .number(Double(WireProtocol.version)))]
        func add(_ key: String, _ value: JSONValue?) { if let value { members.append((key, value)) } }
        switch self {
        case .begin(let job, let label, let total):
            add("op", .string("begin")); add("job", .string(job)); add("label", label.map(JSONValue.string)); add("total", total.map(JSONValue.number))
        case .update(let job, let value, let total, let label):
            add("op", .string("update")); add("job", .string(job)); add("value", .number(value))
            add("total", total.map(JSONValue.number)); add("label", label.map(JSONValue.string))
        case .label(let job, let label):
            add("op", .string("label")); add("job", .string(job)); add("label", .string(label))
        case .indeterminate(let job):
            add("op", .string("indeterminate")); add("job", .string(job))
        case .finish(let job, let outcome):
            add("op", .string("finish")); add("job", .string(job)); add("outcome", .string(outcome.rawValue))
        case .status:
            add("op", .string("status"))
        case .subscribe(let job):
            add("op", .string("subscribe")); add("job", job.map(JSONValue.string))
        case .press(let long):
            add("op", .string("press")); add("long", .bool(long))
        case .snapshot(let folder):
            add("op", .string("snapshot")); add("folder", .string(folder))
        }
        return JSONValue.object(members).text
    }
}

/// One job as `status` reports it.
public struct JobStatus: Sendable, Equatable {
    public var job: String
    public var label: String?
    public var phase: String
    public var percent: Int?
    public var value: Double?
    public var total: Double?
    public var etaSeconds: Double?

    public init(job: String, label: String?, phase: String, percent: Int?, value: Double?, total: Double?, etaSeconds: Double?) {
        self.job = job
        self.label = label
        self.phase = phase
        self.percent = percent
        self.value = value
        self.total = total
        self.etaSeconds = etaSeconds
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("job", .string(job)), ("phase", .string(phase))]
        if let label { members.append(("label", .string(label))) }
        if let percent { members.append(("percent", .number(Double(percent)))) }
        if let value { members.append(("value", .number(value))) }
        if let total { members.append(("total", .number(total))) }
        if let etaSeconds { members.append(("eta", .number(etaSeconds.rounded()))) }
        return .object(members)
    }

    init?(_ json: JSONValue) {
        guard let job = json["job"]?.string, let phase = json["phase"]?.string else { return nil }
        self.init(
            job: job, label: json["label"]?.string, phase: phase, percent: json["percent"]?.number.map { Int($0) },
            value: json["value"]?.number, total: json["total"]?.number, etaSeconds: json["eta"]?.number)
    }
}

/// The daemon's answer to one request line.
public enum Reply: Sendable, Equatable {
    case ok
    case jobs([JobStatus])
    case error(ProtocolError)

    public var line: String {
        let v: (String, JSONValue) = ("v", .number(Double(WireProtocol.version)))
        switch self {
        case .ok:
            return JSONValue.object([v, ("ok", .bool(true))]).text
        case .jobs(let jobs):
            return JSONValue.object([v, ("ok", .bool(true)), ("jobs", .array(jobs.map(\.json)))]).text
        case .error(let error):
            var detail: [(String, JSONValue)] = [("message", .string(error.message))]
            if let field = error.field { detail.insert(("field", .string(field)), at: 0) }
            return JSONValue.object([v, ("ok", .bool(false)), ("error", .object(detail))]).text
        }
    }

    /// Reads a reply line; `nil` when the line is not a reply (an event, say).
    public static func parse(_ line: String) -> Reply? {
        guard let json = try? JSONValue.parse(line), let ok = json["ok"]?.bool else { return nil }
        if ok {
            if case .array(let items) = json["jobs"] { return .jobs(items.compactMap(JobStatus.init)) }
            return .ok
        }
        let error = json["error"]
        return .error(ProtocolError(field: error?["field"]?.string, error?["message"]?.string ?? "unknown error"))
    }
}

/// Something that happened to a job, sent to subscribers.
public struct JobEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Someone held the job's button: the client should stop the job and report it cancelled.
        case cancelRequested = "cancel-requested"
        case paused, resumed, finished, lost
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
