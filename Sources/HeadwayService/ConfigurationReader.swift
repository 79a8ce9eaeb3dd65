import Headway
import HeadwayProtocol
import HeadwayYAML

/// Typed reading of configuration nodes, each failure naming its line and key.
struct Reader {
    let source: String

    func error(_ node: YAMLNode?, _ key: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: source, line: node?.line, key: key, message)
    }

    func allowOnly(_ keys: [String], in mapping: YAMLMapping, context: String?) throws(ConfigurationError) {
        for key in mapping.keys {
            guard let name = key.string, keys.contains(name) else {
                let path = [context, key.string.map { DisplayText.quoted($0, maxBytes: 48) }].compactMap { $0 }.joined(separator: ".")
                throw error(key, path, "unknown key; the keys here are \(keys.joined(separator: ", "))")
            }
        }
    }

    /// A non-empty text that is safe to show: names and paths end up in logs and on terminals.
    func string(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> String {
        guard let value = node.string, !value.isEmpty else { throw error(node, key, "must be a non-empty text") }
        // The rule for job ids, with room for paths.
        if let problem = Identifier.problem(value, maxBytes: 4096) { throw error(node, key, problem) }
        return value
    }

    func int(_ node: YAMLNode, _ key: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let text = node.string, let value = text.hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text) else {
            throw error(node, key, "must be a whole number")
        }
        guard range.contains(value) else { throw error(node, key, "\(value) is out of range (\(range.lowerBound)…\(range.upperBound))") }
        return value
    }

    func double(_ node: YAMLNode, _ key: String, _ range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        guard let text = node.string, let value = Double(text) else { throw error(node, key, "must be a number") }
        guard range.contains(value) else { throw error(node, key, "\(text) is out of range (\(range.lowerBound)…\(range.upperBound))") }
        return value
    }

    func bool(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> Bool {
        switch node.string?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error(node, key, "must be true or false")
        }
    }

    func colour(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> Colour {
        let text = try string(node, key)
        do { return try Colour(hex: text) } catch { throw self.error(node, key, error.description) }
    }

    func choice<T>(_ node: YAMLNode, _ key: String, _ options: [(String, T)]) throws(ConfigurationError) -> T {
        let text = try string(node, key)
        guard let match = options.first(where: { $0.0 == text.lowercased() }) else {
            throw error(node, key, "\"\(text)\" is not one of \(options.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    func appearance(_ node: YAMLNode) throws(ConfigurationError) -> Appearance {
        guard let map = node.mapping else { throw error(node, "appearance", "must be a mapping (tint, track, brightness, …)") }
        try allowOnly(["tint", "track", "stalled", "stale", "success", "failure", "cancelled", "ended", "overdue", "brightness", "percent"], in: map, context: "appearance")
        var look = Appearance.standard
        if let n = map["tint"] { look.tint = try colour(n, "appearance.tint") }
        if let n = map["track"] { look.track = n.string == "none" ? nil : try colour(n, "appearance.track") }
        if let n = map["stalled"] { look.stalled = try colour(n, "appearance.stalled") }
        if let n = map["stale"] { look.stale = try colour(n, "appearance.stale") }
        if let n = map["success"] { look.success = try colour(n, "appearance.success") }
        if let n = map["failure"] { look.failure = try colour(n, "appearance.failure") }
        if let n = map["cancelled"] { look.cancelled = try colour(n, "appearance.cancelled") }
        if let n = map["ended"] { look.ended = try colour(n, "appearance.ended") }
        if let n = map["overdue"] { look.overdue = try colour(n, "appearance.overdue") }
        if let n = map["percent"] { look.showsPercent = try bool(n, "appearance.percent") }
        if let n = map["brightness"] { look.brightness = try double(n, "appearance.brightness", 0...1) }
        return look
    }

    func timings(_ node: YAMLNode) throws(ConfigurationError) -> LifecyclePolicy {
        guard let map = node.mapping else { throw error(node, "timings", "must be a mapping (grace, stall-after, linger, lose-after, alive-without-reports)") }
        try allowOnly(["grace", "stall-after", "linger", "lose-after", "alive-without-reports"], in: map, context: "timings")
        var policy = LifecyclePolicy.standard
        if let n = map["grace"] { policy.grace = try double(n, "timings.grace", 0...600) }
        if let n = map["stall-after"] { policy.stallAfter = try double(n, "timings.stall-after", 1...86_400) }
        if let n = map["linger"] { policy.linger = try double(n, "timings.linger", 0...600) }
        if let n = map["lose-after"] { policy.loseAfter = try double(n, "timings.lose-after", 1...604_800) }
        if let n = map["alive-without-reports"] { policy.aliveWithoutReports = try double(n, "timings.alive-without-reports", 60...2_592_000) }
        guard policy.loseAfter > policy.stallAfter else {
            throw error(node, "timings.lose-after", "must be longer than stall-after (\(policy.stallAfter) s)")
        }
        return policy
    }

    func spiClock(_ node: YAMLNode) throws(ConfigurationError) -> SPIClockModel {
        try choice(node, "spi-clock", [("exact", .exact), ("raspberry-pi-3", .raspberryPi3), ("raspberry-pi-4", .raspberryPi4)])
    }

    func layout(_ map: YAMLMapping, _ key: String, count: Int) throws(ConfigurationError) -> LEDLayout {
        guard let node = map["layout"] else { return .strip }
        let shape = try choice(node, "\(key).layout", [("strip", false), ("ring", true)])
        guard shape else {
            return LEDLayout(.strip(reversed: try map["reversed"].map { n throws(ConfigurationError) in try bool(n, "\(key).reversed") } ?? false))
        }
        let start = try map["start"].map { n throws(ConfigurationError) in try int(n, "\(key).start", 0...(count - 1)) } ?? 0
        let clockwise = try map["clockwise"].map { n throws(ConfigurationError) in try bool(n, "\(key).clockwise") } ?? true
        return .ring(start: start, clockwise: clockwise)
    }

    /// An output; `quietHours` are the configuration's, which its own quiet hours start from; its
    /// `header` tokens are resolved by `wiring`.
    func output(_ node: YAMLNode, index: Int, wiring: HeaderWiring, quietHours: QuietHours? = nil) throws(ConfigurationError) -> OutputConfiguration {
        let key = "outputs[\(index)]"
        let drivers = DeviceCatalogue.drivers.joined(separator: ", ")
        guard let map = node.mapping else { throw error(node, key, "must be a mapping with name and driver") }
        guard let nameNode = map["name"] else { throw error(node, "\(key).name", "missing") }
        let name = try string(nameNode, "\(key).name")
        guard let driverNode = map["driver"] else { throw error(node, "\(key).driver", "missing; one of \(drivers)") }
        let driver = try string(driverNode, "\(key).driver")
        guard let family = DeviceCatalogue.family(forDriver: driver) else {
            throw error(driverNode, "\(key).driver", "\"\(driver)\" is not a driver; one of \(drivers)")
        }
        let device = try family.read(DeviceSection(driver: driver, reader: self, map: map, node: node, key: key, wiring: wiring))
        var pipeline = ColourPipeline()
        if let n = map["gamma"] { pipeline.gamma = Float(try double(n, "\(key).gamma", 0.2...5)) }
        if let n = map["dithering"] { pipeline.dithering = try bool(n, "\(key).dithering") }
        if let n = map["current-budget-ma"] {
            var budget = CurrentBudget(budgetMilliamps: try double(n, "\(key).current-budget-ma", 10...100_000))
            if let m = map["milliamps-per-channel"] { budget.milliampsPerChannel = try double(m, "\(key).milliamps-per-channel", 1...100) }
            pipeline.budget = budget
        }
        let fps = try map["frames-per-second"].map { n throws(ConfigurationError) in try double(n, "\(key).frames-per-second", 1...120) }
        var output = OutputConfiguration(name: name, line: node.line, device: device, pipeline: pipeline, framesPerSecond: fps)
        if let n = map["quiet-hours"] { output.quietHours = try self.quietHours(n, "\(key).quiet-hours", base: quietHours) }
        if let n = map["care"] { output.care = try care(n, "\(key).care") }
        if let n = map["countdown"] { output.countdown = try countdown(n, "\(key).countdown") }
        return output
    }

    /// A GPIO line: its number (`24`) or its header pin (`pin 18`).
    func line(_ node: YAMLNode, _ key: String) throws(ConfigurationError) -> UInt32 {
        let text = try string(node, key).lowercased()
        guard text.hasPrefix("pin") else { return UInt32(try int(node, key, 0...511)) }
        guard let pin = Int(text.dropFirst(3).trimmingPrefix(" ")), (1...40).contains(pin) else {
            throw error(node, key, "\"\(text)\" is not a header pin; write pin 1 … pin 40, or the GPIO number")
        }
        guard let gpio = HeaderPins.gpio[pin] else {
            throw error(node, key, "header pin \(pin) is \(HeaderPins.power(pin) ?? "not a GPIO"), not a GPIO line; pick a pin with a GPIO (e.g. pin 18 is GPIO 24)")
        }
        return gpio
    }

    func button(_ node: YAMLNode, index: Int, wiring: HeaderWiring) throws(ConfigurationError) -> ButtonConfiguration {
        let key = "buttons[\(index)]"
        guard let map = node.mapping else { throw error(node, key, "must be a mapping with line (and chip, active-low, bias)") }
        try allowOnly(["chip", "line", "active-low", "bias", "long-press"], in: map, context: key)
        guard let lineNode = map["line"] else { throw error(node, "\(key).line", "missing") }
        return ButtonConfiguration(
            chip: wiring.chip(try map["chip"].map { n throws(ConfigurationError) in try string(n, "\(key).chip") } ?? "header"),
            line: UInt32(try int(lineNode, "\(key).line", 0...511)),
            activeLow: try map["active-low"].map { n throws(ConfigurationError) in try bool(n, "\(key).active-low") } ?? true,
            bias: try map["bias"].map { n throws(ConfigurationError) in
                try choice(n, "\(key).bias", [("pull-up", GPIOBias.pullUp), ("pull-down", .pullDown), ("disabled", .disabled), ("as-is", .asIs)])
            } ?? .pullUp,
            longPress: try map["long-press"].map { n throws(ConfigurationError) in try double(n, "\(key).long-press", 0.3...10) } ?? 1.5,
            fileLine: node.line)
    }
}
