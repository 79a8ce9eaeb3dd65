import ArgumentParser
import Foundation
import HeadwayService

/// `headwayd doctor`: in the daemon, not the `headway` client, because it checks what the daemon
/// will open (its configuration, its devices, as its user) and shares the daemon's configuration
/// reader; the client stays small and quick for hooks.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine against a configuration: every problem at once, each with its fix.",
        discussion: """
            Reads the board's model, config.txt, cmdline.txt, the kernel's page size and spidev's \
            bufsiz, and the device nodes the configuration names (there, and usable by this user: \
            run it as the daemon's user, e.g. sudo -u headway headwayd doctor). Writes nothing and \
            opens no device. Exit status 0 when nothing needs fixing, 1 otherwise.
            """
    )

    @Option(help: "A board preset to check against.")
    var board: String?

    @Option(help: ArgumentHelp("The configuration to check against (default: /etc/headway/config.yaml).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Check the machine whose files are under DIR (a mounted SD card, a test fixture).", valueName: "DIR"))
    var root: String = "/"

    @Flag(help: "Print the checks as JSON.")
    var json = false

    func validate() throws {
        if board != nil, config != nil { throw ValidationError("give --board or --config, not both") }
    }

    func run() throws {
        let configuration: ServiceConfiguration
        do {
            if let board { configuration = try BoardPresets.configuration(named: board) } else {
                configuration = try ConfigurationLoader.load(path: config ?? "/etc/headway/config.yaml")
            }
        } catch {
            throw StartupFailure("\(error)")
        }
        let report = DoctorReport(Doctor.check(configuration, on: MachineView(root: root)))
        print(json ? report.json : report.text)
        if report.failed { throw ExitCode.failure }
    }
}
