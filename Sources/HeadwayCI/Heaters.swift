import HeadwayCore

/// A printer's heaters as a look saw them, for the label of a print that is heating up: a print
/// is shown indeterminate while any heater with a target is still short of it.
struct Heaters: Sendable, Equatable {
    struct Heater: Sendable, Equatable {
        /// As the label names it: "", "bed", "tool1".
        var name: String
        var actual: Double
        var target: Double
    }

    var heaters: [Heater] = []

    /// Degrees short of its target at which a heater still counts as heating (the firmware's own
    /// M109/M190 wait ends within a few degrees).
    static let margin = 3.0

    var heating: Bool { heaters.contains { $0.target > 0 && $0.actual < $0.target - Self.margin } }

    /// "heating 45/200 °C, bed 40/60 °C": every heater with a target.
    var label: String {
        let parts = heaters.filter { $0.target > 0 }.map { heater in
            "\(heater.name.isEmpty ? "" : heater.name + " ")\(Self.degrees(heater.actual))/\(Self.degrees(heater.target)) °C"
        }
        return parts.isEmpty ? "heating" : "heating " + parts.joined(separator: ", ")
    }

    private static func degrees(_ value: Double) -> String {
        value.isFinite && abs(value) < 10_000 ? String(Int(value.rounded())) : "?"
    }
}

/// What printer sources share: percent-encoded names in URLs and file names made safe to show.
enum PrintText {
    /// A file's name as a label shows it: its last path component, made safe to show and cut to fit.
    static func file(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return DisplayText.truncated(DisplayText.sanitised(name), maxBytes: 120)
    }
}
