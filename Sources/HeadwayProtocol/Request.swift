import HeadwayCore

/// What a client asks of the service.
public enum Request: Sendable, Equatable {
    /// Starts (or restarts) a job.
    case begin(job: String, BeginOptions)
    /// Progress: `value` of `total` (the job's current total when nil). `eta` is the job's own
    /// estimate of the seconds it has left (a tool's ETA), shown as an estimate. `unit`: what value
    /// and total count in from now on (nil keeps the job's). `stageEnd`: where the stage the value is
    /// in ends on the job's scale, when other work follows there (nil: the last stage).
    case update(job: String, value: Double, total: Double?, label: String?, eta: Double? = nil, unit: ValueUnit? = nil, stageEnd: Double? = nil)
    /// Progress as a percentage of the job's current total (its total stays).
    case updatePercent(job: String, percent: Double, label: String?, eta: Double? = nil)
    /// Changes the job's label.
    case label(job: String, label: String)
    /// The job cannot say how far it is (only before it has a total).
    case indeterminate(job: String)
    /// The job is alive (a heartbeat): not progress, so a job whose progress stopped still stalls.
    case alive(job: String)
    /// Pauses a job its controller can really stop (docs/protocol.md, "Pause").
    case pause(job: String)
    /// Resumes a paused job.
    case resume(job: String)
    /// The reporter has lost sight of the job (the server it follows cannot be reached): shown as
    /// stale until the reporter hears from it again.
    case stale(job: String)
    /// Ends the job with `outcome`.
    case finish(job: String, outcome: Outcome)
    /// Asks for the job to be stopped, as a long press on its button does: its controller
    /// (`headway run`) ends its work and reports it cancelled; a job nobody controls ends cancelled.
    case stop(job: String)
    /// A reply listing the jobs.
    case status
    /// Events from now on, for one job or (without a job) for all. With `controls`, this connection
    /// carries out pauses and cancellations of the job (as `headway run` does for its command).
    case subscribe(job: String?, controls: Bool)

    static let operations = "begin, update, label, indeterminate, alive, pause, resume, stale, finish, stop, status, subscribe"

    /// Parses one line. Every refusal names the field and says what would be right.
    public static func parse(_ line: String) throws(ProtocolError) -> Request {
        let json = try RequestFields.object(line)
        let fields = RequestFields(json: json)
        switch try fields.operation() {
        case "begin":
            return .begin(job: try fields.job(), try BeginOptions(fields))
        case "update":
            let job = try fields.job()
            let label = try fields.label(required: false)
            let eta = try fields.number("eta", required: false, positive: false)
            if let eta, eta > WireProtocol.maxSeconds { throw ProtocolError(.outOfRange, field: "eta", "must be at most a year (\(JSONValue.format(WireProtocol.maxSeconds)) s)") }
            if let percent = try fields.number("percent", required: false, positive: false) {
                guard json["value"] == nil, json["total"] == nil else {
                    throw ProtocolError(.invalidMember, field: "percent", "give percent alone, or value (and total), not both")
                }
                guard percent <= 100 else { throw ProtocolError(.outOfRange, field: "percent", "must be 0…100, not \(JSONValue.format(percent))") }
                return .updatePercent(job: job, percent: percent, label: label, eta: eta)
            }
            let total = try fields.number("total", required: false, positive: true)
            let unit = try BeginOptions.unit(fields)
            let value = try fields.number("value", required: true, positive: false)!
            let stageEnd = try fields.number("stage_end", required: false, positive: true)
            if let stageEnd, stageEnd < value || stageEnd > (total ?? .infinity) {
                throw ProtocolError(.outOfRange, field: "stage_end", "must lie from the value to the total, not \(JSONValue.format(stageEnd)); leave it out in the last stage")
            }
            return .update(job: job, value: value, total: total, label: label, eta: eta, unit: unit, stageEnd: stageEnd)
        case "label":
            return .label(job: try fields.job(), label: try fields.label(required: true)!)
        case "indeterminate":
            return .indeterminate(job: try fields.job())
        case "alive":
            return .alive(job: try fields.job())
        case "pause":
            return .pause(job: try fields.job())
        case "resume":
            return .resume(job: try fields.job())
        case "stale":
            return .stale(job: try fields.job())
        case "finish":
            guard let text = json["outcome"]?.string, let outcome = Outcome(rawValue: text) else {
                throw ProtocolError(.invalidMember, field: "outcome", "must be \"succeeded\", \"failed\", \"cancelled\" or \"ended\" (the result is not known)")
            }
            return .finish(job: try fields.job(), outcome: outcome)
        case "stop":
            return .stop(job: try fields.job())
        case "status":
            return .status
        case "subscribe":
            let controls = try fields.bool("controls") ?? false
            let job = json["job"] == nil ? nil : try fields.job()
            if controls, job == nil { throw ProtocolError(.invalidMember, field: "controls", "controls one job: name it with job") }
            return .subscribe(job: job, controls: controls)
        case let op:
            throw ProtocolError(.unknownOperation, field: "op", "\"\(DisplayText.sanitised(String(op.prefix(40))))\" is not an operation; one of \(operations)")
        }
    }

    /// The request as one line of JSON (no newline).
    public var line: String {
        var members: [(String, JSONValue)] = [("v", .number(Double(WireProtocol.version)))]
        func add(_ key: String, _ value: JSONValue?) { if let value { members.append((key, value)) } }
        func op(_ name: String, _ job: String) {
            add("op", .string(name))
            add("job", .string(job))
        }
        switch self {
        case .begin(let job, let options):
            op("begin", job)
            members += options.members
        case .update(let job, let value, let total, let label, let eta, let unit, let stageEnd):
            op("update", job)
            add("value", .number(value)); add("total", total.map(JSONValue.number)); add("label", label.map(JSONValue.string))
            add("eta", eta.map(JSONValue.number)); add("unit", unit.map { .string($0.rawValue) }); add("stage_end", stageEnd.map(JSONValue.number))
        case .updatePercent(let job, let percent, let label, let eta):
            op("update", job)
            add("percent", .number(percent)); add("label", label.map(JSONValue.string)); add("eta", eta.map(JSONValue.number))
        case .label(let job, let label):
            op("label", job)
            add("label", .string(label))
        case .indeterminate(let job): op("indeterminate", job)
        case .alive(let job): op("alive", job)
        case .pause(let job): op("pause", job)
        case .resume(let job): op("resume", job)
        case .stale(let job): op("stale", job)
        case .stop(let job): op("stop", job)
        case .finish(let job, let outcome):
            op("finish", job)
            add("outcome", .string(outcome.rawValue))
        case .status:
            add("op", .string("status"))
        case .subscribe(let job, let controls):
            add("op", .string("subscribe")); add("job", job.map(JSONValue.string))
            if controls { add("controls", .bool(true)) }
        }
        return JSONValue.object(members).text
    }
}

extension Request {
    /// A `begin` with a label and a total only, the common case.
    public static func begin(job: String, label: String?, total: Double?) -> Request {
        .begin(job: job, BeginOptions(label: label, total: total))
    }

    /// A subscription that follows `job` (or every job) without controlling it.
    public static func subscribe(job: String?) -> Request { .subscribe(job: job, controls: false) }
}
