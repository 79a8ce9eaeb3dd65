import HeadwayCore
import HeadwayYAML

/// headway-ci's configuration file (`/etc/headway/ci.yaml`, docs/ci.md, docs/followers.md): the
/// sources to follow — CI servers, printers, homes — each with its own interval, label and token,
/// and settings every source shares.
///
/// ```yaml
/// interval: 15                 # seconds between looks while something runs (every source)
/// ca-file: /etc/headway/ci-ca.pem
/// sources:
///   - github: acme/widgets
///     workflow: ci.yml
///     branch: main
///     label: widgets
///     token-file: /etc/headway/github.token    # or credential: github-token (LoadCredential=)
///   - buildbot: http://127.0.0.1:8010/
///     builder: runtests
///   - octoprint: http://octopi.local
///     token-file: /etc/headway/octoprint.key
///   - moonraker: http://voron.local:7125
///   - homeassistant: http://homeassistant.local:8123
///     entities: [timer.tea, update.hall_light_firmware, sensor.washer_remaining_time=remaining]
///     token-file: /etc/headway/homeassistant.token
/// ```
public struct CIConfiguration: Sendable, Equatable {
    public var sources: [SourceSettings]
    public var caFile: String?

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int?
        public var message: String
        public var description: String { line.map { "line \($0): \(message)" } ?? message }
    }

    static let kinds = ["github", "gitlab", "jenkins", "cctray", "buildbot", "octoprint", "moonraker", "homeassistant"]
    static let sourceKeys = ["workflow", "branch", "api", "label", "interval", "idle-interval", "budget", "token-file", "credential", "projects", "builder", "entities"]
    public static let maxSources = 64

    public static func read(_ text: String) throws(Problem) -> CIConfiguration {
        let root: YAMLNode?
        do { root = try YAMLComposer.compose(text) } catch { throw Problem(line: error.line, message: error.message) }
        guard let root, let top = root.mapping else { throw Problem(line: root?.line, message: "the file must be a mapping with sources: (a list)") }
        try allow(["interval", "idle-interval", "budget", "ca-file", "token-file", "sources"], in: top, context: "at the top")
        var shared = SourceSettings(kind: .jenkins(job: ""))
        try readCommon(top, into: &shared)
        guard let list = top["sources"] else { throw Problem(line: root.line, message: "no sources: list the CI servers to follow (docs/ci.md)") }
        guard let items = list.sequence, !items.isEmpty else { throw Problem(line: list.line, message: "sources: must be a list of one or more sources") }
        guard items.count <= maxSources else { throw Problem(line: list.line, message: "more than \(maxSources) sources") }
        var sources: [SourceSettings] = []
        for item in items {
            guard let map = item.mapping else { throw Problem(line: item.line, message: "each source is a mapping, like - github: acme/widgets") }
            try allow(kinds + sourceKeys, in: map, context: "in a source")
            let named = kinds.filter { map[$0] != nil }
            guard named.count == 1, let kind = named.first else {
                throw Problem(line: item.line, message: "name one kind of source: \(kinds.joined(separator: ", ")) (like - github: acme/widgets)")
            }
            let value = try string(map[kind]!, kind)
            var settings = shared
            switch kind {
            case "github": settings.kind = .github(repository: value, workflow: try optional(map["workflow"], "workflow"), branch: try optional(map["branch"], "branch"))
            case "gitlab": settings.kind = .gitlab(project: value, branch: try optional(map["branch"], "branch"))
            case "jenkins": settings.kind = .jenkins(job: value)
            case "cctray":
                var projects: [String] = []
                if let node = map["projects"] {
                    guard let list = node.sequence else { throw Problem(line: node.line, message: "projects: must be a list of project names") }
                    for node in list { projects.append(try string(node, "projects")) }
                }
                settings.kind = .cctray(url: value, projects: projects)
            case "octoprint": settings.kind = .octoprint(url: try url(map[kind]!, kind))
            case "moonraker": settings.kind = .moonraker(url: try url(map[kind]!, kind))
            case "homeassistant":
                guard let node = map["entities"] else { throw Problem(line: item.line, message: "a homeassistant source needs entities: (a list, like [timer.tea, sensor.washer_remaining_time=remaining])") }
                guard let list = node.sequence, !list.isEmpty else { throw Problem(line: node.line, message: "entities: must be a list of entity ids") }
                var entities: [HomeEntity] = []
                for node in list {
                    let text = try string(node, "entities")
                    do throws(SourceError) { entities.append(try HomeEntity(parsing: text)) } catch { throw Problem(line: node.line, message: error.description) }
                }
                settings.kind = .homeassistant(url: value, entities: entities)
            default:
                guard let builder = map["builder"] else { throw Problem(line: item.line, message: "a buildbot source needs builder: NAME") }
                settings.kind = .buildbot(url: value, builder: try string(builder, "builder"))
            }
            if let node = map["entities"], kind != "homeassistant" { throw Problem(line: node.line, message: "entities: is for homeassistant sources") }
            for key in ["workflow", "branch"] where map[key] != nil && kind != "github" && !(kind == "gitlab" && key == "branch") {
                throw Problem(line: map[key]!.line, message: "\(key): is for github sources\(key == "branch" ? " and gitlab ones" : "")")
            }
            if let node = map["api"] {
                guard kind == "github" || kind == "gitlab" else { throw Problem(line: node.line, message: "api: is for github and gitlab sources; the others are named by their address") }
                settings.api = try url(node, "api")
            }
            if let node = map["label"] { settings.label = DisplayText.sanitised(try string(node, "label")) }
            if let node = map["credential"] { settings.credential = try string(node, "credential") }
            try readCommon(map, into: &settings)
            do { _ = try settings.makeSource() } catch { throw Problem(line: item.line, message: error.description) }
            sources.append(settings)
        }
        return CIConfiguration(sources: sources, caFile: try optional(top["ca-file"], "ca-file"))
    }

    private static func readCommon(_ map: YAMLMapping, into settings: inout SourceSettings) throws(Problem) {
        if let node = map["interval"] { settings.interval = try seconds(node, "interval", 1...3600) }
        if let node = map["idle-interval"] { settings.idleInterval = try seconds(node, "idle-interval", 1...86_400) }
        if let node = map["budget"] { settings.budget = try seconds(node, "budget", 1...100_000) }
        if let node = map["token-file"] { settings.tokenFile = try string(node, "token-file") }
    }

    private static func allow(_ keys: [String], in map: YAMLMapping, context: String) throws(Problem) {
        for key in map.keys where !keys.contains(key.string ?? "") {
            throw Problem(line: key.line, message: "\"\(DisplayText.sanitised(String((key.string ?? "?").prefix(40))))\" is not a setting \(context); known: \(keys.joined(separator: ", "))")
        }
    }

    private static func string(_ node: YAMLNode, _ key: String) throws(Problem) -> String {
        guard let text = node.string, !text.isEmpty else { throw Problem(line: node.line, message: "\(key): must be a text") }
        guard text.utf8.count <= 1024 else { throw Problem(line: node.line, message: "\(key): is longer than 1024 bytes") }
        return text
    }

    private static func optional(_ node: YAMLNode?, _ key: String) throws(Problem) -> String? {
        guard let node else { return nil }
        return try string(node, key)
    }

    private static func url(_ node: YAMLNode, _ key: String) throws(Problem) -> String {
        let value = try string(node, key)
        guard value.hasPrefix("https://") || value.hasPrefix("http://") else { throw Problem(line: node.line, message: "\(key): must start with https:// (or http:// on a private network)") }
        return value
    }

    private static func seconds(_ node: YAMLNode, _ key: String, _ range: ClosedRange<Double>) throws(Problem) -> Double {
        guard let text = node.string, let value = Double(text), range.contains(value) else {
            throw Problem(line: node.line, message: "\(key): must be a number from \(NumberText.compact(range.lowerBound)) to \(NumberText.compact(range.upperBound))")
        }
        return value
    }
}
