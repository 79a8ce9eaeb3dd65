import Headway
import HeadwayProtocol
import HeadwaySystem

/// The presets in `Boards/`: boards (`boards/`, what a board is), HATs and modules (`hats/`, what
/// is wired to it) and the simulator's rig (`simulator.yaml`, a whole configuration). They are
/// built into the programs (EmbeddedPresets.swift), so `--board NAME --hat NAME` works from any
/// directory; the package also installs them under /usr/share/headway/boards, to read and copy.
/// `$HEADWAY_BOARDS`, a folder laid out like `Boards/`, overrides the built-in ones.
public enum Presets {
    /// Which presets: boards or HATs.
    public enum Kind: String, Sendable {
        /// Boards (`Boards/boards/`).
        case board = "boards"
        /// HATs and modules (`Boards/hats/`).
        case hat = "hats"
    }

    /// The board preset `name` (e.g. `raspberry-pi-5`).
    public static func board(named name: String) throws(ConfigurationError) -> BoardPreset {
        try BoardPreset.parse(try text(.board, name), name: name)
    }

    /// A configuration of a board and the HATs on it, as `--board NAME --hat NAME…` gives it.
    /// Without HATs it has no outputs (what `headwayd doctor --board NAME` checks).
    public static func configuration(board: String, hats: [String]) throws(ConfigurationError) -> ServiceConfiguration {
        let source = (["--board \(board)"] + hats.map { "--hat \($0)" }).joined(separator: " ")
        for name in [board] + hats where DisplayText.sanitised(name) != name || name.contains(where: { ",[]{}\"'#:".contains($0) }) {
            throw ConfigurationError(file: source, line: nil, key: nil, "\"\(DisplayText.sanitised(name))\" is not a preset name")
        }
        let yaml = "board: \(board)\n" + (hats.isEmpty ? "" : "hats: [\(hats.joined(separator: ", "))]\n")
        do {
            return try ConfigurationLoader.parse(yaml, source: source, outputsRequired: !hats.isEmpty)
        } catch {
            // Lines of the two-line text made from the options would mean nothing to anyone.
            throw ConfigurationError(file: source, line: nil, key: error.key, error.message)
        }
    }

    /// The simulator's rig (`headway-sim serve` and `demo` without a configuration).
    public static func simulatorRig() throws(ConfigurationError) -> ServiceConfiguration {
        try ConfigurationLoader.parse(try text(nil, "simulator"), source: "the simulator's rig")
    }

    /// Every preset's name of one kind (the built-in ones and those in `$HEADWAY_BOARDS`).
    public static func names(_ kind: Kind) -> [String] {
        let prefix = kind.rawValue + "/"
        var names = Set(embedded.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        if let folder = overrides, let files = Folders.entries(folder + "/" + kind.rawValue) {
            names.formUnion(files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) })
        }
        return names.sorted()
    }

    /// The text of a preset file (`kind` nil: a file at the top of `Boards/`).
    static func text(_ kind: Kind?, _ name: String) throws(ConfigurationError) -> String {
        let key = kind.map { "\($0.rawValue)/\(name)" } ?? name
        if let folder = overrides {
            let path = folder + "/" + key + ".yaml"
            if let bytes = Files.read(path), let text = String(validating: bytes, as: UTF8.self) {
                return text
            }
        }
        guard let text = embedded[key] else {
            let what = kind == .hat ? "HAT" : "board"
            let known = kind.map { names($0) } ?? []
            throw ConfigurationError(
                file: kind == .hat ? "--hat" : "--board", line: nil, key: nil,
                "no \(what) preset \"\(DisplayText.sanitised(name))\"; the \(what)s are \(known.joined(separator: ", ")) (or set HEADWAY_BOARDS to a folder of your own)")
        }
        return text
    }

    private static var overrides: String? {
        guard let folder = SystemIO.environment("HEADWAY_BOARDS"), !folder.isEmpty else { return nil }
        return folder
    }
}
