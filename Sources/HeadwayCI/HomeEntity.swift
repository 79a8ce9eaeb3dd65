import HeadwayCore

/// One Home Assistant entity to follow, and what its state means: `ID`, or `ID=MEANING` on the
/// command line and in the configuration file.
public struct HomeEntity: Sendable, Equatable {
    public enum Meaning: String, Sendable, Equatable, CaseIterable {
        /// Told by the entity's domain (update, timer, binary_sensor) or its unit: `%` is a
        /// percentage, a time unit (or `device_class: duration`) a remaining time.
        case auto
        /// The state is a share done, 0…100: a job while it is above 0 and below 100.
        case percent
        /// The state is the time left (in its `unit_of_measurement`: s, min, h, d): a job while above 0.
        case remaining
        /// The state is on or off: an indeterminate job while on.
        case running
    }

    public var id: String
    public var meaning: Meaning

    public init(id: String, meaning: Meaning = .auto) {
        self.id = id
        self.meaning = meaning
    }

    /// Domains whose entities are followed.
    static let domains = ["update", "timer", "sensor", "binary_sensor", "input_number", "input_boolean", "switch", "number"]

    /// `ID` or `ID=MEANING`, checked: an entity id is `domain.object_id` in lower-case letters,
    /// digits and underscores (Home Assistant's `valid_entity_id`).
    public init(parsing text: String) throws(SourceError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let id = parts.first ?? ""
        let shown = DisplayText.quoted(String(text.prefix(120)))
        let allowed = id.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2E }
        let halves = id.split(separator: ".", omittingEmptySubsequences: false)
        guard allowed, halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, id.utf8.count <= 255 else {
            throw SourceError("homeassistant: \(shown) is not an entity id (like timer.tea or sensor.washer_remaining_time)")
        }
        guard Self.domains.contains(String(halves[0])) else {
            throw SourceError("homeassistant: \(shown): \(halves[0]) entities are not followed; follow \(Self.domains.joined(separator: ", "))")
        }
        var meaning = Meaning.auto
        if parts.count == 2 {
            guard let read = Meaning(rawValue: parts[1]) else {
                throw SourceError("homeassistant: \(shown): say what its state means with =\(Meaning.allCases.map(\.rawValue).joined(separator: ", =")) (like sensor.washer_remaining_time=remaining)")
            }
            meaning = read
        }
        self.init(id: id, meaning: meaning)
    }

    /// As the command line writes it.
    public var text: String { meaning == .auto ? id : "\(id)=\(meaning.rawValue)" }
}
