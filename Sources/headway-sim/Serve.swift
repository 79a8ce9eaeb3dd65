import ArgumentParser
import Headway
import HeadwayProtocol
import HeadwayService
import HeadwaySimulator
import HeadwaySystem
import Synchronization

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Headway service on virtual devices, for the headway client to drive.",
        discussion: """
            The same service and host loop as headwayd: jobs, layout, frame scheduling, reload and \
            the socket protocol (docs/protocol.md), with every device a real driver talking to a \
            virtual chip. In a terminal it draws the devices live; with --headless it only logs. \
            SIGHUP (`kill -HUP PID`) reloads the configuration, keeping every job; in a terminal, \
            once the terminal itself is gone (its window closed), the hangup stops it instead. \
            Three operations of its own: {"v":1,"op":"press","long":false} presses the rig's virtual \
            button, {"v":1,"op":"snapshot","folder":"DIR"} writes what its devices show into DIR, \
            {"v":1,"op":"glass"} says when each output's last frame was drawn (monotonic seconds) and \
            the value of each job in it.

            SOCKET: \(SocketPath.rule)
            """
    )

    @Option(help: "A board preset (\(Presets.names(.board).joined(separator: ", "))), with --hat; without either, the simulator's rig.")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable): \(Presets.names(.hat).joined(separator: ", ")).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("A configuration file instead of presets.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The socket to listen on (default: as SOCKET below says).", valueName: "PATH"))
    var socket: String?

    @Flag(help: "Draw nothing; log to stderr.")
    var headless = false

    @Option(help: ArgumentHelp("Serve the web page on ADDRESS (127.0.0.1:8080; port 0 for any free one), over the configuration's web:. Open to this machine only.", valueName: "ADDRESS"))
    var web: String?

    @Option(help: ArgumentHelp("With --web: write the page's port to FILE once it listens (for scripts that asked for port 0).", valueName: "FILE"))
    var webPortFile: String?

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
        if let web {
            guard let (address, _) = WebSettings.parseListen(web) else { throw ValidationError("--web \(web): give an address and port, like 127.0.0.1:8080") }
            guard WebSettings.isLoopback(address) else {
                throw ValidationError("--web \(web): --web listens on this machine only (127.0.0.1 or [::1]); for the network set web: with a password in the configuration")
            }
        }
    }

    func run() throws {
        let path: String
        if let socket {
            path = socket
        } else {
            do throws(SocketPath.Problem) { path = try SocketPath.forSimulator() } catch { throw StartupFailure(error.description) }
        }
        let clock = MonotonicClock()
        var rig = SimulatorRig(buses: SimulatedBuses(clock: clock))
        // In a terminal, a SIGHUP once the terminal is gone means it closed: stop rather than linger.
        let interactive = LiveTerminal.isTerminal(0) || LiveTerminal.isTerminal(1)
        var settings = ServiceHost.Settings(
            name: "headway-sim", socketPath: path, stateDirectory: StateDirectory.standard(for: "headway-sim"), runsInTerminal: interactive)
        if let web, let (address, port) = WebSettings.parseListen(web) {
            var page = WebSettings(address: address, port: port)
            page.source = "--web"
            settings.web = page
        }
        let tail = LogTail(clock: clock)
        let host = ServiceHost(
            settings: settings, clock: clock, logger: tail.logger(label: "headway-sim"),
            load: { [choice] () throws(ConfigurationError) in try choice.load(fallback: Presets.simulatorRig) },
            open: { configuration throws(ConfigurationError) in
                let (built, devices) = try SimulatedRigBuilder.devices(configuration, buses: SimulatedBuses(clock: clock))
                rig = built
                return devices
            })
        // The page's address stays on the screen: the line logged as it started is gone once
        // the first frame is drawn.
        let page = Mutex<String?>(nil)
        host.onWebListening = { [webPortFile] port, url in
            page.withLock { $0 = "web page: \(url)" }
            if let webPortFile { try? Files.write(webPortFile, Array("\(port)\n".utf8)) }
        }
        host.makeHandler = { core in
            core.frameRecorder = FrameRecorder()
            return SimulatorOperations(core: core, rig: { rig })
        }
        let screen = headless ? nil : LiveTerminal.liveColour().map { RigScreen(colour: $0) }
        if let screen {
            var textLines = TextLineThrottle()
            // Every tick gives the screen the devices as they are; it draws at most 30 frames a
            // second and always draws the last one (the job finished, the LEDs dark).
            host.afterTick = { core in
                let jobs = core.registry.all(at: clock.now, limit: 4).jobs.map { ($0.id, $0.snapshot) }
                let lines = jobs.map { id, snapshot in
                    "\(id): \(snapshot.phase.name)\(snapshot.percentText.map { " \($0)" } ?? "")\(snapshot.label.map { " · \($0)" } ?? "")"
                }
                let status = (lines.isEmpty ? ["idle: no jobs"] : lines) + [core.quietNote?.summary, page.withLock { $0 }, tail.statusLine].compactMap { $0 }
                let phases = jobs.map { "\($0.0) \($0.1.phase.name)" }.joined(separator: ",")
                let textLine = textLines.due(status.joined(separator: " | "), key: phases, tick: Int(clock.now))
                screen.show(rig, title: "Headway simulator · serve · \(path)", status: status, textLine: textLine)
                tail.goLive()
            }
        }
        host.wakeAt = { tail.expiry }
        defer { screen?.finish() }
        try host.run()
    }
}
