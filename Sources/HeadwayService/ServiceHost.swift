import Headway
import HeadwayProtocol
import HeadwaySystem

/// The one host loop of `headwayd` and `headway-sim serve`: load the configuration, open its
/// devices, listen (or take systemd's socket), serve, reload on SIGHUP, stop on SIGTERM. The two
/// programs differ only in how they load and open (real buses or virtual chips) and in what they
/// add around the core (the simulator's own operations, its terminal).
///
/// A reload keeps every job and every client. A configuration that fails to load or whose devices
/// fail to open is reported (log and `systemctl status`) and the one in force stays.
public final class ServiceHost {
    /// What the host is told by its program's options.
    public struct Settings {
        /// The program's name, for logs.
        public var name: String
        /// Where the socket is.
        public var socketPath: String
        /// The group that may use the socket, overriding the configuration's `socket-group`.
        public var socketGroup: String?
        /// Leave the outputs showing their last state on exit (in addition to `persist:`).
        public var persist: Bool
        /// Where learned durations are kept when the configuration does not say.
        public var stateDirectory: String?
        /// It runs in a terminal: SIGHUP reloads while the terminal is there, and stops it once the
        /// terminal is gone.
        public var runsInTerminal: Bool
        /// The web page, overriding the configuration's `web:` (`--web` on `headway-sim serve`).
        public var web: WebSettings?

        /// Settings of each value given.
        public init(
            name: String, socketPath: String, socketGroup: String? = nil, persist: Bool = false, stateDirectory: String? = nil, runsInTerminal: Bool = false,
            web: WebSettings? = nil
        ) {
            self.name = name
            self.web = web
            self.socketPath = socketPath
            self.socketGroup = socketGroup
            self.persist = persist
            self.stateDirectory = stateDirectory
            self.runsInTerminal = runsInTerminal
        }
    }

    /// Reads the configuration (again, on a reload).
    public typealias Loader = () throws(ConfigurationError) -> ServiceConfiguration
    /// Opens a configuration's devices.
    public typealias Opener = (ServiceConfiguration) throws(ConfigurationError) -> ServiceDevices

    /// What the program's options said.
    public let settings: Settings
    /// The clock the core reads.
    public let clock: any ProgressClock
    private let logger: ServiceLogger
    private let load: Loader
    private let open: Opener
    /// Wraps the core in a program's own operations (the simulator's `press` and `snapshot`).
    public var makeHandler: (ServiceCore) -> LineHandler = { $0 }
    /// Called after every tick.
    public var afterTick: (ServiceCore) -> Void = { _ in }
    /// Called after the devices were replaced (a reload).
    public var afterReload: (ServiceCore) -> Void = { _ in }
    /// Where the states of watched systemd units come from (made when a configuration first
    /// watches one): systemd on the system bus, or a test's own.
    public var makeUnitSource: (any ProgressClock) -> any UnitSource = { SystemdUnits(clock: $0) }
    private var unitSource: (any UnitSource)?
    /// The web page, metrics and notifications, when configured.
    private var web: WebService?
    /// When the program wants its loop to wake for its own sake, if it does (`serve`'s status line
    /// that has been read long enough): a tick follows, so `afterTick` draws again.
    public var wakeAt: () -> Seconds? = { nil }

    /// Told the web page's port (tests listen on port 0) and its address once it listens.
    public var onWebListening: (_ port: Int, _ url: String) -> Void = { _, _ in }

    /// A host that loads with `load` and opens with `open`, logging to `logger`.
    public init(settings: Settings, clock: any ProgressClock = MonotonicClock(), logger: ServiceLogger, load: @escaping Loader, open: @escaping Opener) {
        self.settings = settings
        self.clock = clock
        self.logger = logger
        self.load = load
        self.open = open
    }

    /// Loads the configuration and opens every device, then lets them go: `--check`.
    public func check() throws(StartupFailure) -> String {
        let configuration = try startupConfiguration()
        let devices = try startupDevices(configuration)
        return "\(configuration.source): \(devices.outputs.count) outputs and \(devices.buttons.count) buttons opened"
    }

    /// Serves until SIGTERM or SIGINT.
    public func run() throws(StartupFailure) {
        Processes.raiseDescriptorLimit(to: 65536)
        var configuration = try startupConfiguration()
        let devices = try startupDevices(configuration)
        let activated = ServiceSocket.activated()
        let listener: Int32
        if let activated {
            listener = activated
            if let wanted = settings.socketGroup ?? configuration.socketGroup, let actual = Files.status(of: settings.socketPath, followingLinks: false).flatMap({ Groups.name(of: $0.group) }), actual != wanted {
                logger.warning("socket-group \(wanted) is not applied: under socket activation systemd creates the socket (its group is \(actual)); set SocketGroup=\(wanted) in headway.socket")
            }
        } else {
            do {
                listener = try ServiceSocket.listen(path: settings.socketPath, mode: 0o660, group: settings.socketGroup ?? configuration.socketGroup)
            } catch {
                throw StartupFailure(error.description)
            }
        }
        let state = (configuration.stateDirectory ?? settings.stateDirectory).map { ServiceState(folder: $0, logger: logger) }
        let core = ServiceCore(devices: devices, settings: configuration.settings, clock: clock, logger: logger, state: state)
        let restored = core.restoreJobs()
        let server = ServiceServer(core: core, listener: listener, logger: logger, handler: makeHandler(core))
        // The web page, metrics and notifications (Web/): a hook of their own into the loop.
        web = try WebService.start(configuration, web: settings.web, core: core, deliver: { [unowned server] in server.deliver($0) }, logger: logger)
        if let web {
            server.handler = CountingHandler(server.handler, web: web)
            if let port = web.port, let url = web.url { onWebListening(port, url) }
        }
        server.runsInTerminal = settings.runsInTerminal
        server.afterTick = { [afterTick, web] in
            afterTick(core)
            web?.afterTick()
        }
        server.onReload = { [self] in
            if let reloaded = reload(from: configuration, core: core, server: server) {
                configuration = reloaded
                followUnits(of: reloaded, core: core, server: server)
                web?.reloaded(reloaded)
            }
        }
        server.sources = { [self] in
            unitSources(core: core, server: server) + (web?.sources ?? []) + (wakeAt().map { [ServiceServer.Source(fd: -1, deadline: $0) { [unowned server] in server.tickAndReport() }] } ?? [])
        }
        server.deliver(restored)
        followUnits(of: configuration, core: core, server: server)
        let summary = describe(configuration, core.outputs)
        logger.info("\(summary); listening on \(settings.socketPath)")
        server.ready(status: summary)
        server.run()
        web?.stop()
        server.disconnectClients()
        core.keepJobsNow()
        if !(settings.persist || configuration.persist) { core.clearOutputs() }
        SystemIO.close(listener)
        if activated == nil { Files.remove(settings.socketPath) }
        logger.info("stopped")
    }

    /// Follows the units `configuration` watches (and the timers its outputs count down to);
    /// running jobs of units still watched go on.
    private func followUnits(of configuration: ServiceConfiguration, core: ServiceCore, server: ServiceServer) {
        let followed = configuration.followedUnits
        server.deliver(core.watchUnits(configuration.watchedUnits))
        guard !followed.isEmpty || unitSource != nil else { return }
        let source = unitSource ?? makeUnitSource(clock)
        unitSource = source
        for event in source.follow(followed) { server.deliver(core.unit(event)) }
    }

    /// The unit source's descriptor and deadline, for the loop.
    private func unitSources(core: ServiceCore, server: ServiceServer) -> [ServiceServer.Source] {
        guard let source = unitSource else { return [] }
        let readiness = source.readiness
        return [
            ServiceServer.Source(fd: readiness?.fd ?? -1, wanted: readiness?.wanted ?? [], deadline: source.deadline) {
                for event in source.process() { server.deliver(core.unit(event)) }
            }
        ]
    }

    private func describe(_ configuration: ServiceConfiguration, _ outputs: [ServiceOutput]) -> String {
        let names = outputs.isEmpty ? "no outputs" : outputs.map(\.name).joined(separator: ", ")
        let from = configuration.board.map { $0.title + (configuration.hats.isEmpty ? "" : " with " + configuration.hats.joined(separator: ", ")) } ?? configuration.source
        return "driving \(names) from \(from)"
    }

    private func startupConfiguration() throws(StartupFailure) -> ServiceConfiguration {
        do { return try load() } catch { throw StartupFailure(error.description) }
    }

    private func startupDevices(_ configuration: ServiceConfiguration) throws(StartupFailure) -> ServiceDevices {
        do { return try open(configuration) } catch { throw StartupFailure(error.description) }
    }

    /// SIGHUP: the new configuration and its devices, or the old ones and a report of why not.
    private func reload(from current: ServiceConfiguration, core: ServiceCore, server: ServiceServer) -> ServiceConfiguration? {
        logger.info("reloading the configuration")
        server.reloading()
        let reload = Reload(load: load, open: open, logger: logger)
        let outcome = reload(from: current, core: core)
        afterReload(core)
        switch outcome {
        case .reloaded(let next):
            let summary = describe(next, core.outputs)
            logger.info("reloaded: \(summary)")
            server.ready(status: summary)
            return next
        case .kept(let problem):
            report("reload failed, keeping the configuration in force: \(problem)", server)
            return nil
        }
    }

    /// A reload that did not take: logged, shown in `systemctl status`, and the reload is over.
    private func report(_ problem: String, _ server: ServiceServer) {
        logger.error("\(problem)")
        server.ready(status: problem)
    }
}
