import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// `headway run` and `headway pipe` reporting to a broker: one connection for the job's whole run,
/// whose will ends the job as failed on every display if this process or its machine dies. `run`
/// takes the displays' commands (a long press stops the command, a short one pauses it) from the
/// job's `command` topic; `pipe`, which cannot stop what feeds it, takes none. Every failure is a
/// warning: the work goes on whatever happens to the broker.
final class BrokerRun {
    private let client: Client
    private let job: String
    private let source: String
    private let takesCommands: Bool
    private var session: MQTTSession?

    /// Connects (within the client's budget, without blocking on the TCP connect) and begins the job.
    init(client: Client, url: String, job: String, options: BeginOptions, takesCommands: Bool) {
        self.client = client
        self.job = job
        self.takesCommands = takesCommands
        source = client.command.source ?? JobPublication.defaultSource
        let deadline = JobPublication.now + client.command.timeout
        do {
            let session = try MQTTSession(try BrokerSettings(url: url), clientID: JobPublication.clientID("run"), will: JobPublication.will(source: source, job: job))
            try session.connect(keepAlive: 30, until: deadline)
            if takesCommands { try session.subscribe(JobTopics.topic(source: source, job: job, .command)) }
            try publish(.begin(job: job, options), on: session)
            try session.flush(until: deadline)
            self.session = session
        } catch {
            _ = client.soft("\(error)")
        }
    }

    private func publish(_ request: Request, on session: MQTTSession) throws(MQTTSession.Failure) {
        for message in JobPublication.messages(for: request, source: source, takesCommands: takesCommands) ?? [] {
            try session.publish(message.topic, message.payload, retained: message.retained)
        }
    }

    func update(value: Double, total: Double) { report(.update(job: job, value: value, total: total, label: nil)) }

    /// Publishes a request about the job (an update, a label).
    func report(_ request: Request) {
        guard let session else { return }
        do throws(MQTTSession.Failure) {
            try publish(request, on: session)
            try session.service()
        } catch {
            lost(error)
        }
    }

    /// What to wait for beside the command's output (nil without a connection).
    var readiness: (fd: Int32, wanted: Readiness)? { session?.readiness }

    /// The keep-alive, acknowledgements and the displays' commands, as the events the local
    /// service would send: `stop` a cancel request, `pause` and `resume` themselves.
    func tick() -> [JobEvent] {
        guard let session else { return [] }
        do throws(MQTTSession.Failure) {
            try session.service()
            return session.received().compactMap { message in
                switch BridgedRequest.command(message.payload) {
                case .stop?: JobEvent(.cancelRequested, job: job)
                case .pause?: JobEvent(.paused, job: job)
                case .resume?: JobEvent(.resumed, job: job)
                default: nil
                }
            }
        } catch {
            lost(error)
            return []
        }
    }

    /// Tells every display that the command was paused or continued.
    func paused(_ paused: Bool) {
        guard let session else { return }
        do throws(MQTTSession.Failure) {
            try publish(paused ? .pause(job: job) : .resume(job: job), on: session)
            try session.service()
        } catch {
            lost(error)
        }
    }

    func finish(_ outcome: Outcome) {
        guard let session else { return }
        do throws(MQTTSession.Failure) {
            try publish(.finish(job: job, outcome: outcome), on: session)
            try session.flush(until: JobPublication.now + client.command.timeout)
            session.disconnect()
        } catch {
            lost(error)
        }
    }

    private func lost(_ error: MQTTSession.Failure) {
        _ = client.soft(error.description)
        session = nil
    }
}
