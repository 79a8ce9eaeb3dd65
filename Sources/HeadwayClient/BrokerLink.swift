import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// The reporting thread of a client of an MQTT broker (docs/mqtt.md): each job has a connection
/// of its own, as `headway run` holds one, whose will ends the job as failed on every display if
/// this process or its machine dies. A job begun with ``JobControls`` takes the displays'
/// commands from its `command` topic: `stop` as a cancel request, `pause` and `resume`.
/// Publications are QoS 1; a job's end waits for the broker's acknowledgement (within the
/// timeout) before its connection is closed without the will.
final class BrokerLink {
    private let core: ClientCore
    private let settings: BrokerSettings
    private let source: String
    private var sessions: [String: MQTTSession] = [:]
    private var open = false
    private var made = 0

    init(core: ClientCore, settings: BrokerSettings, source: String) {
        self.core = core
        self.settings = settings
        self.source = source
    }

    private var timeout: Seconds { core.read(\.settings.timeout) }

    func run() {
        while true {
            let now = core.now
            let plan = core.state.withLock { $0.plan(now: now, canWrite: open) }
            plan.wakeups.deliver()
            if plan.exit || plan.disconnect {
                for session in sessions.values { session.disconnect() }
                sessions = [:]
            }
            if plan.exit { break }
            if plan.connect {
                open = true
                core.state.withLock { $0.linkOpened() }
                continue
            }
            do throws(MQTTSession.Failure) {
                for request in plan.requests { try publish(request) }
                if !plan.requests.isEmpty { core.state.withLock { $0.acknowledgeAll() }.deliver() }
                var watched: [(fd: Int32, wanted: Readiness)] = [(core.wakeRead, .readable)]
                let ids = Array(sessions.keys)
                for id in ids { if let readiness = sessions[id]!.readiness { watched.append(readiness) } }
                // The keep-alive (30 s) needs a look every few seconds.
                let ready = SystemIO.poll(watched, timeout: min(plan.timeout ?? 5, 5))
                if !ready[0].isEmpty { SystemIO.drain(core.wakeRead) }
                for id in ids { try service(id) }
            } catch {
                for session in sessions.values { session.disconnect() }
                sessions = [:]
                open = false
                let now = core.now
                core.state.withLock { $0.lost(error.description, now: now, quietly: false) }.deliver()
            }
        }
        SystemIO.drain(core.wakeRead)
    }

    private func publish(_ request: Request) throws(MQTTSession.Failure) {
        guard let id = request.job else { return }
        let takesCommands = !(core.read { $0.controls(of: id) } ?? []).isEmpty
        let session: MQTTSession
        if let existing = sessions[id] {
            session = existing
        } else {
            // A job's first request on this connection: its begin, or the end of a job that ended
            // while the broker was away (which displays may still show, from what it retained).
            made += 1
            session = try MQTTSession(settings, clientID: JobPublication.clientID("swift\(made)"), will: JobPublication.will(source: source, job: id))
            try session.connect(keepAlive: 30, until: core.now + timeout)
            if takesCommands { try session.subscribe(JobTopics.topic(source: source, job: id, .command)) }
            sessions[id] = session
        }
        for message in JobPublication.messages(for: request, source: source, takesCommands: takesCommands) ?? [] {
            try session.publish(message.topic, message.payload, retained: message.retained)
        }
        if case .finish = request {
            try session.flush(until: core.now + timeout)
            session.disconnect()
            sessions[id] = nil
        } else {
            try session.service()
        }
    }

    /// Network work of one job's connection, and the displays' commands to it.
    private func service(_ id: String) throws(MQTTSession.Failure) {
        guard let session = sessions[id] else { return }
        try session.service()
        let events: [JobEvent] = session.received().compactMap { message in
            switch BridgedRequest.command(message.payload) {
            case .stop?: JobEvent(.cancelRequested, job: id)
            case .pause?: JobEvent(.paused, job: id)
            case .resume?: JobEvent(.resumed, job: id)
            default: nil
            }
        }
        guard !events.isEmpty else { return }
        core.state.withLock { $0.received(events) }.deliver()
        // Every display learns that the program paused or went on (a pause it does not honour
        // is answered with a resume by the state, as a request).
        let controls = core.read { $0.controls(of: id) } ?? []
        for event in events where controls.contains(.pause) && (event.kind == .paused || event.kind == .resumed) {
            try publish(event.kind == .paused ? .pause(job: id) : .resume(job: id))
        }
    }
}
