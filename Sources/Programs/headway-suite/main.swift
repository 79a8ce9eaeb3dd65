// headwayd, headway-sim and headway-mqtt in one executable, as the package installs them: one copy
// of the Swift runtime and the libraries they share instead of three (docs/performance.md). The
// name it is started by picks the program (/usr/bin/headway-sim is a link to it); under any other
// name the first argument does (`headway-suite headway-sim demo`).
import ArgumentParser
import HeadwayMQTTProgram
import HeadwaySimProgram
import HeadwaydProgram

struct HeadwaySuite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headway-suite",
        abstract: "headwayd, headway-sim and headway-mqtt in one program: run it by one of those names, or name one first.",
        subcommands: [Headwayd.self, HeadwaySim.self, HeadwayMQTTCommand.self]
    )
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLine.arguments.first?.split(separator: "/").last {
case "headwayd": Headwayd.main(arguments)
case "headway-sim": HeadwaySim.main(arguments)
case "headway-mqtt": HeadwayMQTTCommand.main(arguments)
default: HeadwaySuite.main(arguments)
}
