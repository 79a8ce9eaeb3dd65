import Foundation
import HeadwayMQTT
import HeadwayProtocol
import Testing

/// Home Assistant's MQTT discovery (home-assistant.io, integrations/mqtt and the sensor and button
/// pages): each entity kind's config against a golden file, the keys each kind requires, ids and
/// topics in the forms Home Assistant takes.
@Suite struct HomeAssistantDiscoveryTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HomeAssistant")
    let discovery = HomeAssistantDiscovery(display: "hall")

    /// Each entity's config equals its golden file (the build's version where the file says VERSION).
    /// `HEADWAY_UPDATE_GOLDEN=1` writes the files instead, for a change made on purpose.
    @Test(arguments: ["sensor-progress", "sensor-phase", "sensor-eta", "sensor-label", "button-cancel"])
    func configMatchesItsGoldenFile(_ name: String) throws {
        let entity = try #require(discovery.entities.first { "\($0.component)-\($0.object)" == name })
        let file = Self.golden.appendingPathComponent(name + ".json")
        let text = Self.pretty(entity.config).replacingOccurrences(of: "\"\(Version.current)\"", with: "\"VERSION\"")
        if ProcessInfo.processInfo.environment["HEADWAY_UPDATE_GOLDEN"] == "1" { try text.write(to: file, atomically: true, encoding: .utf8) }
        #expect(try String(contentsOf: file, encoding: .utf8) == text)
    }

    @Test func everyEntityHasWhatItsKindRequires() throws {
        let required: [String: [String]] = ["sensor": ["state_topic"], "button": ["command_topic"]]
        let shared = ["name", "unique_id", "availability_topic", "device", "origin"]
        #expect(discovery.entities.count == 5)
        for entity in discovery.entities {
            for key in try #require(required[entity.component]) + shared {
                #expect(entity.config[key] != nil, "\(entity.object) lacks \(key)")
            }
            #expect(entity.config["device"]?["identifiers"] == .array([.string("headway_hall")]))
            #expect(entity.config["origin"]?["name"]?.string == "Headway")
            // Ids and the config topic: [a-zA-Z0-9_-] only.
            let topic = discovery.configTopic(entity)
            #expect(topic == "homeassistant/\(entity.component)/headway_hall/\(entity.object)/config")
            for id in [entity.object, "headway_hall", entity.config["unique_id"]?.string ?? ""] {
                #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }, "\(id)")
            }
        }
        #expect(Set(discovery.entities.compactMap { $0.config["unique_id"]?.string }).count == 5, "unique ids")
    }

    /// Every topic a config names is one the bridge publishes (state, availability) or takes
    /// (the button's command): the display's own subtree.
    @Test func everyTopicNamedIsTheDisplays() throws {
        for entity in discovery.entities {
            guard case .object(let members) = entity.config else { Issue.record("not an object"); continue }
            for (key, value) in members where key.hasSuffix("_topic") {
                #expect([discovery.stateTopic, discovery.availabilityTopic, discovery.cancelTopic].contains(value.string ?? ""), "\(key)")
            }
        }
        #expect(discovery.stateTopic == "headway/v1/displays/hall/state")
        #expect(discovery.cancelTopic == "headway/v1/displays/hall/cancel")
        #expect(discovery.availabilityTopic == JobTopics.displayAvailability("hall"))
    }

    /// The state every sensor reads: all members present, null when the job has none, the ETA a
    /// moment with its zone (a timestamp sensor takes nothing else), the phase one of the options.
    @Test func theStatePayloadCarriesEveryMember() throws {
        let idle = try JSONValue.parse(HomeAssistantDiscovery.statePayload(nil, wallClock: 0))
        #expect(idle["phase"]?.string == "idle" && idle["percent"] == .null && idle["eta"] == .null)
        let job = JobStatus(job: "acme/widgets/gl-4711", label: "Build \u{1B}[31mwidgets", phase: "active", percent: 40, value: 4, total: 10, etaSeconds: 90.4, estimate: true, shown: true)
        let state = try JSONValue.parse(HomeAssistantDiscovery.statePayload(job, wallClock: 1_795_512_600))
        #expect(state["percent"]?.number == 40)
        #expect(state["eta"]?.string == "2026-11-24T09:31:30+00:00")
        #expect(state["label"]?.string == "Build widgets", "sanitised")
        #expect(state["estimate"]?.bool == true)
        #expect(state["time"]?.string == "~1m31s" && state["overdue"] == .null)
        let late = JobStatus(job: "late", label: nil, phase: "active", percent: 40, value: 4, total: 10, etaSeconds: nil, estimate: false, overdueSeconds: 12, shown: true)
        let overdue = try JSONValue.parse(HomeAssistantDiscovery.statePayload(late, wallClock: 0))
        #expect(overdue["overdue"]?.number == 12 && overdue["time"]?.string == "overdue 12s" && overdue["eta"] == .null, "past its estimate: never 0 s left")
        let tea = JobStatus(job: "tea", label: nil, phase: "active", percent: nil, value: 237, total: 240, etaSeconds: nil, estimate: false, shown: true, countdown: true)
        #expect(try JSONValue.parse(HomeAssistantDiscovery.statePayload(tea, wallClock: 0))["time"]?.string == "3m57s left of 4m")
        let options = discovery.entities.first { $0.object == "phase" }?.config["options"]
        #expect(options == .array(HomeAssistantDiscovery.phases.map(JSONValue.string)))
        for phase in ["idle", "active", "stalled", "paused", "succeeded", "failed", "cancelled", "ended", "lost"] {
            #expect(HomeAssistantDiscovery.phases.contains(phase), "\(phase)")
        }
    }

    @Test func timestampsAreUTCCalendarDates() {
        #expect(Timestamp.iso8601(0) == "1970-01-01T00:00:00+00:00")
        #expect(Timestamp.iso8601(951_782_400) == "2000-02-29T00:00:00+00:00")
        #expect(Timestamp.iso8601(4_107_542_399) == "2100-02-28T23:59:59+00:00")
        #expect(Timestamp.iso8601(-1) == "1969-12-31T23:59:59+00:00")
    }

    /// Two-space indented JSON, members in order, for readable golden files.
    static func pretty(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members):
            return "{\n" + members.map { "\(inner)\(JSONValue.string($0.0).text): \(pretty($0.1, indent: inner))" }.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let items):
            return "[" + items.map { pretty($0, indent: inner) }.joined(separator: ", ") + "]"
        default:
            return value.text
        }
    }
}
