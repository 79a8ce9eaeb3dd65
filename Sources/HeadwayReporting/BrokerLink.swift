import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol

/// A reporter's link to an MQTT broker (docs/mqtt.md): each request published as its own line on
/// its job's topic (``JobPublication``), QoS 1. A broker sends no replies: what was published is
/// taken as answered, and a failure of any connection is the link's failure (the core then makes
/// it again by its policy and tells every running job again).
///
/// Two ways to hold connections:
/// - ``Sessions/perJob``: each job has a connection of its own, as `headway run` holds one, whose
///   will ends the job as failed on every display if this process or its machine dies; a job's
///   end waits for the broker's acknowledgement before its connection is closed without the will.
/// - ``Sessions/shared``: one connection for every job and question, without a will (headway-ci,
///   whose jobs run elsewhere, and a hook's one publication).
///
/// A job that takes a button's requests (``JobControls``) takes the displays' commands from its
/// `command` topic: `stop` as a cancel request, `pause` and `resume`; every display learns when
/// the program paused or went on.
package final class BrokerLink: ReportLink {
    package enum Sessions { case perJob, shared }

    private let settings: BrokerSettings
    private let mode: Sessions
    private let role: String
    private let place: (String) -> (source: String, job: String)?
    private var sessions: [String: MQTTSession] = [:]
    private var shared: MQTTSession?
    /// The command topics subscribed to, and the job each is for.
    private var commandTopics: [String: String] = [:]
    private var open = false
    private var made = 0
    private var timeout: Seconds = 1

    /// A link to the broker of `settings`. `place` gives a job id's source and topic job (nil:
    /// not published); `role` names the reporter in its client ids.
    package init(settings: BrokerSettings, sessions: Sessions, role: String, place: @escaping (String) -> (source: String, job: String)?) {
        self.settings = settings
        mode = sessions
        self.role = role
        self.place = place
    }

    package func prepare(_ host: some ReporterHost, now: Seconds) -> LinkWait? {
        timeout = host.withCore { $0.settings.timeout }
        while true {
            let plan = host.plan(now: now, canWrite: open)
            if plan.exit || plan.disconnect { close() }
            if plan.exit { return nil }
            do throws(MQTTSession.Failure) {
                if plan.connect {
                    if mode == .shared { shared = try session(will: nil, until: now + timeout) }
                    open = true
                    host.withCore { $0.linkOpened() }
                    continue
                }
                for request in plan.requests { try publish(request, host, now: now) }
                if !plan.requests.isEmpty { host.withCore { $0.acknowledgeAll() } }
            } catch {
                fail(host, error, now: now)
                continue
            }
            let watched = ([shared].compactMap { $0 } + Array(sessions.values)).compactMap(\.readiness)
            // The keep-alive (30 s) needs a look every few seconds.
            return LinkWait(watched: watched, timeout: open ? min(plan.timeout ?? 5, 5) : plan.timeout)
        }
    }

    package func service(_ host: some ReporterHost, now: Seconds) {
        do throws(MQTTSession.Failure) {
            if let shared { try service(shared, host, now: now) }
            for id in Array(sessions.keys) { if let session = sessions[id] { try service(session, host, now: now) } }
        } catch {
            fail(host, error, now: now)
        }
    }

    package func drain(until deadline: Seconds) -> String? {
        defer { close() }
        for session in [shared].compactMap({ $0 }) + Array(sessions.values) {
            do throws(MQTTSession.Failure) { try session.flush(until: deadline) } catch { return error.description }
        }
        return nil
    }

    private func session(will: MQTTSession.Will?, until deadline: Seconds) throws(MQTTSession.Failure) -> MQTTSession {
        made += 1
        // Unique among this process's links too: a broker closes the older of two connections
        // with one id, and a program may hold several clients.
        let link = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 36)
        let session = try MQTTSession(settings, clientID: JobPublication.clientID("\(role)\(made)-\(link)"), will: will)
        try session.connect(keepAlive: 30, until: deadline)
        return session
    }

    private func publish(_ request: Request, _ host: some ReporterHost, now: Seconds) throws(MQTTSession.Failure) {
        guard let id = request.job, let (source, job) = place(id) else { return }
        let takesCommands = !(host.withCore { $0.controls(of: id) } ?? []).isEmpty
        let session: MQTTSession
        switch mode {
        case .shared:
            guard let shared else { return }
            session = shared
        case .perJob:
            if let existing = sessions[id] {
                session = existing
            } else {
                // A job's first request on this connection: its begin, or the end of a job that
                // ended while the broker was away (which displays may still show, from what it retained).
                session = try self.session(will: JobPublication.will(source: source, job: job), until: now + timeout)
                sessions[id] = session
            }
        }
        if takesCommands, case .begin = request {
            let topic = JobTopics.topic(source: source, job: job, .command)
            if commandTopics[topic] == nil {
                try session.subscribe(topic)
                commandTopics[topic] = id
            }
        }
        for message in JobPublication.messages(for: request.withJob(job), source: source, takesCommands: takesCommands) ?? [] {
            try session.publish(message.topic, message.payload, retained: message.retained)
        }
        if mode == .perJob, case .finish = request {
            try session.flush(until: now + timeout)
            session.disconnect()
            sessions[id] = nil
            commandTopics = commandTopics.filter { $0.value != id }
        } else {
            try session.service()
        }
    }

    /// Network work of one connection, and the displays' commands to its jobs.
    private func service(_ session: MQTTSession, _ host: some ReporterHost, now: Seconds) throws(MQTTSession.Failure) {
        try session.service()
        let events: [JobEvent] = session.received().compactMap { message in
            guard let id = commandTopics[message.topic] else { return nil }
            switch BridgedRequest.command(message.payload) {
            case .stop?: return JobEvent(.cancelRequested, job: id)
            case .pause?: return JobEvent(.paused, job: id)
            case .resume?: return JobEvent(.resumed, job: id)
            default: return nil
            }
        }
        guard !events.isEmpty else { return }
        host.withCore { $0.received(events) }
        // Every display learns that the program paused or went on (a pause it does not honour
        // is answered with a resume by the core, as a request).
        for event in events where event.kind == .paused || event.kind == .resumed {
            guard host.withCore({ $0.controls(of: event.job) })?.contains(.pause) == true else { continue }
            try publish(event.kind == .paused ? .pause(job: event.job) : .resume(job: event.job), host, now: now)
        }
    }

    private func fail(_ host: some ReporterHost, _ error: MQTTSession.Failure, now: Seconds) {
        close()
        host.withCore { $0.lost(error.description, now: now, quietly: false) }
    }

    private func close() {
        for session in [shared].compactMap({ $0 }) + Array(sessions.values) { session.disconnect() }
        shared = nil
        sessions = [:]
        commandTopics = [:]
        open = false
    }
}
