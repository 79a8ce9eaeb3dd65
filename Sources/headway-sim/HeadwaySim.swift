import ArgumentParser
import HeadwayProtocol

@main
struct HeadwaySim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headway-sim",
        abstract: "Run Headway's styles and drivers on virtual devices in the terminal.",
        version: Version.current,
        subcommands: [Demo.self, Render.self, Replay.self, Serve.self]
    )
}
