import ArgumentParser
import Foundation
import Headway
import HeadwayLinux
import HeadwayProtocol
import HeadwayService

@main
struct Headwayd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headwayd",
        abstract: "Show job progress on LED strips, rings, GPIO LEDs and OLEDs of this board.",
        discussion: """
            Clients (the headway command) talk to it over a Unix socket (docs/protocol.md). Under \
            systemd it reports readiness (Type=notify), keeps the watchdog fed, and takes its socket \
            from socket activation when LISTEN_FDS is set. SIGHUP reloads the configuration; SIGTERM \
            clears the outputs (or leaves them, with persist) and releases every line.
            """
    )

    @Option(help: "A board preset from Boards/ (raspberry-pi-4, raspberry-pi-5, …).")
    var board: String?

    @Option(help: ArgumentHelp("A configuration file (YAML; see docs/configuration.md).", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("The socket to listen on (default: $HEADWAY_SOCKET, /run/headway/headway.sock as root, else $XDG_RUNTIME_DIR/headway.sock).", valueName: "PATH"))
    var socket: String?

    @Option(help: "The group that may use the socket (mode 0660); overrides the configuration's socket-group.")
    var group: String?

    @Flag(help: "Leave the outputs showing the last state on exit instead of clearing them.")
    var persist = false

    @Flag(help: "Load the configuration, open every device, report, and exit.")
    var check = false

    func validate() throws {
        if board != nil, config != nil { throw ValidationError("give --board or --config, not both") }
        if board == nil, config == nil { throw ValidationError("say what to drive: --board NAME (see Boards/) or --config FILE") }
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data(("headwayd: " + text + "\n").utf8))
    }

    func run() throws {
        let path = socket ?? SocketPath.forServer()
        var listener: Int32?
        let clock = MonotonicClock()
        while true {
            let configuration = try load()
            let factory = LinuxDeviceFactory()
            let outputs: [ServiceOutput]
            let buttons: [ButtonMonitor]
            do throws(ConfigurationError) {
                (outputs, buttons) = try OutputBuilder.devices(for: configuration, factory: factory)
            } catch {
                throw StartupFailure(error.description)
            }
            if check {
                print("\(configuration.source): \(outputs.count) outputs and \(buttons.count) buttons opened")
                return
            }
            if listener == nil {
                do {
                    listener = try UnixSocket.activated() ?? UnixSocket.listen(path: path, group: group ?? configuration.socketGroup)
                } catch {
                    throw StartupFailure("\(error)")
                }
            }
            let core = ServiceCore(outputs: outputs, buttons: buttons, policy: configuration.policy, appearance: configuration.appearance, clock: clock)
            let server = ServiceServer(core: core, listener: listener!) { log($0) }
            log("driving \(outputs.map(\.name).joined(separator: ", ")) from \(configuration.board ?? configuration.source); listening on \(path)")
            let reason = server.run()
            server.disconnectClients()
            if reason == .terminate {
                if !(persist || configuration.persist) { core.clearOutputs() }
                close(listener!)
                if UnixSocket.activated() == nil { unlink(path) }
                log("stopped")
                return
            }
            log("reloading the configuration")
        }
    }

    private func load() throws -> ServiceConfiguration {
        do {
            let file = try config ?? BoardPresets.path(named: board!)
            return try ConfigurationLoader.load(path: file)
        } catch let error as ConfigurationError {
            throw StartupFailure(error.description)
        }
    }
}
