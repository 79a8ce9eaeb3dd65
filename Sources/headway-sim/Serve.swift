import ArgumentParser
import Foundation
import Headway
import HeadwayProtocol
import HeadwayService
import HeadwaySimulator

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Headway service on virtual devices, for the headway client to drive.",
        discussion: """
            The same service core as headwayd: jobs, layout, frame scheduling and the socket \
            protocol (docs/protocol.md), with every device a real driver talking to a virtual chip. \
            In a terminal it draws the devices live; with --headless it only logs. A \
            {"v":1,"op":"press","long":false} request presses the rig's virtual button.
            """
    )

    @Option(help: "A board preset from Boards/ (default: simulator).")
    var board: String?

    @Option(help: ArgumentHelp("A configuration file instead of a preset.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The socket to listen on (default: $HEADWAY_SOCKET, else $XDG_RUNTIME_DIR/headway.sock).", valueName: "PATH"))
    var socket: String?

    @Flag(help: "Draw nothing; log to stderr.")
    var headless = false

    func validate() throws {
        if board != nil, config != nil { throw ValidationError("give --board or --config, not both") }
    }

    func run() throws {
        let path = socket ?? SocketPath.forServer()
        let clock = MonotonicClock()
        var listener: Int32?
        while true {
            let configuration = try load()
            let factory = SimulatorDeviceFactory(clock: clock)
            let outputs: [ServiceOutput]
            let buttons: [ButtonMonitor]
            do throws(ConfigurationError) {
                (outputs, buttons) = try OutputBuilder.devices(for: configuration, factory: factory)
            } catch {
                throw StartupFailure(error.description)
            }
            let rig = factory.rig
            let press: (Bool) -> Void = { long in
                if let (chip, line) = rig.button { chip.press(line, at: clock.now + 0.01, for: long ? 2.0 : 0.3) }
            }
            let hooks = ServiceCore.SimulatorHooks(press: press) { folder in
                do {
                    try SnapshotWriter(directory: folder).write(rig)
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            let core = ServiceCore(outputs: outputs, buttons: buttons, policy: configuration.policy, appearance: configuration.appearance, clock: clock, simulator: hooks)
            if listener == nil {
                do {
                    listener = try UnixSocket.activated() ?? UnixSocket.listen(path: path, group: configuration.socketGroup)
                } catch {
                    throw StartupFailure("\(error)")
                }
            }
            let server = ServiceServer(core: core, listener: listener!) { FileHandle.standardError.write(Data(("headway-sim: " + $0 + "\n").utf8)) }
            let live = !headless && LiveTerminal.canDrawLive()
            let terminal = LiveTerminal()
            var lastDraw = -Double.infinity
            if live {
                server.afterTick = {
                    guard clock.now - lastDraw >= 1.0 / 30 else { return }
                    lastDraw = clock.now
                    let jobs = core.registry.status(at: clock.now).map { job in
                        "\(job.job): \(job.phase)\(job.percent.map { " \($0)%" } ?? "")\(job.label.map { " · \($0)" } ?? "")"
                    }
                    let title = "Headway simulator · serve · \(path)"
                    terminal.draw(RigPainter().paint(rig, title: title, status: jobs.isEmpty ? ["idle: no jobs"] : Array(jobs.prefix(4))).lines(colour: true))
                }
            }
            FileHandle.standardError.write(Data("headway-sim: serving \(configuration.board ?? configuration.source) on \(path)\n".utf8))
            let reason = server.run()
            server.disconnectClients()
            if live { terminal.finish() }
            if reason == .terminate {
                close(listener!)
                unlink(path)
                return
            }
            FileHandle.standardError.write(Data("headway-sim: reloading the configuration\n".utf8))
        }
    }

    private func load() throws -> ServiceConfiguration {
        do {
            let file = try config ?? BoardPresets.path(named: board ?? "simulator")
            return try ConfigurationLoader.load(path: file)
        } catch let error as ConfigurationError {
            throw StartupFailure(error.description)
        }
    }
}
