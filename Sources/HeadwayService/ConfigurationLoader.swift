import Foundation
import Headway
import Yams

/// Reads a configuration file (YAML) into a ``ServiceConfiguration``. Every mistake is reported
/// with the file, the line and the key, and unknown keys are mistakes too (a misspelt key must not
/// be silently ignored).
public enum ConfigurationLoader {
    public static func load(path: String) throws(ConfigurationError) -> ServiceConfiguration {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(file: path, line: nil, key: nil, "cannot read the file (does it exist, and may this user read it?)")
        }
        return try parse(text, source: path)
    }

    public static func parse(_ text: String, source: String) throws(ConfigurationError) -> ServiceConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigurationError(file: source, line: Self.line(of: error), key: nil, "not valid YAML: \(Self.problem(of: error))")
        } catch {
            throw ConfigurationError(file: source, line: nil, key: nil, "not valid YAML: \(error)")
        }
        guard let root, let top = root.mapping else {
            throw ConfigurationError(file: source, line: root?.mark?.line, key: nil, "the file must be a mapping with at least an outputs: list")
        }
        let reader = Reader(source: source)
        try reader.allowOnly(["board", "outputs", "buttons", "appearance", "timings", "spi-clock", "socket-group", "persist"], in: top, context: nil)
        var appearance = Appearance.standard
        if let node = top["appearance"] { appearance = try reader.appearance(node) }
        var policy = LifecyclePolicy.standard
        if let node = top["timings"] { policy = try reader.timings(node) }
        let spiClock = try top["spi-clock"].map { node throws(ConfigurationError) in try reader.spiClock(node) } ?? .exact
        guard let outputsNode = top["outputs"], let list = outputsNode.sequence, !list.isEmpty else {
            throw ConfigurationError(file: source, line: top["outputs"]?.mark?.line ?? root.mark?.line, key: "outputs", "a list of at least one output is needed (see docs/configuration.md)")
        }
        var outputs: [OutputConfiguration] = []
        for (index, node) in list.enumerated() {
            let output = try reader.output(node, index: index)
            if outputs.contains(where: { $0.name == output.name }) {
                throw ConfigurationError(file: source, line: output.line, key: "outputs[\(index)].name", "\"\(output.name)\" is used twice; give every output its own name")
            }
            outputs.append(output)
        }
        var buttons: [ButtonConfiguration] = []
        if let node = top["buttons"] {
            guard let list = node.sequence else { throw reader.error(node, "buttons", "must be a list") }
            for (index, item) in list.enumerated() { buttons.append(try reader.button(item, index: index)) }
        }
        return ServiceConfiguration(
            board: try top["board"].map { node throws(ConfigurationError) in try reader.string(node, "board") },
            outputs: outputs, buttons: buttons, appearance: appearance, policy: policy, spiClock: spiClock,
            socketGroup: try top["socket-group"].map { node throws(ConfigurationError) in try reader.string(node, "socket-group") },
            persist: try top["persist"].map { node throws(ConfigurationError) in try reader.bool(node, "persist") } ?? false,
            source: source)
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return nil
        }
    }

    static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): return problem
        default: return "\(error)"
        }
    }
}
