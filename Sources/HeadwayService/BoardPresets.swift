import Headway
import Foundation
import HeadwayProtocol

/// Board presets: the YAML files in `Boards/`, built into the programs (EmbeddedBoards.swift), so
/// that `--board NAME` works from any directory. The package also installs them under
/// /usr/share/headway/boards, to read and copy. `$HEADWAY_BOARDS`, a folder of presets, overrides
/// the built-in ones (for trying a preset of your own).
public enum BoardPresets {
    /// The preset `name` (e.g. `raspberry-pi-5`), read like a configuration file.
    public static func configuration(named name: String) throws(ConfigurationError) -> ServiceConfiguration {
        if let folder = SystemIO.environment("HEADWAY_BOARDS"), !folder.isEmpty {
            let path = folder + "/" + name + ".yaml"
            if FileManager.default.fileExists(atPath: path) { return try ConfigurationLoader.load(path: path) }
        }
        guard let text = embedded[name] else {
            throw ConfigurationError(
                file: "--board", line: nil, key: nil,
                "no board preset \"\(DisplayText.sanitised(name))\"; the presets are \(names.joined(separator: ", ")) (or set HEADWAY_BOARDS to a folder of your own)")
        }
        return try ConfigurationLoader.parse(text, source: "board preset \(name)")
    }

    /// Every preset's name (the built-in ones and those in `$HEADWAY_BOARDS`).
    public static var names: [String] {
        var names = Set(embedded.keys)
        if let folder = SystemIO.environment("HEADWAY_BOARDS"), let files = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            names.formUnion(files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) })
        }
        return names.sorted()
    }
}
