/// The tools whose progress Headway reads, by the names `--format` takes and the programs that
/// start them.
public enum ToolCatalogue {
    /// One format: its name and the programs it reads.
    public struct Kind: Sendable {
        /// The name `--format` takes.
        public let name: String
        /// The programs it is chosen for by name.
        public let programs: [String]
        let make: @Sendable (ToolContext) -> any ToolFormat
    }

    /// `--format NAME` names no known format.
    public struct UnknownFormat: Error, Sendable {
        /// The name given, and the formats there are.
        public let message: String
    }

    /// Every format, by its name.
    public static let kinds: [Kind] = [
        Kind(name: "restic", programs: ["restic"]) { ResticFormat($0) },
        Kind(name: "borg", programs: ["borg", "borg1", "borgbackup"]) { BorgFormat($0, borgmatic: false) },
        Kind(name: "borgmatic", programs: ["borgmatic"]) { BorgFormat($0, borgmatic: true) },
        Kind(name: "rsync", programs: ["rsync"]) { RsyncFormat($0) },
        Kind(name: "rclone", programs: ["rclone"]) { RcloneFormat($0) },
        Kind(name: "ffmpeg", programs: ["ffmpeg"]) { FFmpegFormat($0) },
        Kind(name: "apt", programs: ["apt-get", "apt"]) { AptFormat($0) },
        Kind(name: "curl", programs: ["curl"]) { CurlFormat($0) },
        Kind(name: "wget", programs: ["wget"]) { WgetFormat($0) },
        Kind(name: "dd", programs: ["dd"]) { DDFormat($0) },
        Kind(name: "pv", programs: ["pv"]) { PVFormat($0) },
        Kind(name: "cargo", programs: ["cargo"]) { CargoFormat($0) },
    ]

    /// The names `--format` takes.
    public static var names: [String] { kinds.map(\.name) + ["lines"] }

    /// The kind `name` names (nil for `lines`, the generic reader), or without a name the kind of
    /// the command's program (nil when no format knows it).
    static func kind(named name: String?, for arguments: [String]) throws(UnknownFormat) -> Kind? {
        if let name {
            if name == "lines" { return nil }
            guard let kind = kinds.first(where: { $0.name == name }) else {
                throw UnknownFormat(message: "--format \"\(name)\" is not one of \(names.joined(separator: ", "))")
            }
            return kind
        }
        guard let index = ToolArguments.toolIndex(arguments) else { return nil }
        let program = ToolArguments.programName(arguments[index])
        return kinds.first { $0.programs.contains(String(program)) }
    }

    /// Where `kind`'s program is on the command line: where the command starts when that is it,
    /// else its first appearance (`--format` for a tool started by a script or a wrapper).
    static func toolIndex(of kind: Kind, in arguments: [String]) -> Int? {
        if let index = ToolArguments.toolIndex(arguments), kind.programs.contains(String(ToolArguments.programName(arguments[index]))) { return index }
        return arguments.firstIndex { kind.programs.contains(String(ToolArguments.programName($0))) }
    }
}
