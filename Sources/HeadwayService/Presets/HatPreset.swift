import Headway
import HeadwayYAML

/// A HAT or module (Boards/hats/): the outputs and buttons it puts on the header, written with
/// `bus: header` and `chip: header` so that the board (`wiring`) resolves them.
struct HatPreset {
    var title: String
    var outputs: [OutputConfiguration]
    var buttons: [ButtonConfiguration]

    /// The preset `name`, named at `node` of a configuration: its outputs and buttons carry that
    /// line, so that a clash with another HAT or output points into the user's file.
    static func read(_ name: String, at node: YAMLNode, _ configuration: Reader, wiring: HeaderWiring) throws(ConfigurationError) -> HatPreset {
        guard Presets.names(.hat).contains(name) else {
            throw configuration.error(node, "hats", "\"\(name)\" is not a HAT preset; the HATs are \(Presets.names(.hat).joined(separator: ", "))")
        }
        let source = "HAT preset \(name)"
        let (_, top) = try ConfigurationLoader.compose(try Presets.text(.hat, name), source: source)
        let reader = Reader(source: source)
        try reader.allowOnly(["hat", "outputs", "buttons"], in: top, context: nil)
        guard let titleNode = top["hat"] else { throw ConfigurationError(file: source, line: nil, key: "hat", "missing") }
        let line = node.line
        var hat = HatPreset(title: try reader.string(titleNode, "hat"), outputs: [], buttons: [])
        for (index, item) in (top["outputs"]?.sequence ?? []).enumerated() {
            var output = try reader.output(item, index: index, wiring: wiring)
            output.line = line
            output.hat = name
            hat.outputs.append(output)
        }
        for (index, item) in (top["buttons"]?.sequence ?? []).enumerated() {
            var button = try reader.button(item, index: index, wiring: wiring)
            button.fileLine = line
            button.hat = name
            hat.buttons.append(button)
        }
        return hat
    }
}
