import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol

/// Carries job messages from a broker to a display's service: subscribes to the configured topic
/// filters (QoS 1, a persistent session, so that messages published while it was away arrive when
/// it is back) and sends each as a request over the service's socket. A job's progress or label
/// that arrives before its begin (retained messages come in no set order) waits for the begin.
/// The broker and the service may each go away: it reconnects to either with a growing pause.
final class Bridge {
    let settings: BrokerSettings
    let filters: [String]
    let socketPath: String
    let clientID: String
    /// Where the display says whether it is there: "online" when connected, "offline" (its will,
    /// retained) when the broker loses it.
    let availabilityTopic: String
    private var session: MQTTSession?
    private var service: ServiceConnection?
    /// Jobs begun through this bridge, and what came for jobs not begun yet.
    private var begun: Set<String> = []
    private var waiting: [String: [Request]] = [:]
    private static let maxWaitingJobs = 1000
    private static let keepAlive = 30.0

    init(settings: BrokerSettings, filters: [String], socketPath: String, display: String) {
        self.settings = settings
        self.filters = filters
        self.socketPath = socketPath
        clientID = "headway-display-\(display)"
        availabilityTopic = JobTopics.displayAvailability(display)
    }

    func run() -> Never {
        var pause = 0.5
        while true {
            do {
                let session = try connectedSession()
                pause = 0.5
                // Idle, it wakes for the keep-alive only (a ping every 30 s, sent when due).
                try session.pump(timeout: Self.keepAlive / 2)
                for message in session.received() { deliver(message) }
            } catch {
                log("\(error); trying again in \(NumberText.compact(pause)) s")
                session = nil
                sleep(seconds: pause)
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
        log("connected to \(settings.address), subscribed to \(filters.joined(separator: ", "))")
        session = fresh
        return fresh
    }

    private func deliver(_ message: MQTTSession.Message) {
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
            for held in waiting.removeValue(forKey: job) ?? [] { send(held) }
        case .finish:
            begun.remove(job)
            waiting[job] = nil
            send(request)
        default:
            if begun.contains(job) {
                send(request)
            } else if waiting[job] != nil || waiting.count < Self.maxWaitingJobs {
                waiting[job, default: []] = Array(((waiting[job] ?? []) + [request]).suffix(4))
            }
        }
    }

    /// Sends a request to the service, connecting first when needed; a refusal is logged.
    private func send(_ request: Request) {
        for attempt in 0..<2 {
            do throws(ServiceConnection.Failure) {
                if service == nil { service = try ServiceConnection(path: socketPath, budget: 2) }
                service!.extend(by: 2)
                if case .error(let error) = try service!.send(request) {
                    log("the service refused \(request.job ?? "a request"): \(error)")
                }
                return
            } catch {
                service = nil
                if attempt == 1 { log("cannot reach the service at \(socketPath): \(error.message)") }
            }
        }
    }
}

func log(_ text: String) {
    SystemIO.printError("headway-mqtt: \(DisplayText.sanitised(text))")
}
