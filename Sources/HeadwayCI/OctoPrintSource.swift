import HeadwayCore
import HeadwayProtocol

/// OctoPrint: the print of one printer through its REST API, asked at every look; its push socket
/// says when to look (OctoPrintSource+Push.swift).
///
/// What is read, from OctoPrint's API documentation (docs.octoprint.org, api/job.html "Retrieve
/// information about the current job", api/printer.html "Retrieve the current printer state",
/// api/datamodel.html "Job information" and "Progress information"), checked against OctoPrint
/// 1.11.8 and its Virtual Printer (Tests/Printers/README.md):
/// - `GET /api/job`: `state` ("Operational", "Printing", "Pausing", "Paused", "Cancelling",
///   "Error", "Offline"…), `job.file.name`/`display`, `progress.completion` (percent of the file's
///   bytes), `progress.printTime`, `progress.printTimeLeft` (seconds) and
///   `progress.printTimeLeftOrigin` (`linear`, `analysis`, `estimate`, `average`, `mixed-analysis`,
///   `mixed-average`: where the estimate comes from), `error`;
/// - `GET /api/printer?exclude=sd`: `temperature.<tool0|bed|chamber…>.actual|target`; 409 while no
///   printer is connected.
/// "Printing" covers the heat-up: the print is shown indeterminate, its temperatures in the label,
/// until no heater is short of its target. OctoPrint has no finished state: a print back at
/// "Operational" with `completion` 100 succeeded; one whose progress went null was cancelled.
/// Layers are not in the REST API (OctoPrint reads no layer comments), so the label has none.
/// Commands: `POST /api/job` `{"command": "pause", "action": "pause"|"resume"}` and
/// `{"command": "cancel"}` (api/job.html "Issue a job command").
public struct OctoPrintSource: CISource {
    public let root: String
    private var current: Print?
    private var look = Look()
    /// "user:session" from the passive login, for the push socket's `auth` message.
    var pushAuth: String?

    struct Print: Sendable {
        var file: String
        var key: String
        var startedAt: Double?
        /// Shown with a share done (the heat-up is over).
        var determinate = false
        var firstCompletion: Double?
    }

    private struct Look {
        var job: JSONValue?
        var printer: JSONValue?
        var asked: Set<String> = []
    }

    public init(url: String) throws(SourceError) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw SourceError("octoprint: \"\(DisplayText.sanitised(String(url.prefix(100))))\" is not OctoPrint's address (like http://octopi.local)")
        }
        root = URLText.trimmed(url)
    }

    public var description: String { "octoprint \(hostOf(root))" }
    public var jobPrefix: String { "octoprint/\(hostOf(root))" }
    public var authorization: Authorization { .apiKey }

    public mutating func requests() -> [HTTPRequest] {
        let urls = ["\(root)/api/job", "\(root)/api/printer?exclude=sd"].filter { !look.asked.contains($0) }
        look.asked.formUnion(urls)
        return urls.map { HTTPRequest(url: $0, headers: ["Accept: application/json"]) }
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        let isPrinter = request.url.hasPrefix("\(root)/api/printer")
        // No printer connected: no temperatures, and /api/job says "Offline".
        if isPrinter, response.status == 409 { return }
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        let json = try JSONBody.parse(response.body, from: description)
        if isPrinter { look.printer = json } else { look.job = json }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        switch status {
        case 401, 403: "\(description): OctoPrint refused the API key (\(status)); put a user's API key or an application key (Settings → Application Keys) in the --token-file"
        case 404: "\(description): no OctoPrint API at \(root)/api (is the address OctoPrint's own?)"
        case 409: "\(description): OctoPrint could not do it now (409: no print to pause or cancel, or the printer is not connected)"
        default: "\(description): \(hostOf(root)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    public mutating func abandonLook() { look = Look() }

    public func command(_ command: JobCommand, key: String) -> HTTPRequest? {
        guard current?.key == key else { return nil }
        let body = switch command {
        case .pause: #"{"command":"pause","action":"pause"}"#
        case .resume: #"{"command":"pause","action":"resume"}"#
        case .cancel: #"{"command":"cancel"}"#
        }
        return .post("\(root)/api/job", json: body)
    }

    static let activeStates = ["Printing", "Pausing", "Paused", "Resuming", "Cancelling", "Starting", "Finishing", "Sending"]

    /// Whether OctoPrint's time left comes from reading the file (api/datamodel.html,
    /// `printTimeLeftOrigin`).
    static func knowsTheFile(_ origin: String?) -> Bool {
        origin == "analysis" || origin == "mixed-analysis"
    }

    /// Where OctoPrint's time left comes from, as the label says it (api/datamodel.html,
    /// `printTimeLeftOrigin`).
    static func origin(_ text: String?) -> String? {
        switch text {
        case "linear"?: "time left by progress"
        case "analysis"?: "time left by analysis"
        case "estimate"?: "time left by estimate"
        case "average"?: "time left by past prints"
        case "mixed-analysis"?: "time left by analysis and progress"
        case "mixed-average"?: "time left by past prints and progress"
        default: nil
        }
    }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer { look = Look() }
        guard let job = look.job else { return [] }
        let state = job["state"]?.string ?? ""
        let progress = job["progress"]
        let completion = progress?["completion"]?.number.flatMap { $0.isFinite ? min(max($0, 0), 100) : nil }
        let fileValue = job["job"]?["file"]
        let path = fileValue?["display"]?.string ?? fileValue?["name"]?.string
        let active = Self.activeStates.contains { state.hasPrefix($0) }
        var runs: [CIRun] = []
        if active, let path {
            let file = PrintText.file(path)
            if let was = current, was.key != path {
                runs.append(CIRun(key: was.key, title: was.file, state: .finished(.ended), name: was.key))
                current = nil
            }
            var print = current ?? Print(file: file, key: String(path.prefix(200)))
            if let time = progress?["printTime"]?.number, time.isFinite, time >= 0 { print.startedAt = serverTime - time }
            let heaters = Self.heaters(look.printer)
            if print.firstCompletion == nil { print.firstCompletion = completion }
            let moved = (completion ?? 0) > (print.firstCompletion ?? 0) + 0.05
            if !print.determinate, completion != nil, !heaters.heating || moved { print.determinate = true }
            var run = CIRun(key: print.key, title: file, state: .running, startedAt: print.startedAt, name: print.key)
            run.controllable = true
            run.paused = state.hasPrefix("Paus")
            if print.determinate, let completion {
                run.done = completion
                run.total = 100
                // OctoPrint's own figure where it read the file (its analysis); its linear ones
                // and its average of past prints are what Headway's estimate does better, from
                // the same progress and the pace of this file's earlier prints (measured:
                // docs/performance.md, "Time left on real runs").
                if Self.knowsTheFile(progress?["printTimeLeftOrigin"]?.string) {
                    run.remaining = progress?["printTimeLeft"]?.number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
                }
            }
            var parts = [file]
            if heaters.heating { parts.append(heaters.label) }
            if state.hasPrefix("Cancelling") { parts.append("cancelling") }
            if print.determinate, !heaters.heating, run.remaining != nil, let origin = Self.origin(progress?["printTimeLeftOrigin"]?.string) { parts.append(origin) }
            run.step = parts.joined(separator: ", ")
            current = print
            runs.append(run)
        } else if let was = current {
            let outcome: Outcome
            var label = was.file
            if state.hasPrefix("Error") || state.hasPrefix("Offline after error") {
                outcome = .failed
                if let error = job["error"]?.string, !error.isEmpty { label += ": " + DisplayText.truncated(DisplayText.sanitised(error), maxBytes: 80) }
            } else if completion == 100 || progress?["printTimeLeft"]?.number == 0 {
                outcome = .succeeded
            } else if completion == nil {
                outcome = .cancelled
            } else {
                outcome = .ended
            }
            runs.append(CIRun(key: was.key, title: label, state: .finished(outcome), name: was.key))
            current = nil
        }
        return runs
    }

    /// `/api/printer`'s `temperature`: tools first, then the bed and the chamber.
    static func heaters(_ printer: JSONValue?) -> Heaters {
        guard case .object(let members)? = printer?["temperature"] else { return Heaters() }
        var heaters: [Heaters.Heater] = []
        for (name, value) in members.prefix(16) {
            guard let actual = value["actual"]?.number, let target = value["target"]?.number else { continue }
            let shown = name == "tool0" ? "" : name.hasPrefix("tool") || name == "bed" || name == "chamber" ? name : DisplayText.sanitised(String(name.prefix(12)))
            heaters.append(Heaters.Heater(name: shown, actual: actual, target: target))
        }
        return Heaters(heaters: heaters.sorted { ($0.name.isEmpty ? 0 : $0.name.hasPrefix("tool") ? 1 : 2, $0.name) < ($1.name.isEmpty ? 0 : $1.name.hasPrefix("tool") ? 1 : 2, $1.name) })
    }
}
