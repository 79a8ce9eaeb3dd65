import HeadwayProtocol

/// `headway`: the small client hooks call. No Foundation, so it starts in a few milliseconds.
func printError(_ text: String) { SystemIO.printError(text + "\n") }

let command: ClientCommand
do throws(ClientCommand.UsageError) {
    command = try ClientCommand.parse(Array(CommandLine.arguments.dropFirst()), environment: SystemIO.environment)
} catch {
    printError("headway: \(error.message)\n\n\(ClientCommand.usage)")
    Platform.exit(2)
}

Platform.exit(Client(command: command).run())
