import Foundation

/// Board presets: the YAML files in `Boards/`, found by name.
public enum BoardPresets {
    /// Folders searched, in order: `$HEADWAY_BOARDS`, a `Boards` folder next to or above the
    /// executable (a build tree), and the installed `/usr/share/headway/boards`.
    public static func folders() -> [String] {
        var folders: [String] = []
        if let custom = ProcessInfo.processInfo.environment["HEADWAY_BOARDS"] { folders.append(custom) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            folders.append(directory.appendingPathComponent("Boards").path)
            directory.deleteLastPathComponent()
        }
        folders.append("/usr/share/headway/boards")
        return folders
    }

    /// The preset file for `name` (e.g. `raspberry-pi-5`).
    public static func path(named name: String) throws(ConfigurationError) -> String {
        for folder in folders() {
            let path = folder + "/" + name + ".yaml"
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let known = Set(folders().flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) })
        throw ConfigurationError(file: "--board", line: nil, key: nil, "no board preset \"\(name)\"; known: \(known.sorted().joined(separator: ", ")) (set HEADWAY_BOARDS to a folder of presets)")
    }
}
