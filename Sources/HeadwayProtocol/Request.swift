import HeadwayCore

/// What a client asks of the service.
public enum Request: Sendable, Equatable {
    /// Starts (or restarts) a job; with a total it is determinate from the start.
    case begin(job: String, label: String?, total: Double?)
    case update(job: String, value: Double, total: Double?, label: String?)
    case label(job: String, label: String)
    case indeterminate(job: String)
    case finish(job: String, outcome: Outcome)
    /// A reply listing the jobs.
    case status
    /// Events from now on, for one job or (without a job) for all.
    case subscribe(job: String?)

    static let operations = "begin, update, label, indeterminate, finish, status, subscribe"

    /// Parses one line. Every refusal names the field and says what would be right.
    public static func parse(_ line: String) throws(ProtocolError) -> Request {
        let json = try RequestFields.object(line)
        let fields = RequestFields(json: json)
        switch try fields.operation() {
        case "begin":
            return .begin(job: try fields.job(), label: try fields.label(required: false), total: try fields.number("total", required: false, positive: true))
        case "update":
            return .update(
                job: try fields.job(), value: try fields.number("value", required: true, positive: false)!,
                total: try fields.number("total", required: false, positive: true), label: try fields.label(required: false))
        case "label":
            return .label(job: try fields.job(), label: try fields.label(required: true)!)
        case "indeterminate":
            return .indeterminate(job: try fields.job())
        case "finish":
            guard let text = json["outcome"]?.string, let outcome = Outcome(rawValue: text) else {
                throw ProtocolError(field: "outcome", "must be \"succeeded\", \"failed\" or \"cancelled\"")
            }
            return .finish(job: try fields.job(), outcome: outcome)
        case "status":
            return .status
        case "subscribe":
            return .subscribe(job: json["job"] == nil ? nil : try fields.job())
        case let op:
            throw ProtocolError(field: "op", "\"\(DisplayText.sanitised(String(op.prefix(40))))\" is not an operation; one of \(operations)")
        }
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
        }
        return JSONValue.object(members).text
    }
}

/// Reading a request's members, each refusal naming its field. Public so that programs adding
/// operations of their own around the service (the simulator) check lines the same way.
public struct RequestFields {
    public let json: JSONValue

    public init(json: JSONValue) { self.json = json }

    /// The line as a JSON object with a supported `"v"`.
    public static func object(_ line: String) throws(ProtocolError) -> JSONValue {
        guard line.utf8.count <= WireProtocol.maxLineBytes else {
            throw ProtocolError(field: nil, "the line is \(line.utf8.count) bytes; the limit is \(WireProtocol.maxLineBytes)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw ProtocolError(field: nil, "\(error)") }
        guard case .object = json else { throw ProtocolError(field: nil, "a request is a JSON object, e.g. {\"v\":1,\"op\":\"status\"}") }
        guard let version = json["v"] else { throw ProtocolError(field: "v", "missing; this service speaks version \(WireProtocol.version)") }
        guard version.number == Double(WireProtocol.version) else {
            throw ProtocolError(field: "v", "version \(DisplayText.sanitised(String(version.text.prefix(20)))) is not supported; this service speaks version \(WireProtocol.version)")
        }
        return json
    }

    public func operation() throws(ProtocolError) -> String {
        guard let op = json["op"]?.string else { throw ProtocolError(field: "op", "missing or not a string; one of \(Request.operations)") }
        return op
    }

    /// The `job` member: 1…128 bytes, nothing a terminal would interpret.
    public func job() throws(ProtocolError) -> String {
        guard let job = json["job"]?.string else { throw ProtocolError(field: "job", "missing or not a string") }
        guard !job.isEmpty, job.utf8.count <= WireProtocol.maxJobBytes else {
            throw ProtocolError(field: "job", "must be 1…\(WireProtocol.maxJobBytes) bytes, not \(job.utf8.count)")
        }
        guard DisplayText.sanitised(job) == job else {
            throw ProtocolError(field: "job", "may not contain control characters, escape sequences or line breaks")
        }
        return job
    }

    /// The `label` member, made safe to show and cut to ``WireProtocol/maxLabelBytes`` (never refused
    /// for its length).
    public func label(required: Bool) throws(ProtocolError) -> String? {
        guard let value = json["label"] else {
            if required { throw ProtocolError(field: "label", "missing") }
            return nil
        }
        guard let label = value.string else { throw ProtocolError(field: "label", "must be a string") }
        return DisplayText.truncated(DisplayText.sanitised(label), maxBytes: WireProtocol.maxLabelBytes)
    }

    /// A number member: finite, and greater than 0 (`positive`) or at least 0.
    public func number(_ field: String, required: Bool, positive: Bool) throws(ProtocolError) -> Double? {
        guard let value = json[field] else {
            if required { throw ProtocolError(field: field, "missing") }
            return nil
        }
        guard let number = value.number else { throw ProtocolError(field: field, "must be a number, not \(DisplayText.sanitised(String(value.text.prefix(40))))") }
        if positive, number <= 0 { throw ProtocolError(field: field, "must be greater than 0, not \(JSONValue.format(number))") }
        if !positive, number < 0 { throw ProtocolError(field: field, "must be 0 or more, not \(JSONValue.format(number))") }
        return number
    }

    /// A string member (optional).
    public func string(_ field: String) throws(ProtocolError) -> String? {
        guard let value = json[field] else { return nil }
        guard let text = value.string else { throw ProtocolError(field: field, "must be a string") }
        return text
    }

    /// A boolean member (optional).
    public func bool(_ field: String) throws(ProtocolError) -> Bool? {
        guard let value = json[field] else { return nil }
        guard let flag = value.bool else { throw ProtocolError(field: field, "must be true or false") }
        return flag
    }
}
