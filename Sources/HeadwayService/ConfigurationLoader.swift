import Headway
import HeadwayProtocol
import HeadwaySystem
import HeadwayYAML

/// Reads a configuration file (YAML) into a ``ServiceConfiguration``. Every mistake is reported
/// with the file, the line and the key, and unknown keys are mistakes too (a misspelt key must not
/// be silently ignored).
public enum ConfigurationLoader {
    /// Files larger than this are refused (a configuration is a few hundred bytes).
    public static let maxFileBytes = 256 * 1024

    /// The configuration in the file at `path`. At most one byte more than the limit is read, and
    /// only from a regular file: a FIFO, a device (`/dev/zero`) or a folder is refused before any
    /// byte is read, on a reload as at start.
    public static func load(path: String) throws(ConfigurationError) -> ServiceConfiguration {
        let shown = DisplayText.quoted(path, maxBytes: 256)
        let bytes: [UInt8]
        switch Files.readBounded(path, limit: maxFileBytes) {
        case .success(let read): bytes = read
        case .failure(let problem): throw ConfigurationError(file: shown, line: nil, key: nil, "cannot read the configuration: \(problem.reason)\(hint(problem))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (offset, line) = firstInvalidUTF8(bytes)
            throw ConfigurationError(file: shown, line: line, key: nil, "not UTF-8 text: byte \(offset) is not valid UTF-8; save the file as UTF-8")
        }
        return try parse(text, source: shown)
    }

    /// What to do about a file that could not be read.
    private static func hint(_ problem: BoundedReadProblem) -> String {
        switch problem {
        case .missing: "; check the path (board presets are named with --board)"
        case .tooLarge: " (a configuration is a few hundred bytes: is this the right file?)"
        case .notRegular: "; give the path of a YAML file"
        case .notPermitted, .failed: ""
        }
    }

    /// The offset and line of the first byte that breaks UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        scanning: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput, .error: break scanning
            }
        }
        return (offset, bytes[..<offset].filter { $0 == 0x0A }.count + 1)
    }

    /// Reads a configuration; `outputsRequired` false lets a board alone through (for doctor).
    public static func parse(_ text: String, source: String, outputsRequired: Bool = true) throws(ConfigurationError) -> ServiceConfiguration {
        let (root, top) = try compose(text, source: source)
        let reader = Reader(source: source)
        try reader.allowOnly(["board", "hats", "outputs", "buttons", "appearance", "timings", "spi-clock", "socket-group", "persist", "focus", "state-directory", "supply-ma", "quiet-hours", "watch", "web", "notify"], in: top, context: nil)
        var appearance = Appearance.standard
        if let node = top["appearance"] { appearance = try reader.appearance(node) }
        var policy = LifecyclePolicy.standard
        if let node = top["timings"] { policy = try reader.timings(node) }
        let board = try top["board"].map { node throws(ConfigurationError) in try boardPreset(node, reader) }
        let spiClock = try top["spi-clock"].map { node throws(ConfigurationError) in try reader.spiClock(node) } ?? board?.spiClock ?? .exact

        var quietHours: QuietHours?
        if let node = top["quiet-hours"], case .own(let hours) = try reader.quietHours(node, "quiet-hours", base: nil) { quietHours = hours }

        let wiring = HeaderWiring(board: board)
        var outputs: [OutputConfiguration] = []
        var buttons: [ButtonConfiguration] = []
        var hats: [String] = []
        if let node = top["hats"] {
            guard let list = node.sequence else { throw reader.error(node, "hats", "must be a list of HAT presets, like [pimoroni-blinkt]") }
            for (index, item) in list.enumerated() {
                let hat = try HatPreset.read(try reader.string(item, "hats[\(index)]"), at: item, reader, wiring: wiring)
                hats.append(hat.title)
                outputs += hat.outputs
                buttons += hat.buttons
            }
        }
        if let node = top["outputs"] {
            guard let list = node.sequence else { throw reader.error(node, "outputs", "must be a list") }
            for (index, item) in list.enumerated() { outputs.append(try reader.output(item, index: index, wiring: wiring, quietHours: quietHours)) }
        }
        if outputsRequired, outputs.isEmpty {
            throw ConfigurationError(
                file: source, line: top["outputs"]?.line ?? root.line, key: "outputs",
                "nothing to drive: list outputs, or HATs (hats: [\(Presets.names(.hat).prefix(3).joined(separator: ", ")), …]); see docs/configuration.md")
        }
        var names: Set<String> = []
        for (index, output) in outputs.enumerated() where !names.insert(output.name).inserted {
            throw ConfigurationError(file: source, line: output.line, key: "outputs[\(index)].name", "\"\(output.name)\" is used twice; give every output its own name")
        }
        if let node = top["buttons"] {
            guard let list = node.sequence else { throw reader.error(node, "buttons", "must be a list") }
            for (index, item) in list.enumerated() { buttons.append(try reader.button(item, index: index, wiring: wiring)) }
        }
        try Resources.checkSharing(outputs: outputs, buttons: buttons, source: source)
        var configuration = ServiceConfiguration(
            board: board, hats: hats,
            outputs: outputs, buttons: buttons, appearance: appearance, policy: policy, spiClock: spiClock,
            socketGroup: try top["socket-group"].map { node throws(ConfigurationError) in try reader.string(node, "socket-group") },
            persist: try top["persist"].map { node throws(ConfigurationError) in try reader.bool(node, "persist") } ?? false,
            source: source)
        configuration.quietHours = quietHours
        if let node = top["supply-ma"] { configuration.supplyMilliamps = try reader.double(node, "supply-ma", 100...100_000) }
        if let node = top["focus"] { configuration.focus = try reader.choice(node, "focus", Focus.allCases.map { ($0.rawValue, $0) }) }
        if let node = top["watch"] { configuration.watchedUnits = try reader.watch(node) }
        if let node = top["web"] { configuration.web = try reader.web(node) }
        if let node = top["notify"] { configuration.notifications = try reader.notifications(node) }
        if let node = top["state-directory"] {
            let folder = try reader.string(node, "state-directory")
            guard folder.hasPrefix("/") else { throw reader.error(node, "state-directory", "must be an absolute path, like /var/lib/headway") }
            configuration.stateDirectory = folder
        }
        return configuration
    }

    /// The YAML document and its top mapping; repeated keys, alias bombs and syntax errors are
    /// refused with their line (YAMLComposer).
    static func compose(
        _ text: String, source: String, notAMapping: String = "the file must be a mapping with at least an outputs: list"
    ) throws(ConfigurationError) -> (root: YAMLNode, top: YAMLMapping) {
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch {
            throw ConfigurationError(file: source, line: error.line, key: nil, DisplayText.sanitised(error.message))
        }
        guard let root, let top = root.mapping else {
            throw ConfigurationError(file: source, line: root?.line, key: nil, notAMapping)
        }
        return (root, top)
    }

    /// `board:` names a board preset; the error lists them (an old free-text name lands here too).
    private static func boardPreset(_ node: YAMLNode, _ reader: Reader) throws(ConfigurationError) -> BoardPreset {
        let name = try reader.string(node, "board")
        guard Presets.names(.board).contains(name) else {
            throw reader.error(node, "board", "\"\(name)\" is not a board preset; the boards are \(Presets.names(.board).joined(separator: ", "))")
        }
        return try Presets.board(named: name)
    }
}
