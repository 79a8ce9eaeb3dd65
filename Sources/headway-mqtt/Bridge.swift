import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// Carries job messages from a broker to a display's service: subscribes to the configured topic
/// filters (QoS 1, a persistent session, so that messages published while it was away arrive when
/// it is back) and sends each as a request over the service's socket. A job's progress or label
/// that arrives before its begin (retained messages come in no set order) waits for the begin.
/// The broker and the service may each go away: it reconnects to either with a growing pause.
///
/// The other way (``Bridge/serviceEvent(_:)``): it is the controller of the jobs whose reporter
/// takes commands, so a button pressed here reaches the runner; with Home Assistant discovery it
/// publishes what the display shows (``Bridge/refreshHomeAssistant()``).
final class Bridge {
    struct RemoteJob {
        var source: String
        var job: String
        /// As this display last knew it; a command goes out only when this changes.
        var paused = false
    }

    let settings: BrokerSettings
    let filters: [String]
    let socketPath: String
    let clientID: String
    let display: String
    /// Where the display says whether it is there: "online" when connected, "offline" (its will,
    /// retained) when the broker loses it.
    let availabilityTopic: String
    let homeAssistant: HomeAssistantDiscovery?
    var session: MQTTSession?
    var service: ServiceConnection?
    /// Jobs begun through this bridge, and what came for jobs not begun yet.
    private var begun: Set<String> = []
    private var waiting: [String: [Request]] = [:]
    /// Jobs whose reporter takes commands, by their id on the display.
    var controlled: [String: RemoteJob] = [:]
    /// Home Assistant's view: the job shown, the state last published, when to look again.
    var shownJob: String?
    var publishedState: String?
    var refreshAt: Double?
    private static let maxWaitingJobs = 1000
    static let keepAlive = 30.0

    init(settings: BrokerSettings, filters: [String], socketPath: String, display: String, homeAssistantPrefix: String?) {
        self.settings = settings
        self.filters = filters
        self.socketPath = socketPath
        self.display = display
        clientID = "headway-display-\(display)"
        availabilityTopic = JobTopics.displayAvailability(display)
        homeAssistant = homeAssistantPrefix.map { HomeAssistantDiscovery(prefix: $0, display: display) }
        if homeAssistant != nil { refreshAt = JobPublication.now }
    }

    func run() -> Never {
        var pause = 0.5
        while true {
            do {
                let session = try connectedSession()
                pause = 0.5
                // Idle, it wakes for the keep-alive only (a ping every 30 s, sent when due).
                var watched: [(fd: Int32, wanted: Readiness)] = []
                if let broker = session.readiness { watched.append(broker) }
                if let service { watched.append((service.fd, .readable)) }
                let timeout = min(Self.keepAlive / 2, refreshAt.map { max(0, $0 - JobPublication.now) } ?? .infinity)
                _ = SystemIO.poll(watched, timeout: timeout)
                try session.service()
                for message in session.received() { deliver(message) }
                // Events may also have come behind a reply and wait in the connection's buffer.
                if service != nil { receiveServiceEvents() }
                while let event = service?.nextEvent() { serviceEvent(event) }
                if let due = refreshAt, JobPublication.now >= due { refreshHomeAssistant() }
            } catch {
                log("\(error); trying again in \(NumberText.compact(pause)) s")
                session = nil
                Threads.sleep(pause)
                pause = min(pause * 2, 30)
            }
        }
    }

    private func connectedSession() throws(MQTTSession.Failure) -> MQTTSession {
        if let session { return session }
        let will = MQTTSession.Will(topic: availabilityTopic, payload: Array("offline".utf8), retained: true)
        let fresh = try MQTTSession(settings, clientID: clientID, cleanSession: false, will: will)
        try fresh.connect(keepAlive: Int(Self.keepAlive), until: JobPublication.now + 10)
        for filter in filters { try fresh.subscribe(filter) }
        try fresh.publish(availabilityTopic, Array("online".utf8), retained: true)
        session = fresh
        if let homeAssistant {
            try fresh.subscribe(homeAssistant.statusTopic)
            try fresh.subscribe(homeAssistant.cancelTopic)
            try publishDiscovery()
        }
        log("connected to \(settings.address), subscribed to \(filters.joined(separator: ", "))")
        return fresh
    }

    private func deliver(_ message: MQTTSession.Message) {
        if homeAssistant != nil, homeAssistantMessage(message) { return }
        let request: Request
        do throws(BridgedRequest.Refusal) {
            guard let bridged = try BridgedRequest.request(topic: message.topic, payload: message.payload) else { return }
            request = bridged
        } catch {
            log("refused a message on \(DisplayText.sanitised(String(message.topic.prefix(200)))): \(error)")
            return
        }
        guard let job = request.job else { return }
        switch request {
        case .begin:
            begun.insert(job)
            send(request)
            if BridgedRequest.takesCommands(message.payload), let (source, id, _) = JobTopics.parse(message.topic) {
                controlled[job] = RemoteJob(source: source, job: id)
                send(.subscribe(job: job, controls: true))
            } else {
                controlled[job] = nil
            }
            for held in waiting.removeValue(forKey: job) ?? [] { deliverBegun(held) }
        case .finish:
            begun.remove(job)
            waiting[job] = nil
            controlled[job] = nil
            send(request)
        default:
            if begun.contains(job) {
                deliverBegun(request)
            } else if waiting[job] != nil || waiting.count < Self.maxWaitingJobs {
                waiting[job, default: []] = Array(((waiting[job] ?? []) + [request]).suffix(4))
            }
        }
        refreshSoon()
    }

    /// A request for a job that has begun here. The reporter's pause or resume is this display's
    /// state already when the press was made here: it is not sent twice.
    private func deliverBegun(_ request: Request) {
        switch request {
        case .pause(let job), .resume(let job):
            let pause = if case .pause = request { true } else { false }
            guard var remote = controlled[job], remote.paused != pause else { return }
            remote.paused = pause
            controlled[job] = remote
        default:
            break
        }
        send(request)
    }

    /// Sends a request to the service, connecting first when needed; a refusal is logged.
    @discardableResult
    func send(_ request: Request) -> Reply? {
        for attempt in 0..<2 {
            do throws(ServiceConnection.Failure) {
                let service = try connectedService()
                service.extend(by: 2)
                let reply = try service.send(request)
                if case .error(let error) = reply {
                    log("the service refused \(request.job ?? "a request"): \(error)")
                }
                return reply
            } catch {
                service = nil
                if attempt == 1 { log("cannot reach the service at \(socketPath): \(error.message)") }
            }
        }
        return nil
    }

    /// The service's connection; a new one follows again what the last one followed.
    private func connectedService() throws(ServiceConnection.Failure) -> ServiceConnection {
        if let service { return service }
        let fresh = try ServiceConnection(path: socketPath, budget: 2)
        service = fresh
        if homeAssistant != nil { _ = try fresh.send(.subscribe(job: nil)) }
        for job in controlled.keys { _ = try fresh.send(.subscribe(job: job, controls: true)) }
        return fresh
    }

    private func receiveServiceEvents() {
        do throws(ServiceConnection.Failure) {
            try service?.receiveEvents()
        } catch {
            log("\(error.message); connecting again when needed")
            while let event = service?.nextEvent() { serviceEvent(event) }
            service = nil
            refreshSoon(after: 2)
        }
    }
}

func log(_ text: String) {
    SystemIO.printError("headway-mqtt: \(DisplayText.sanitised(text))\n")
}
