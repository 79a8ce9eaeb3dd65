import HeadwayCore
import HeadwayProtocol

/// Home Assistant: named entities as jobs, each asked through the REST API at every look
/// (`GET /api/states/<entity_id>` with `Authorization: Bearer` and a long-lived token;
/// developers.home-assistant.io/docs/api/rest); its WebSocket says when one of them changed
/// (HomeAssistantSource+Push.swift).
///
/// What each kind of entity is, from Home Assistant's entity documentation
/// (developers.home-assistant.io/docs/core/entity/update, the timer integration's attributes),
/// checked against Home Assistant 2026.2.3 (Tests/Home/README.md):
/// - `update`: a job while `in_progress` is true, determinate by `update_percentage` (null: not
///   known); over when `in_progress` goes false — succeeded when the entity reads `off` (up to
///   date) or the last share was 100.
/// - `timer`: `active` is a countdown: `duration` ("H:MM:SS") is the whole, the time left is
///   `finishes_at` less the server's clock (`remaining` does not tick); `paused` holds `remaining`;
///   back to `idle` at `finishes_at` is succeeded, earlier cancelled. Pause, resume and cancel from
///   Headway call `timer.pause`, `timer.start` and `timer.cancel`.
/// - a percentage (`%`): a job while above 0 and below 100; succeeded at 100.
/// - a remaining time (a time unit, or `device_class: duration`): a job while above 0, its whole
///   the largest time left seen; succeeded at 0.
/// - on/off (`binary_sensor`, `input_boolean`, `switch`): an indeterminate job while on.
/// `unavailable` and `unknown` leave a job as it was. Labels are the friendly names.
public struct HomeAssistantSource: CISource {
    public let root: String
    public let entities: [HomeEntity]
    private var followed: [String: Followed] = [:]
    private var look = Look()

    struct Followed: Sendable {
        var run: CIRun
        /// The largest time left seen (a remaining-time entity's whole).
        var most: Double = 0
        var percent: Double?
        var finishesAt: Double?
    }

    private struct Look {
        var asked: Set<String> = []
        var states: [String: JSONValue] = [:]
    }

    public static let maxEntities = 64

    public init(url: String, entities: [HomeEntity]) throws(SourceError) {
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
            throw SourceError("homeassistant: \"\(DisplayText.sanitised(String(url.prefix(100))))\" is not Home Assistant's address (like http://homeassistant.local:8123)")
        }
        guard !entities.isEmpty else { throw SourceError("homeassistant: name the entities to follow (--entity timer.tea, or entities: in the file)") }
        guard entities.count <= Self.maxEntities else { throw SourceError("homeassistant: more than \(Self.maxEntities) entities") }
        root = URLText.trimmed(url)
        self.entities = entities
    }

    public var description: String { "homeassistant \(hostOf(root))" }
    public var jobPrefix: String { "home/\(hostOf(root))" }
    public var authorization: Authorization { .bearer }

    public mutating func requests() -> [HTTPRequest] {
        let urls = entities.map { "\(root)/api/states/\($0.id)" }.filter { !look.asked.contains($0) }
        look.asked.formUnion(urls)
        return urls.map { HTTPRequest(url: $0, headers: ["Accept: application/json"]) }
    }

    public mutating func receive(_ response: HTTPResponse, for request: HTTPRequest) throws(SourceError) {
        let id = String(request.url.dropFirst("\(root)/api/states/".count))
        guard (200..<300).contains(response.status) else { throw SourceError(explain(status: response.status, for: request, body: response.body)) }
        look.states[id] = try JSONBody.parse(response.body, from: description)
    }

    public func explain(status: Int, for request: HTTPRequest, body: [UInt8]) -> String {
        let id = request.url.hasPrefix("\(root)/api/states/") ? String(request.url.dropFirst("\(root)/api/states/".count)) : nil
        switch status {
        case 401, 403: return "\(description): Home Assistant refused the token (\(status)); make a long-lived access token (your profile → Security) and put it in the --token-file"
        case 404 where id != nil: return "\(description): Home Assistant has no entity \(id!) (Settings → Entities lists them)"
        case 404: return "\(description): no Home Assistant API at \(root)/api (is `api:` in its configuration?)"
        default: return "\(description): \(hostOf(root)) answered \(status)\(status >= 500 ? " (a server error; trying again later)" : "")"
        }
    }

    public mutating func abandonLook() { look = Look() }

    public func command(_ command: JobCommand, key: String) -> HTTPRequest? {
        guard key.hasPrefix("timer."), followed[key] != nil else { return nil }
        let service = switch command {
        case .pause: "pause"
        case .resume: "start"
        case .cancel: "cancel"
        }
        return .post("\(root)/api/services/timer/\(service)", json: JSONValue.object([("entity_id", .string(key))]).text)
    }

    public mutating func finishLook(serverTime: Double) -> [CIRun] {
        defer { look = Look() }
        var runs: [CIRun] = []
        for entity in entities {
            guard let state = look.states[entity.id] else { continue }
            let text = state["state"]?.string ?? ""
            if text == "unavailable" || text == "unknown" {
                if let was = followed[entity.id] { runs.append(was.run) }
                continue
            }
            let attributes = state["attributes"]
            let name = DisplayText.truncated(DisplayText.sanitised(attributes?["friendly_name"]?.string ?? entity.id), maxBytes: 100)
            let was = followed[entity.id]
            var now = was ?? Followed(run: CIRun(key: entity.id, title: name, state: .running, startedAt: serverTime, name: entity.id))
            now.run.title = name
            now.run.step = nil
            let domain = entity.id.prefix { $0 != "." }
            var active: Bool
            var outcome = Outcome.succeeded
            switch (domain, entity.meaning) {
            case ("update", .auto):
                active = attributes?["in_progress"]?.bool == true
                let percent = attributes?["update_percentage"]?.number.flatMap { $0.isFinite ? min(max($0, 0), 100) : nil }
                if active {
                    now.percent = percent ?? now.percent
                    if let percent { (now.run.done, now.run.total) = (percent, 100) }
                    if let version = attributes?["latest_version"]?.string { now.run.step = "\(name): installing \(DisplayText.truncated(DisplayText.sanitised(version), maxBytes: 40))" }
                } else if text != "off", (now.percent ?? 0) < 100 {
                    outcome = .ended
                }
            case ("timer", .auto):
                active = text == "active" || text == "paused"
                now.run.controllable = true
                let duration = attributes?["duration"]?.string.flatMap(Self.clock)
                if text == "active", let end = attributes?["finishes_at"]?.string.flatMap(ServerTime.iso8601) {
                    now.finishesAt = end
                    now.run.paused = false
                    now.run.remaining = max(0, end - serverTime)
                } else if text == "paused" {
                    now.run.paused = true
                    now.run.remaining = attributes?["remaining"]?.string.flatMap(Self.clock)
                }
                if active, let duration, duration > 0, let left = now.run.remaining {
                    (now.run.done, now.run.total) = (max(0, duration - min(left, duration)), duration)
                    now.run.startedAt = serverTime - (duration - min(left, duration))
                }
                // Back to idle before its end: cancelled (Home Assistant ends a timer within a
                // second of `finishes_at`).
                if !active, let end = now.finishesAt, serverTime < end - 2, was?.run.paused != true { outcome = .cancelled }
                if !active, was?.run.paused == true { outcome = .cancelled }
            default:
                let meaning = Self.meaning(entity, domain: String(domain), attributes: attributes)
                switch meaning {
                case .percent:
                    let value = Double(text).flatMap { $0.isFinite ? $0 : nil }
                    active = value.map { $0 > 0 && $0 < 100 } ?? false
                    if let value, active {
                        (now.run.done, now.run.total) = (value, 100)
                        now.percent = value
                    }
                    if !active, (value ?? 0) < 100 { outcome = .ended }
                case .remaining:
                    let seconds = Double(text).map { $0 * Self.unitSeconds(attributes?["unit_of_measurement"]?.string) }.flatMap { $0.isFinite && $0 >= 0 && $0 <= WireProtocol.maxSeconds ? $0 : nil }
                    active = (seconds ?? 0) > 0
                    if let seconds, active {
                        now.most = max(now.most, seconds)
                        (now.run.done, now.run.total) = (now.most - seconds, now.most)
                        now.run.remaining = seconds
                    }
                default:
                    active = text == "on"
                }
            }
            if active {
                followed[entity.id] = now
                runs.append(now.run)
            } else if let was {
                var run = was.run
                run.title = name
                run.step = nil
                run.state = .finished(outcome)
                runs.append(run)
                followed[entity.id] = nil
            }
        }
        return runs
    }

    static func meaning(_ entity: HomeEntity, domain: String, attributes: JSONValue?) -> HomeEntity.Meaning {
        guard entity.meaning == .auto else { return entity.meaning }
        if ["binary_sensor", "input_boolean", "switch"].contains(domain) { return .running }
        let unit = attributes?["unit_of_measurement"]?.string
        if unit == "%" { return .percent }
        if ["s", "ms", "min", "h", "d"].contains(unit) || attributes?["device_class"]?.string == "duration" { return .remaining }
        return .percent
    }

    /// Seconds in one of a duration's units (Home Assistant's UnitOfTime); minutes otherwise.
    static func unitSeconds(_ unit: String?) -> Double {
        switch unit {
        case "s"?: 1
        case "ms"?: 0.001
        case "h"?: 3600
        case "d"?: 86_400
        default: 60
        }
    }

    /// "H:MM:SS" (total hours; Home Assistant writes timers' durations so): seconds.
    static func clock(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Double(parts[2]),
              hours >= 0, hours < 100_000, (0..<60).contains(minutes), seconds >= 0, seconds < 60 else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }
}
