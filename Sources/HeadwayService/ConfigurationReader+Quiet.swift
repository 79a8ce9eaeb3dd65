import Headway
import HeadwayYAML

/// Reading quiet hours (for every output, or an output's own) and a display's care.
extension Reader {
    static let quietKeys = ["from", "to", "brightness", "failures", "wake"]
    static let careKeys = ["shift", "shift-every", "dim-after", "dim-to", "last-result"]

    /// `10%`, `0.1` or `dark` (0) → 0…1.
    func fraction(_ node: YAMLNode, _ key: String, allowsDark: Bool = false) throws(ConfigurationError) -> Double {
        let text = try string(node, key).lowercased()
        if allowsDark, text == "dark" { return 0 }
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, (0...1).contains(value) else {
            throw error(node, key, "\"\(text)\" is not a share like 25% or 0.25\(allowsDark ? ", or dark" : "")")
        }
        return value
    }

    /// `90`, `90s`, `5m`, `1h30m` → seconds, within `range`.
    func duration(_ node: YAMLNode, _ key: String, _ range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        let text = try string(node, key)
        guard let seconds = DurationText.parse(text) else { throw error(node, key, "\"\(text)\" is not a duration like 90, 90s, 5m or 1h30m") }
        guard range.contains(seconds) else {
            throw error(node, key, "\(text) is out of range (\(DurationText.short(range.lowerBound))…\(DurationText.short(range.upperBound)))")
        }
        return seconds
    }

    func timeOfDay(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> TimeOfDay {
        let text = try string(node, key)
        guard let time = TimeOfDay(text) else { throw error(node, key, "\"\(text)\" is not a time of day like 22:00 or 7:30 (quote it: \"22:00\")") }
        return time
    }

    /// `quiet-hours:` — a mapping (over `base`, the configuration's, for an output's own), or
    /// `off` for an output that keeps none.
    func quietHours(_ node: YAMLNode, _ key: String, base: QuietHours?) throws(ConfigurationError) -> QuietHoursChoice {
        if key != "quiet-hours", node.string?.lowercased() == "off" { return .off }
        guard let map = node.mapping else {
            throw error(node, key, "must be a mapping (from, to, brightness, failures, wake)" + (key == "quiet-hours" ? "" : " or off"))
        }
        try allowOnly(Self.quietKeys, in: map, context: key)
        let from = try map["from"].map { n throws(ConfigurationError) in try timeOfDay(n, "\(key).from") } ?? base?.from
        let to = try map["to"].map { n throws(ConfigurationError) in try timeOfDay(n, "\(key).to") } ?? base?.to
        guard let from else { throw error(node, "\(key).from", "missing: when quiet hours begin, like \"22:00\"") }
        guard let to else { throw error(node, "\(key).to", "missing: when quiet hours end, like \"07:00\"") }
        guard from != to else { throw error(map["to"] ?? node, "\(key).to", "is the same time as from; quiet hours need a start and a different end") }
        var hours = QuietHours(from: from, to: to)
        if let base { (hours.brightness, hours.marksFailures, hours.wake) = (base.brightness, base.marksFailures, base.wake) }
        if let n = map["brightness"] { hours.brightness = try fraction(n, "\(key).brightness", allowsDark: true) }
        if let n = map["failures"] { hours.marksFailures = try choice(n, "\(key).failures", [("mark", true), ("hide", false)]) }
        if let n = map["wake"] { hours.wake = try duration(n, "\(key).wake", 5...3600) }
        return .own(hours)
    }

    /// A display's `care:` — a mapping over the standard care, or `off`.
    func care(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> OutputCare {
        if node.string?.lowercased() == "off" { return .off }
        guard let map = node.mapping else { throw error(node, key, "must be a mapping (shift, shift-every, dim-after, dim-to, last-result) or off") }
        try allowOnly(Self.careKeys, in: map, context: key)
        var care = OutputCare.standard
        if let n = map["shift"] { care.display.shift = try int(n, "\(key).shift", 0...4) }
        if let n = map["shift-every"] { care.display.shiftInterval = .seconds(try duration(n, "\(key).shift-every", 10...86_400)) }
        if let n = map["dim-after"] {
            care.display.dimAfter = n.string?.lowercased() == "never" ? nil : .seconds(try duration(n, "\(key).dim-after", 5...86_400))
        }
        if let n = map["dim-to"] { care.display.dimmedBrightness = try fraction(n, "\(key).dim-to") }
        if let n = map["last-result"] { care.lastResult = try duration(n, "\(key).last-result", 0...86_400) }
        return care
    }
}
