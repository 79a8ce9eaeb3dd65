import HeadwayCore
import HeadwayProtocol

/// Moonraker, Klipper's API server: the print of one printer through its HTTP API, asked at every
/// look; its WebSocket says when to look (MoonrakerSource+Push.swift).
///
/// What is read, from Moonraker's docs/external_api (printer.md "Query printer object status",
/// file_manager.md "Get GCode Metadata", history.md "Get job list") and Klipper's
/// docs/Status_Reference.md, checked against Moonraker 0.11.0 (Tests/Printers/README.md):
/// - `GET /printer/objects/query?webhooks&print_stats&virtual_sdcard&display_status&extruder&heater_bed`:
///   `print_stats.state` (standby, printing, paused, complete, cancelled, error), `filename`,
///   `print_duration` (seconds printing, pauses left out), `message`, `info.current_layer` and
///   `total_layer`; `virtual_sdcard.progress` (the file position, 0…1);
///   `display_status.progress` (the slicer's M73 for 5 s after each one, else the file position);
///   the heaters' `temperature` and `target`; 503 while Klippy is not connected;
/// - `GET /server/files/metadata?filename=F`: the slicer's `estimated_time` and `layer_count`;
/// - `GET /server/history/list?limit=50`: past jobs, whose `print_duration` by file teaches how
///   long a file prints.
/// How far a print is comes from the first of these that is there, named in the label: the
/// slicer's M73 (once `display_status` has differed from the file position), the file position,
/// the time printed against the slicer's estimate, against the learned duration; where one takes
/// over from another it starts where the last left off, never going back. Never a made-up share:
/// without any, the job is indeterminate.
/// Commands: `POST /printer/print/pause`, `/resume`, `/cancel` (printer.md "Pause a print job").
public struct MoonrakerSource: CISource {
    public let root: String
    private var current: Print?
    private var look = Look()
    /// The slicer's figures by file (`estimated_time`, `layer_count`); nil: Moonraker had none.
    private var metadata: [String: (estimate: Double?, layers: Int?)] = [:]
    /// Learned print durations by file, from the history.
    private var learned: [String: Double] = [:]
    private var historyDue = true
    /// A look failed during the current print (Klippy gone): a print lost with it failed.
    private var interrupted = false

    struct Print: Sendable {
        var file: String
        var key: String
        var startedAt: Double
        var determinate = false
        /// The slicer's latest M73 share: `display_status` when it differs from the file position
        /// (Klipper shows the file position again 5 s after each M73).
        var m73: Double?
        /// The percentage last given: a print's sources disagree by a little (the file position
        /// runs ahead of the slicer's M73 until its first one is read), so the one taking over
        /// starts where the last left off instead of going back.
        var done: Double = 0
        /// The print's warm-up: its `print_duration` when its heaters last heated before the file
        /// moved on (the bed, then the hot end, at the start of the file).
        var warmUp: Double = 0
    }

    private struct Look {
        var asked: Set<String> = []
        var status: JSONValue?
        var metadata: (file: String, value: JSONValue?)?
        var history: JSONValue?
    }

    public init(url: String) throws(SourceError) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw SourceError("moonraker: \"\(DisplayText.sanitised(String(url.prefix(100))))\" is not Moonraker's address (like http://voron.local:7125)")
        }
        root = URLText.trimmed(url)
    }

    public var description: String { "moonraker \(hostOf(root))" }
    public var jobPrefix: String { "moonraker/\(hostOf(root))" }
    public var authorization: Authorization { .apiKey }

    static let query = "/printer/objects/query?webhooks&print_stats&virtual_sdcard&display_status&extruder=temperature,target&heater_bed=temperature,target"

    public mutating func requests() -> [HTTPRequest] {
        var urls = [root + Self.query]
        if historyDue { urls.append("\(root)/server/history/list?limit=50&order=desc") }
        if let file = look.status?["print_stats"]?["filename"]?.string, !file.isEmpty, metadata[file] == nil, file.utf8.count <= 1024 {
            urls.append("\(root)/server/files/metadata?filename=\(URLText.component(file))")
        }
        let fresh = urls.filter { !look.asked.contains($0) }
        look.asked.formUnion(fresh)
        return fresh.map { HTTPRequest(url: $0, headers: ["Accept: application/json"]) }
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        let path = request.url.dropFirst(root.count)
        if path.hasPrefix("/server/files/metadata"), let file = look.status?["print_stats"]?["filename"]?.string {
            // Not scanned yet (404): asked again at the next look.
            guard (200..<300).contains(response.status) else { return }
            look.metadata = (file, try JSONBody.parse(response.body, from: description)["result"])
            return
        }
        if path.hasPrefix("/server/history"), !(200..<300).contains(response.status) {
            // No [history] section: nothing to learn from.
            if response.status == 404 { historyDue = false }
            return
        }
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        let json = try JSONBody.parse(response.body, from: description)
        if path.hasPrefix("/server/history") {
            look.history = json["result"]
        } else {
            guard let status = json["result"]?["status"] else {
                throw SourceError("\(description): the answer has no result.status; is the address Moonraker's?")
            }
            look.status = status
        }
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        let message = (try? JSONBody.parse(body, from: description))?["error"]?["message"]?.string.map { DisplayText.truncated(DisplayText.sanitised($0), maxBytes: 120) }
        switch status {
        case 401, 403: return "\(description): Moonraker refused the request (\(status)); put an API key (moonraker's [authorization], `Settings → API key` in Mainsail or Fluidd) in the --token-file, or add this machine to trusted_clients"
        case 404: return "\(description): no Moonraker API at \(root) (is the address Moonraker's, port 7125 by default?)"
        case 503: return "\(description): Klippy is not connected to Moonraker (\(message ?? "503")); is Klipper running? Its jobs read stale until it is back"
        default: return "\(description): \(hostOf(root)) answered \(status)\(message.map { ": \($0)" } ?? "")\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    public mutating func abandonLook() {
        look = Look()
        if current != nil { interrupted = true }
    }

    public func command(_ command: JobCommand, key: String) -> HTTPRequest? {
        guard current?.key == key else { return nil }
        return .post("\(root)/printer/print/\(command.rawValue)")
    }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer { look = Look() }
        if let history = look.history {
            learn(history)
            historyDue = false
        }
        if let (file, value) = look.metadata {
            metadata[file] = (value?["estimated_time"]?.number.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }, value?["layer_count"]?.integer)
            if metadata.count > 256 { metadata = [file: metadata[file]!] }
        }
        guard let status = look.status else { return [] }
        let stats = status["print_stats"]
        let state = stats?["state"]?.string ?? "standby"
        let path = stats?["filename"]?.string ?? ""
        var runs: [CIRun] = []
        if state == "printing" || state == "paused", !path.isEmpty {
            if let was = current, was.key != String(path.prefix(200)) {
                runs.append(CIRun(key: was.key, title: was.file, state: .finished(.ended), name: was.key))
                current = nil
            }
            let duration = stats?["print_duration"]?.number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
            var print = current ?? Print(file: PrintText.file(path), key: String(path.prefix(200)), startedAt: serverTime)
            if current == nil { interrupted = false }
            let display = status["display_status"]?["progress"]?.number.flatMap(Self.share)
            let position = status["virtual_sdcard"]?["progress"]?.number.flatMap(Self.share)
            if let display, let position, abs(display - position) > 0.0015 { print.m73 = display }
            let heaters = Self.heaters(status)
            let known = metadata[path]
            // The chain of sources, first that is there.
            var share: (value: Double, source: String)?
            if let m73 = print.m73, m73 > 0 {
                share = (m73, "M73")
            } else if let position, position > 0 {
                share = (position, "file position")
            } else if let estimate = known?.estimate, duration > 0 {
                share = (min(duration / estimate, 0.99), "slicer's time")
            } else if let typical = learned[path], duration > 0 {
                share = (min(duration / typical, 0.99), "past prints")
            }
            if !print.determinate, share != nil, !heaters.heating { print.determinate = true }
            if heaters.heating, print.done <= 1 { print.warmUp = duration }
            var run = CIRun(key: print.key, title: print.file, state: .running, startedAt: print.startedAt, name: print.key)
            run.controllable = true
            run.paused = state == "paused"
            var parts = [print.file]
            if print.determinate {
                // Once known, the share stays: a look that finds none (the hot end heating after
                // the bed, before the file moves on) keeps the last, and its time left with it.
                if let share { print.done = max(print.done, (share.value * 1000).rounded() / 10) }
                run.done = print.done
                run.total = 100
                // The time left is the rest of the slicer's estimate or of the past prints' time
                // after their warm-up, by the share shown: the slicer's estimate leaves out the
                // heat-up, and a past print's print_duration counts it (taken as long as this
                // print's, the same file on the same printer). Without either, the service's own
                // estimate from the rate.
                let printing = learned[path].map { max(0, $0 - print.warmUp) } ?? known?.estimate
                if let printing { run.remaining = printing * (1 - (share?.value ?? print.done / 100)) }
            }
            // Heating at any time shows, a print's first moves included (the bed first, then the
            // hot end): the time left stands still meanwhile, and the label says why.
            if heaters.heating { parts.append(heaters.label) }
            if let layer = stats?["info"]?["current_layer"]?.integer, let layers = stats?["info"]?["total_layer"]?.integer ?? known?.layers, layer >= 0, layers > 0 {
                parts.append("layer \(min(layer, layers))/\(layers)")
            }
            if print.determinate, let share { parts.append("by \(share.source)") }
            run.step = parts.joined(separator: ", ")
            current = print
            runs.append(run)
        } else if let was = current {
            let outcome: Outcome
            var label = was.file
            switch state {
            case "complete": outcome = .succeeded
            case "cancelled": outcome = .cancelled
            case "error":
                outcome = .failed
                if let message = stats?["message"]?.string, !message.isEmpty { label += ": " + DisplayText.truncated(DisplayText.sanitised(message), maxBytes: 80) }
            default:
                // Standby with the print gone: Klippy restarted under it.
                outcome = interrupted ? .failed : .ended
                if interrupted { label += ": lost when Klippy disconnected" }
            }
            runs.append(CIRun(key: was.key, title: label, state: .finished(outcome), name: was.key))
            current = nil
            interrupted = false
            historyDue = true
        }
        return runs
    }

    /// A share 0…1 from Klipper, or nil when it is none.
    static func share(_ value: Double) -> Double? { value.isFinite && value >= 0 && value <= 1 ? value : nil }

    /// Mean print time of each file's completed jobs in the history (at most 50 jobs read).
    private mutating func learn(_ history: JSONValue) {
        var sums: [String: (total: Double, count: Int)] = [:]
        for job in (history["jobs"]?.array ?? []).prefix(50) {
            guard job["status"]?.string == "completed", let file = job["filename"]?.string, file.utf8.count <= 1024,
                  let duration = job["print_duration"]?.number, duration.isFinite, duration > 0, duration < WireProtocol.maxSeconds else { continue }
            sums[file, default: (0, 0)].total += duration
            sums[file, default: (0, 0)].count += 1
        }
        learned = sums.mapValues { $0.total / Double($0.count) }
    }

    static func heaters(_ status: JSONValue) -> Heaters {
        var heaters: [Heaters.Heater] = []
        for (object, name) in [("extruder", ""), ("heater_bed", "bed")] {
            guard let actual = status[object]?["temperature"]?.number, let target = status[object]?["target"]?.number else { continue }
            heaters.append(Heaters.Heater(name: name, actual: actual, target: target))
        }
        return Heaters(heaters: heaters)
    }
}
