import HeadwayCore
import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `headway`: the small client hooks call. No Foundation, so it starts in a few milliseconds.
func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

func printError(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

let command: ClientCommand
do throws(ClientCommand.UsageError) {
    command = try ClientCommand.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
} catch {
    printError("headway: \(error.message)\n\n\(ClientCommand.usage)")
    exit(2)
}

let client = Client(command: command)
exit(client.run())
