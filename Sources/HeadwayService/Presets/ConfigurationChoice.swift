/// What a program was told to drive: `--config FILE`, or `--board NAME` with `--hat NAME`s. The
/// one place that turns those options into a configuration, for headwayd and headway-sim alike.
public struct ConfigurationChoice: Sendable {
    /// `--board`: the board preset's name.
    public var board: String?
    /// `--hat`: the HAT presets' names.
    public var hats: [String]
    /// `--config`: a configuration file.
    public var config: String?

    /// The choice the options made.
    public init(board: String?, hats: [String], config: String?) {
        self.board = board
        self.hats = hats
        self.config = config
    }

    /// Why the options do not make sense together, if they do not.
    public var problem: String? {
        if config != nil, board != nil || !hats.isEmpty { return "give --config FILE, or --board NAME with --hat NAME; not both" }
        if board == nil, !hats.isEmpty { return "--hat needs the board it sits on: add --board NAME (\(Presets.names(.board).joined(separator: ", ")))" }
        return nil
    }

    /// The configuration; `fallback` when no option was given. `boardAlone` lets a board without
    /// HATs through (doctor checks a board before anything is wired to it).
    public func load(fallback: () throws(ConfigurationError) -> ServiceConfiguration, boardAlone: Bool = false) throws(ConfigurationError) -> ServiceConfiguration {
        if let config { return try ConfigurationLoader.load(path: config) }
        guard let board else { return try fallback() }
        if hats.isEmpty, !boardAlone {
            throw ConfigurationError(
                file: "--board \(board)", line: nil, key: nil,
                "a board alone drives nothing: add what is wired to it with --hat NAME (\(Presets.names(.hat).joined(separator: ", "))), or give --config FILE")
        }
        return try Presets.configuration(board: board, hats: hats)
    }
}
