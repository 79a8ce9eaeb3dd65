import HeadwayCore

/// One job as `status` reports it.
public struct JobStatus: Sendable, Equatable {
    /// The job's id.
    public var job: String
    /// What the job is.
    public var label: String?
    /// Its phase (docs/protocol.md, "Phases and liveness"): `active`, `stalled`, `succeeded` ….
    public var phase: String
    /// The percentage shown, rounded down (never 100 before the job succeeded).
    public var percent: Int?
    /// The value reported.
    public var value: Double?
    /// The job's total.
    public var total: Double?
    /// Seconds left, when known.
    public var etaSeconds: Double?
    /// The percentage and ETA are an estimate from past runs, not reports.
    public var estimate: Bool
    /// The ETA is the job's own estimate (a tool's), not one the service made.
    public var etaReported: Bool
    /// How far past its estimate the job runs.
    public var overdueSeconds: Double?
    /// The job the service's single-job outputs show (a long press acts on it).
    public var shown: Bool
    /// Why a job that failed failed, when the service knows (a systemd unit's result: "exit status 3").
    public var reason: String?
    /// What the value and total count (bytes, seconds).
    public var unit: ValueUnit?
    /// A countdown: `value` is the seconds left of `total`, and there is no percentage (a countdown
    /// reads in time, "3m57s left of 4m"; ``countdownText``).
    public var countdown: Bool

    /// A status of each member given.
    public init(
        job: String, label: String?, phase: String, percent: Int?, value: Double?, total: Double?, etaSeconds: Double?,
        estimate: Bool = false, etaReported: Bool = false, overdueSeconds: Double? = nil, shown: Bool = false, reason: String? = nil,
        unit: ValueUnit? = nil, countdown: Bool = false
    ) {
        self.job = job
        self.label = label
        self.phase = phase
        self.percent = percent
        self.value = value
        self.total = total
        self.etaSeconds = etaSeconds
        self.estimate = estimate
        self.etaReported = etaReported
        self.overdueSeconds = overdueSeconds
        self.shown = shown
        self.reason = reason
        self.unit = unit
        self.countdown = countdown
    }

    /// A countdown's text, "3m57s left of 4m"; nil for any other job.
    public var countdownText: String? {
        guard countdown, let value, let total else { return nil }
        return DurationText.countdown(left: value, of: total)
    }

    /// What is known of the job's time, in the words every text uses: "overdue 12s" past its
    /// estimate, "~42s" left (with "~" where it is an estimate or the job's own), nil where
    /// nothing is known; a countdown's is ``countdownText``.
    public var timeText: String? {
        if let countdownText { return countdownText }
        if let overdueSeconds { return "overdue \(DurationText.short(overdueSeconds))" }
        return etaSeconds.map { "\(estimate || etaReported ? "~" : "")\(DurationText.short($0, rounding: .up))" }
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("job", .string(job)), ("phase", .string(phase))]
        if let label { members.append(("label", .string(label))) }
        if let percent { members.append(("percent", .number(Double(percent)))) }
        if let value { members.append(("value", .number(value))) }
        if let total { members.append(("total", .number(total))) }
        if let etaSeconds { members.append(("eta", .number(etaSeconds.rounded()))) }
        if estimate { members.append(("estimate", .bool(true))) }
        if etaReported { members.append(("eta-reported", .bool(true))) }
        if let overdueSeconds { members.append(("overdue", .number(overdueSeconds.rounded()))) }
        if shown { members.append(("shown", .bool(true))) }
        if let reason { members.append(("reason", .string(reason))) }
        if let unit { members.append(("unit", .string(unit.rawValue))) }
        if countdown { members.append(("countdown", .bool(true))) }
        return .object(members)
    }

    /// Reads one entry of a reply; whatever the service sent, nothing here can trap.
    init?(_ json: JSONValue) {
        guard let job = json["job"]?.string, let phase = json["phase"]?.string else { return nil }
        let percent = json["percent"]?.number.flatMap { (0...100).contains($0) ? Int($0) : nil }
        self.init(
            job: job, label: json["label"]?.string, phase: phase, percent: percent,
            value: json["value"]?.number, total: json["total"]?.number, etaSeconds: json["eta"]?.number,
            estimate: json["estimate"]?.bool ?? false, etaReported: json["eta-reported"]?.bool ?? false, overdueSeconds: json["overdue"]?.number,
            shown: json["shown"]?.bool ?? false, reason: json["reason"]?.string, unit: json["unit"]?.string.flatMap(ValueUnit.init(rawValue:)),
            countdown: json["countdown"]?.bool ?? false)
    }
}

/// A systemd timer the service follows, as `status` reports it: when it next starts its unit.
public struct TimerStatus: Sendable, Equatable {
    /// The timer unit (`backup.timer`).
    public var unit: String
    /// The unit it starts.
    public var triggers: String?
    /// The local time of day of its next elapse ("02:00"), and how far away it is, in seconds;
    /// both nil when it has none (stopped, or every event has passed).
    public var at: String?
    /// How far away the next elapse is, in seconds (nil when ``at`` is).
    public var inSeconds: Double?

    /// A timer's status of each member given.
    public init(unit: String, triggers: String? = nil, at: String? = nil, inSeconds: Double? = nil) {
        self.unit = unit
        self.triggers = triggers
        self.at = at
        self.inSeconds = inSeconds
    }

    /// "backup.timer  next 02:00 (in 5h12m), starts backup.service", as `headway status` prints it
    /// (the service's texts made safe for a terminal).
    public var summary: String {
        let name = DisplayText.sanitised(String(unit.prefix(WireProtocol.maxJobBytes)))
        var text = name + "  "
        if let at, let inSeconds {
            text += "next \(DisplayText.sanitised(String(at.prefix(16)))) (in \(DurationText.short(max(0, inSeconds), rounding: .up)))"
        } else {
            text += "no next elapse"
        }
        if let triggers { text += ", starts \(DisplayText.sanitised(String(triggers.prefix(WireProtocol.maxJobBytes))))" }
        return text
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("unit", .string(unit))]
        if let triggers { members.append(("triggers", .string(triggers))) }
        if let at { members.append(("at", .string(at))) }
        if let inSeconds { members.append(("in", .number(inSeconds.rounded()))) }
        return .object(members)
    }

    init?(_ json: JSONValue) {
        guard let unit = json["unit"]?.string else { return nil }
        let inSeconds = json["in"]?.number.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e10 ? $0 : nil }
        self.init(unit: unit, triggers: json["triggers"]?.string, at: json["at"]?.string, inSeconds: inSeconds)
    }
}

/// Quiet hours in force, as `status` reports them.
public struct QuietNote: Sendable, Equatable {
    /// The local time they end ("07:00").
    public var until: String
    /// The most light the outputs give meanwhile, 0…1 (0: dark).
    public var brightness: Double
    /// Whether a job that fails meanwhile leaves a mark.
    public var marksFailures: Bool
    /// Whether a button press has lit the outputs for a while.
    public var woken: Bool

    /// Quiet hours until `until` at most `brightness`.
    public init(until: String, brightness: Double, marksFailures: Bool = true, woken: Bool = false) {
        self.until = until
        self.brightness = brightness
        self.marksFailures = marksFailures
        self.woken = woken
    }

    /// "quiet hours until 07:00: outputs dark, failures marked", as `headway status` and the
    /// simulator say it (the service's text made safe for a terminal).
    public var summary: String {
        let light = (brightness == 0 ? "outputs dark" : "outputs at most \(Int((brightness * 100).rounded())) %") + (marksFailures ? ", failures marked" : "")
        return "quiet hours until \(DisplayText.sanitised(String(until.prefix(8)))): \(light)" + (woken ? " (lit by a press)" : "")
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("until", .string(until)), ("brightness", .number(brightness))]
        if !marksFailures { members.append(("marks", .bool(false))) }
        if woken { members.append(("woken", .bool(true))) }
        return .object(members)
    }

    init?(_ json: JSONValue?) {
        guard let json, let until = json["until"]?.string, let brightness = json["brightness"]?.number, (0...1).contains(brightness) else { return nil }
        self.init(until: until, brightness: brightness, marksFailures: json["marks"]?.bool ?? true, woken: json["woken"]?.bool ?? false)
    }
}

/// The service's answer to one request line.
public enum Reply: Sendable, Equatable {
    /// The request was taken.
    case ok
    /// `status`: the jobs listed, how many more exist than a reply lists, the quiet hours in
    /// force, if any, and the systemd timers the service follows.
    case jobs([JobStatus], omitted: Int, quiet: QuietNote?, timers: [TimerStatus] = [])
    /// The request was refused: which member and why.
    case error(ProtocolError)

    /// The reply as one line of JSON (no newline).
    public var line: String {
        let v: (String, JSONValue) = ("v", .number(Double(WireProtocol.version)))
        switch self {
        case .ok:
            return JSONValue.object([v, ("ok", .bool(true))]).text
        case .jobs(let jobs, let omitted, let quiet, let timers):
            var members: [(String, JSONValue)] = [v, ("ok", .bool(true)), ("jobs", .array(jobs.map(\.json)))]
            if omitted > 0 { members.append(("omitted", .number(Double(omitted)))) }
            if let quiet { members.append(("quiet", quiet.json)) }
            if !timers.isEmpty { members.append(("timers", .array(timers.map(\.json)))) }
            return JSONValue.object(members).text
        case .error(let error):
            var detail: [(String, JSONValue)] = [("code", .string(error.code.rawValue))]
            if let field = error.field { detail.append(("field", .string(field))) }
            detail.append(("message", .string(error.message)))
            return JSONValue.object([v, ("ok", .bool(false)), ("error", .object(detail))]).text
        }
    }

    /// Reads a reply line; `nil` when the line is not a reply (an event, say).
    public static func parse(_ line: String) -> Reply? {
        guard let json = try? JSONValue.parse(line), let ok = json["ok"]?.bool else { return nil }
        if ok {
            if case .array(let items) = json["jobs"] {
                let omitted = json["omitted"]?.number.flatMap { $0 >= 0 && $0 < 1e9 ? Int($0) : nil } ?? 0
                var timers: [TimerStatus] = []
                if case .array(let entries) = json["timers"] { timers = entries.compactMap(TimerStatus.init) }
                return .jobs(items.compactMap(JobStatus.init), omitted: omitted, quiet: QuietNote(json["quiet"]), timers: timers)
            }
            return .ok
        }
        let error = json["error"]
        let code = ProtocolErrorCode(rawValue: error?["code"]?.string ?? "") ?? .unknown("")
        return .error(ProtocolError(code, field: error?["field"]?.string, error?["message"]?.string ?? "unknown error"))
    }
}
