import ArgumentParser
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
            bufsiz, and the device nodes the configuration names: there, and usable by the \
            daemon's user (User= and SupplementaryGroups= of the installed headway.service; \
            --user NAME for another; this user when there is no service). On the running machine \
            it also finds the GPIO chip by label and asks who holds each configured line, and \
            asks each display's I2C address (and 0x3C/0x3D) whether something answers, the way \
            i2cdetect does; it requests no line and writes nothing to any device. Exit status 0 \
            when nothing needs fixing, 1 otherwise.
            """
    )

    @Option(help: "A board preset to check against (\(Presets.names(.board).joined(separator: ", "))).")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable): \(Presets.names(.hat).joined(separator: ", ")).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("The configuration to check against (default: /etc/headway/config.yaml, under --root).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Check the machine whose files are under DIR (a mounted SD card, a test fixture).", valueName: "DIR"))
    var root: String = "/"

    @Option(help: ArgumentHelp("Check device access as this user, with its groups (default: headway.service's user).", valueName: "NAME"))
    var user: String?

    @Flag(help: "Print the checks as JSON.")
    var json = false

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let configuration: ServiceConfiguration
        do {
            let installed = MachineView(root: root).location("/etc/headway/config.yaml")
            configuration = try choice.load(fallback: { () throws(ConfigurationError) in try ConfigurationLoader.load(path: installed) }, boardAlone: true)
        } catch {
            throw StartupFailure("\(error)")
        }
        let machine = MachineView(root: root)
        var account = machine.serviceAccount
        if let user {
            guard let named = machine.account(named: user, origin: "--user") else { throw StartupFailure("--user \(user): no such user in \(machine.location("/etc/passwd"))") }
            account = named
        }
        let probe: (any DoctorProbe)? = machine.root == "/" ? LinuxDoctorProbe() : nil
        let report = DoctorReport(Doctor.check(configuration, on: machine, probe: probe, as: account))
        print(json ? report.json : report.text)
        if report.failed { throw ExitCode.failure }
    }
}
