// headwayd, headway-sim, headway-mqtt and headway-ci in one executable, as the package installs them: one copy
// of the Swift runtime and the libraries they share instead of four (docs/performance.md). The
// name it is started by picks the program (/usr/bin/headway-sim is a link to it); under any other
// name the first argument does (`headway-suite headway-sim demo`).
import ArgumentParser
import HeadwayCIProgram
import HeadwayMQTTProgram
import HeadwaySimProgram
import HeadwaydProgram

struct HeadwaySuite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headway-suite",
        abstract: "headwayd, headway-sim, headway-mqtt and headway-ci in one program: run it by one of those names, or name one first.",
        subcommands: [Headwayd.self, HeadwaySim.self, HeadwayMQTTCommand.self, HeadwayCICommand.self]
    )
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLine.arguments.first?.split(separator: "/").last {
case "headwayd": Headwayd.main(arguments)
case "headway-sim": HeadwaySim.main(arguments)
case "headway-mqtt": HeadwayMQTTCommand.main(arguments)
case "headway-ci": HeadwayCICommand.main(arguments)
default: HeadwaySuite.main(arguments)
}
