import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol

/// `headway --broker URL status`: the jobs the broker holds — their retained begin, progress, label
/// and pause — as a display that started now would see them. The broker knows what was reported,
/// not how a display judges it (stalled, lost): a job reads `active` or `paused`.
struct BrokerStatus {
    let client: Client
    let url: String

    private struct Held {
        var begin: BeginOptions?
        var progress: Request?
        var label: String?
        var paused = false
    }

    func run() -> Int32 {
        let deadline = JobPublication.now + client.command.timeout
        var held: [String: Held] = [:]
        do {
            let session = try MQTTSession(try BrokerSettings(url: url), clientID: JobPublication.clientID("status"))
            try session.connect(keepAlive: 30, until: deadline)
            try session.subscribe(JobTopics.jobs + "/#")
            // Retained messages come right after the subscription: done once they stop coming.
            var lastHeard = JobPublication.now
            while JobPublication.now < deadline, JobPublication.now - lastHeard < 0.25 {
                try session.pump(timeout: 0.05)
                for message in session.received() where message.retained {
                    lastHeard = JobPublication.now
                    guard let request = try? BridgedRequest.request(topic: message.topic, payload: message.payload), let job = request.job else { continue }
                    switch request {
                    case .begin(_, let options): held[job, default: Held()].begin = options
                    case .update, .updatePercent, .indeterminate: held[job, default: Held()].progress = request
                    case .label(_, let label): held[job, default: Held()].label = label
                    case .pause: held[job, default: Held()].paused = true
                    case .resume: held[job, default: Held()].paused = false
                    default: break
                    }
                }
            }
            session.disconnect()
        } catch {
            // A wrong address or a broker that failed: each says what in its description.
            return client.soft("\(error)")
        }
        let jobs = held.compactMap { id, job in job.begin.map { Self.status(id, job, $0) } }.sorted { $0.job < $1.job }
        print(StatusTable.render(jobs, omitted: 0))
        return 0
    }

    /// What the retained messages say of one job; never 100 % (a job that is over is not retained).
    private static func status(_ id: String, _ job: Held, _ begin: BeginOptions) -> JobStatus {
        var value: Double?, total = begin.total, percent: Int?
        switch job.progress {
        case .update(_, let reported, let newTotal, _, _)?:
            total = newTotal ?? total ?? 1
            value = min(reported, total!)
            percent = Int((value! / total! * 100).rounded(.down))
        case .updatePercent(_, let reported, _, _)?:
            percent = Int(reported.rounded(.down))
        default:
            if total != nil { (value, percent) = (0, 0) }
        }
        return JobStatus(
            job: id, label: job.label ?? begin.label, phase: job.paused ? "paused" : "active", percent: percent.map { min($0, 99) },
            value: value, total: total, etaSeconds: nil)
    }
}
