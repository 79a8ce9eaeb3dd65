import HeadwayCore
import HeadwayProtocol

/// Home Assistant's MQTT discovery for one display (docs/mqtt.md, "Home Assistant"): the display
/// is a device; the job it shows is its entities — progress in %, phase, ETA (a timestamp) and
/// label, read from one retained state topic — and a button that cancels that job, as a long
/// press does. Entities describe the job shown rather than each job: job ids are new on every CI
/// run, and entities made per job would pile up in Home Assistant's registry for ever.
///
/// Config topics are `PREFIX/COMPONENT/headway_NAME/OBJECT/config` (retained); every entity
/// shares the display's availability topic, so it reads unavailable when the display is gone.
public struct HomeAssistantDiscovery: Sendable {
    /// One entity of the display's device in Home Assistant.
    public struct Entity: Sendable, Equatable {
        /// `sensor` or `button`.
        public var component: String
        /// Its object id (`job`, `progress`, `cancel` …).
        public var object: String
        /// Its discovery payload.
        public var config: JSONValue
    }

    /// Home Assistant's discovery prefix (`homeassistant`).
    public let prefix: String
    /// The display's name, as topics take it.
    public let display: String

    /// `prefix` is Home Assistant's discovery prefix (`homeassistant` unless changed there);
    /// `display` a name as ``JobTopics/displayName(_:)`` makes it.
    public init(prefix: String = "homeassistant", display: String) {
        self.prefix = prefix
        self.display = display
    }

    /// The device's id in Home Assistant.
    public var deviceID: String { "headway_\(display)" }
    /// Where the display publishes what it shows (retained JSON, see ``statePayload(_:wallClock:)``).
    public var stateTopic: String { "\(JobTopics.root)/displays/\(display)/state" }
    /// Where the display says whether it is online.
    public var availabilityTopic: String { JobTopics.displayAvailability(display) }
    /// Where the cancel button's press arrives.
    public var cancelTopic: String { "\(JobTopics.root)/displays/\(display)/cancel" }
    /// Home Assistant says `online` here when it starts: discovery is then sent again.
    public var statusTopic: String { "\(prefix)/status" }
    /// What the cancel button publishes when pressed.
    public static let pressPayload = "PRESS"

    /// Every phase the phase sensor can read (`idle` when the display shows no job).
    public static let phases = ["idle", "pending", "active", "stalled", "paused"] + Outcome.allCases.map(\.rawValue) + ["hidden", "lost"]

    /// Where `entity`'s discovery payload is published (retained).
    public func configTopic(_ entity: Entity) -> String { "\(prefix)/\(entity.component)/\(deviceID)/\(entity.object)/config" }

    /// The device's entities: the job shown, its progress, phase and ETA, and a cancel button.
    public var entities: [Entity] {
        [
            sensor("progress", "Progress", template: "percent", extra: [
                ("unit_of_measurement", .string("%")), ("state_class", .string("measurement")), ("icon", .string("mdi:progress-clock")),
                ("json_attributes_topic", .string(stateTopic)),
            ]),
            sensor("phase", "Phase", template: "phase", extra: [
                ("device_class", .string("enum")), ("options", .array(Self.phases.map(JSONValue.string))),
            ]),
            sensor("eta", "Estimated end", template: "eta", extra: [("device_class", .string("timestamp"))]),
            sensor("label", "Label", template: "label", extra: [("icon", .string("mdi:label-outline"))]),
            Entity(component: "button", object: "cancel", config: .object(common("cancel", "Cancel job") + [
                ("command_topic", .string(cancelTopic)), ("payload_press", .string(Self.pressPayload)), ("icon", .string("mdi:stop-circle-outline")),
            ])),
        ]
    }

    private func sensor(_ object: String, _ name: String, template field: String, extra: [(String, JSONValue)]) -> Entity {
        Entity(component: "sensor", object: object, config: .object(common(object, name) + [
            ("state_topic", .string(stateTopic)), ("value_template", .string("{{ value_json.\(field) }}")),
        ] + extra))
    }

    private func common(_ object: String, _ name: String) -> [(String, JSONValue)] {
        [
            ("name", .string(name)),
            ("unique_id", .string("\(deviceID)_\(object)")),
            ("availability_topic", .string(availabilityTopic)),
            ("payload_available", .string("online")),
            ("payload_not_available", .string("offline")),
            ("qos", .number(1)),
            ("device", .object([
                ("identifiers", .array([.string(deviceID)])), ("name", .string("Headway \(display)")),
                ("manufacturer", .string("Headway")), ("model", .string("headway-mqtt")), ("sw_version", .string(Version.current)),
            ])),
            ("origin", .object([("name", .string("Headway")), ("sw_version", .string(Version.current))])),
        ]
    }

    /// The state topic's payload: every member present, null where the job has no such value (Home
    /// Assistant then reads the entity as unknown). The ETA is a moment (ISO 8601, UTC), an
    /// estimate when the job's own reports do not give it; `overdue` the seconds a job is past its
    /// estimate; `time` what is known of its time in the words `status` and the page use ("~42s",
    /// "overdue 12s", "3m57s left of 4m"); `job` is nil when nothing is shown.
    public static func statePayload(_ job: JobStatus?, wallClock: Double) -> String {
        guard let job else {
            return JSONValue.object([
                ("job", .null), ("label", .null), ("phase", .string("idle")), ("percent", .null), ("eta", .null), ("estimate", .bool(false)),
                ("overdue", .null), ("time", .null),
            ]).text
        }
        let eta = job.etaSeconds.map { JSONValue.string(Timestamp.iso8601((wallClock + $0).rounded())) } ?? .null
        return JSONValue.object([
            ("job", .string(DisplayText.sanitised(job.job))), ("label", job.label.map { .string(DisplayText.sanitised($0)) } ?? .null),
            ("phase", .string(job.phase)), ("percent", job.percent.map { .number(Double($0)) } ?? .null), ("eta", eta),
            ("estimate", .bool(job.estimate)), ("overdue", job.overdueSeconds.map { .number($0.rounded(.down)) } ?? .null),
            ("time", job.timeText.map(JSONValue.string) ?? .null),
        ]).text
    }
}

/// Moments as text, without Foundation.
public enum Timestamp {
    /// `2026-11-24T09:30:00+00:00` for seconds since 1970 (UTC).
    public static func iso8601(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))+00:00"
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// days-to-civil arithmetic, eras of 400 years).
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
