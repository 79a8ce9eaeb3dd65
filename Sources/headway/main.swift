import HeadwayProtocol
import HeadwaySystem

/// `headway`: the small client hooks call. No Foundation, so it starts in a few milliseconds.
func printError(_ text: String) { SystemIO.printError(text + "\n") }

let command: ClientCommand
do throws(ClientCommand.UsageError) {
    command = try ClientCommand.parse(Array(CommandLine.arguments.dropFirst()), environment: SystemIO.environment)
} catch {
    // A hook passes a runner's values along: a wrong one must not fail the job (unless --strict).
    let strict = CommandLine.arguments.contains("--strict")
    printError("headway: \(error.soft && !strict ? "warning: " : "")\(error.message)\n\(ClientCommand.hint(for: error.command))")
    Processes.exit(error.soft && !strict ? 0 : 2)
}

Processes.exit(Client(command: command).run())
