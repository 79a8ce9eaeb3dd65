import Headway

/// A display of time toward a systemd timer's next elapse, drawn by an idle output.
public struct TimerCountdown: Sendable, Equatable {
    /// The timer (`backup.timer`).
    public var timer: String
    /// How long before the elapse the countdown shows; before that the output stays dark.
    public var within: Double

    /// A countdown to `timer`'s next elapse, shown from `within` seconds before it.
    public init(timer: String, within: Double = 15 * 60) {
        self.timer = timer
        self.within = within
    }
}

/// Reading `watch:` (the systemd units whose runs are jobs) and an output's `countdown:`.
extension Reader {
    /// `watch: {units: [backup.service, …]}`.
    func watch(_ node: YAMLNode) throws(ConfigurationError) -> [String] {
        guard let map = node.mapping else { throw error(node, "watch", "must be a mapping with units: [backup.service, …]") }
        try allowOnly(["units"], in: map, context: "watch")
        guard let unitsNode = map["units"] else { throw error(node, "watch.units", "missing: the systemd units whose runs are jobs, like [backup.service]") }
        guard let list = unitsNode.sequence else { throw error(unitsNode, "watch.units", "must be a list of unit names, like [backup.service, nightly.timer]") }
        var names: [String] = []
        for (index, item) in list.enumerated() {
            let name = try unitName(item, "watch.units[\(index)]", allowed: [".service", ".timer"])
            guard !names.contains(name) else { throw error(item, "watch.units[\(index)]", "\(name) is listed twice; name each unit once") }
            names.append(name)
        }
        guard names.count <= 64 else { throw error(unitsNode, "watch.units", "lists \(names.count) units; at most 64 are watched") }
        return names
    }

    /// `countdown: backup.timer`, or `countdown: {timer: backup.timer, within: 15m}`.
    func countdown(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> TimerCountdown {
        if node.string != nil { return TimerCountdown(timer: try unitName(node, key, allowed: [".timer"])) }
        guard let map = node.mapping else { throw error(node, key, "must be a timer's name (backup.timer) or a mapping with timer and within") }
        try allowOnly(["timer", "within"], in: map, context: key)
        guard let timerNode = map["timer"] else { throw error(node, "\(key).timer", "missing: the systemd timer to count down to, like backup.timer") }
        var countdown = TimerCountdown(timer: try unitName(timerNode, "\(key).timer", allowed: [".timer"]))
        if let n = map["within"] { countdown.within = try duration(n, "\(key).within", 10...86_400) }
        return countdown
    }

    /// A unit name as systemd.unit(5) defines it: letters, digits and `:-_.\@`, at most 255
    /// bytes, a type suffix (here one of `allowed`).
    func unitName(_ node: YAMLNode, _ key: String, allowed: [String]) throws(ConfigurationError) -> String {
        let name = try string(node, key)
        let kinds = allowed.map { "a \($0 == ".timer" ? "timer" : "service") (backup\($0))" }.joined(separator: " or ")
        if let bad = name.unicodeScalars.first(where: { !(("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ":-_.\\@".unicodeScalars.contains($0)) }) {
            let shown = bad == " " ? "a space" : "\"\(bad)\""
            throw error(node, key, "\"\(name)\" is not a systemd unit name: it has \(shown), and only letters, digits and : - _ . \\ @ may be used; write it as systemctl list-units shows it")
        }
        guard name.utf8.count <= 255 else { throw error(node, key, "is \(name.utf8.count) bytes; a systemd unit name has at most 255") }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            throw error(node, key, "\"\(name)\" names no unit type; watch \(kinds)")
        }
        let suffix = String(name[dot...])
        guard allowed.contains(suffix) else {
            throw error(node, key, "\"\(name)\" is a \(suffix.dropFirst()) unit; only \(kinds) can be \(allowed == [".timer"] ? "counted down to" : "watched")")
        }
        return name
    }
}
