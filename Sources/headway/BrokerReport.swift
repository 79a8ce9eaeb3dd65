import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwaySystem

/// A job command published to an MQTT broker (`--broker`, docs/mqtt.md) instead of the local
/// socket. The hook's promise holds: whatever goes wrong — no libmosquitto, a broker that is down,
/// refuses the login or does not answer — it warns once and exits 0 within the budget.
struct BrokerReport {
    let client: Client
    let url: String

    func send(_ request: Request) -> Int32 {
        let local = switch request {
        case .pause, .resume: true
        default: false
        }
        guard !local, let messages = JobPublication.messages(for: request, source: client.command.source ?? JobPublication.defaultSource) else {
            return client.soft("this command acts on a job of this machine and needs the local socket, not a broker")
        }
        // connect(2) to an unreachable host may block far past any budget: the timer ends it.
        let budget = client.command.timeout
        let note = "headway: warning: \(DisplayText.sanitised(String(url.prefix(120)))) did not answer within \(Int(budget * 1000)) ms\(client.command.strict ? "" : " (progress not shown; the job goes on)")"
        Processes.exit(after: budget, writing: note + "\n", status: client.command.strict ? 1 : 0)
        let deadline = JobPublication.now + budget
        do {
            let settings = try BrokerSettings(url: url)
            let session = try MQTTSession(settings, clientID: JobPublication.clientID("report"))
            try session.connect(keepAlive: 30, until: deadline)
            for message in messages { try session.publish(message.topic, message.payload, retained: message.retained) }
            try session.flush(until: deadline)
            session.disconnect()
            return 0
        } catch {
            // A wrong address or a broker that failed: each says what in its description.
            return client.soft("\(error)")
        }
    }
}
