import ArgumentParser
import HeadwayProtocol

/// `headway-sim`: run by its own executable and by the multi-call `headway-suite`.
public struct HeadwaySim: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "headway-sim",
        abstract: "Run Headway's styles and drivers on virtual devices in the terminal.",
        discussion: "SOCKET (serve): \(SocketPath.rule)",
        version: Version.current,
        subcommands: [Demo.self, Render.self, Replay.self, Serve.self]
    )

    public init() {}
}
