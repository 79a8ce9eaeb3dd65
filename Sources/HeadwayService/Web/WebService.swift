import Headway
import HeadwayProtocol
import HeadwaySystem

/// The page, metrics and notifications of a running service, made when its configuration asks
/// for them (`web:`, `notify:`, or `--web`): the server on its own threads, the bridge and the
/// notification watch on the loop's. With neither configured, none of it exists.
final class WebService {
    private let server: WebServer?
    let bridge: WebBridge
    private var notifier: Notifier?
    private var watch: NotificationWatch
    private var nextLook: Seconds?
    private let host = Host.name
    private let logger: ServiceLogger

    /// Starts what `configuration` (and `web`, which overrides its `web:`) asks for; nil when it asks for none.
    static func start(
        _ configuration: ServiceConfiguration, web: WebSettings?, core: ServiceCore, deliver: @escaping ([JobEvent]) -> Void, logger: ServiceLogger
    ) throws(StartupFailure) -> WebService? {
        // --web moves the page (to this machine's address it names) and keeps the rest of web:.
        var settings = configuration.web
        if let web {
            settings = settings ?? web
            settings?.address = web.address
            settings?.port = web.port
        }
        guard settings != nil || !configuration.notifications.isEmpty else { return nil }
        return try WebService(settings, configuration, core: core, deliver: deliver, logger: logger)
    }

    private init(
        _ settings: WebSettings?, _ configuration: ServiceConfiguration, core: ServiceCore, deliver: @escaping ([JobEvent]) -> Void, logger: ServiceLogger
    ) throws(StartupFailure) {
        self.logger = logger
        let hub: WebHub
        do { hub = try WebHub(viewerLimit: settings?.viewers ?? 1) } catch { throw StartupFailure("web: \(error)") }
        bridge = WebBridge(hub: hub, core: core, deliver: deliver)
        watch = NotificationWatch(rules: configuration.notifications)
        if let settings {
            let server = WebServer(settings: settings, hub: hub, logger: logger)
            try server.start()
            self.server = server
            logger.info("web page on \(server.url)\(settings.requiresLogin ? " (login required)" : "")")
        } else {
            server = nil
        }
        if !configuration.notifications.isEmpty { notifier = Notifier(logger: logger) }
        reloaded(configuration)
    }

    /// The port the page listens on (tests listen on port 0).
    var port: Int? { server?.port }

    /// The page's address, as a browser opens it.
    var url: String? { server?.url }

    /// What the loop watches: questions from the page, held-back pictures, notification looks.
    var sources: [ServiceServer.Source] {
        var sources = [bridge.source]
        if notifier != nil {
            let due = nextLook ?? (bridge.core.registry.visibleCount > 0 ? bridge.core.clock.now : nil)
            if let due { sources.append(ServiceServer.Source(fd: -1, deadline: due) { [unowned self] in look() }) }
        }
        return sources
    }

    /// After every tick.
    func afterTick() {
        bridge.afterTick()
        if notifier != nil, nextLook == nil, bridge.core.registry.visibleCount > 0 { nextLook = bridge.core.clock.now }
    }

    /// A reload took: what the page says of the configuration, and the rules notifications follow.
    func reloaded(_ configuration: ServiceConfiguration) {
        let doctor = DoctorReport(Doctor.check(configuration, on: MachineView(root: "/"))).text
        bridge.setAbout(configuration, doctor: doctor)
        if configuration.notifications != watch.rules { watch = NotificationWatch(rules: configuration.notifications) }
        if !configuration.notifications.isEmpty, notifier == nil { notifier = Notifier(logger: logger) }
    }

    /// Events the core returned for a request: a job that ended is told at once.
    func noticed(_ events: [JobEvent]) {
        guard let notifier else { return }
        let core = bridge.core
        let now = core.clock.now
        for event in events where event.kind == .finished {
            guard let outcome = event.outcome, let entry = core.registry[event.job] else { continue }
            var status = ServiceCore.status((event.job, entry.job.snapshot(at: now)), shown: false)
            status.phase = outcome.rawValue
            let names = { (id: String) in (core.registry[id]?.name, core.registry[id]?.job.startedAt) }
            for message in watch.ended(status, outcome: outcome, names: names, host: host) { notifier.send(message) }
        }
    }

    private func look() {
        let core = bridge.core
        let now = core.clock.now
        guard case .jobs(let statuses, _, _, _) = core.handle(.status, from: WebBridge.peer).0 else { return }
        for message in watch.look(statuses, names: { id in (core.registry[id]?.name, core.registry[id]?.job.startedAt) }, host: host) {
            notifier?.send(message)
        }
        nextLook = statuses.isEmpty ? nil : now + NotificationWatch.period
    }

    /// Stops the page and the notifier.
    func stop() {
        server?.stop()
        notifier?.stop()
    }
}

/// The line handler wrapped so that the metrics count what clients send, and notifications hear
/// of jobs that ended at once.
final class CountingHandler: LineHandler {
    let inner: LineHandler
    let web: WebService

    init(_ inner: LineHandler, web: WebService) {
        self.inner = inner
        self.web = web
    }

    func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent]) {
        let answer = inner.handle(line: line, from: peer)
        web.bridge.counted(reply: answer.reply)
        if !answer.events.isEmpty { web.noticed(answer.events) }
        return answer
    }
}
