import ArgumentParser
import Headway
import HeadwayLinux
import HeadwayProtocol
import HeadwayService
import HeadwaySystem

/// `headwayd`: run by its own executable and by the multi-call `headway-suite`.
public struct Headwayd: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "headwayd",
        abstract: "Show job progress on LED strips, rings, GPIO LEDs and OLEDs of this board.",
        discussion: "SOCKET: \(SocketPath.rule)",
        version: Version.current,
        subcommands: [Serve.self, DoctorCommand.self, HashPasswordCommand.self],
        defaultSubcommand: Serve.self
    )

    public init() {}
}

/// `headwayd [serve]`: the daemon.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show job progress on LED strips, rings, GPIO LEDs and OLEDs of this board (the default).",
        discussion: """
            Without --config or --board it reads /etc/headway/config.yaml, as doctor does. \
            Clients (the headway command) talk to it over a Unix socket (protocol.md). Under \
            systemd it reports readiness and reloads (Type=notify-reload), keeps the watchdog \
            fed, logs with journal priorities, and takes its socket from socket activation when \
            LISTEN_FDS is set. SIGHUP (systemctl reload headway) reloads the configuration, keeping \
            every job (a configuration that fails to load is reported and the old one stays); \
            SIGTERM clears the outputs (or leaves them, with persist) and releases every line. \
            Durations of past runs are kept in the state folder (systemd's StateDirectory=, \
            /var/lib/headway, or state-directory: in the configuration), and so are the jobs it \
            holds: a restart (an upgrade, a crash) takes them back. The documents named here \
            (docs/NAME.md) are installed as /usr/share/doc/headway/NAME.md.gz.

            SOCKET: \(SocketPath.rule)
            """
    )

    @Option(help: "A board preset (\(Presets.names(.board).joined(separator: ", "))), with --hat.")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable): \(Presets.names(.hat).joined(separator: ", ")).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("A configuration file (YAML; see docs/configuration.md). Default: /etc/headway/config.yaml, as for doctor.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The socket to listen on (default: as SOCKET below says).", valueName: "PATH"))
    var socket: String?

    @Option(help: "The group that may use the socket (mode 0660); overrides the configuration's socket-group.")
    var group: String?

    @Flag(help: "Leave the outputs showing the last state on exit instead of clearing them.")
    var persist = false

    @Flag(help: "Load the configuration, open every device, report, and exit.")
    var check = false

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
    }

    func run() throws {
        let path = socket ?? SocketPath.forService()
        let settings = ServiceHost.Settings(
            name: "headwayd", socketPath: path, socketGroup: group, persist: persist,
            stateDirectory: StateDirectory.standard(for: "headway"))
        let host = ServiceHost(
            settings: settings, logger: .standardError(label: "headwayd"),
            load: { [choice] () throws(ConfigurationError) in
                try choice.load(fallback: { () throws(ConfigurationError) in try ConfigurationLoader.load(path: "/etc/headway/config.yaml") })
            },
            open: { configuration throws(ConfigurationError) in
                try OutputBuilder.devices(for: configuration, buses: LinuxBuses())
            })
        if check {
            print(try host.check())
            return
        }
        // Run by hand as root, headwayd makes the system's socket folder that systemd would.
        if path == SocketPath.system, Processes.userID == 0 { try? Folders.make("/run/headway", mode: 0o755) }
        try host.run()
    }
}
