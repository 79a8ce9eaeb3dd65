import HeadwayCore
import HeadwayProtocol

/// The jobs a broker holds — their retained begin, progress, label and pause (``JobTopics``) — as
/// a display that started now would see them. The broker knows what was reported, not how a
/// display judges it (stalled, lost): a job reads `active` or `paused`, and never 100 % (a job
/// that is over is not retained).
public enum RetainedJobs {
    private struct Held {
        var begin: BeginOptions?
        var progress: Request?
        var label: String?
        var paused = false
    }

    /// Subscribes to every job on the broker and reads what it retained, until it stops coming
    /// (a quarter of a second without any) or `seconds` have passed.
    public static func read(_ settings: BrokerSettings, clientID: String, within seconds: Double) throws(MQTTSession.Failure) -> [JobStatus] {
        let deadline = JobPublication.now + seconds
        var held: [String: Held] = [:]
        let session = try MQTTSession(settings, clientID: clientID)
        defer { session.disconnect() }
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
        return held.compactMap { id, job in job.begin.map { status(id, job, $0) } }.sorted { $0.job < $1.job }
    }

    private static func status(_ id: String, _ job: Held, _ begin: BeginOptions) -> JobStatus {
        var value: Double?, total = begin.total, percent: Int?, unit = begin.unit
        switch job.progress {
        case .update(_, let reported, let newTotal, _, _, let newUnit, _)?:
            total = newTotal ?? total ?? 1
            unit = newUnit ?? unit
            value = min(reported, total!)
            percent = Int((value! / total! * 100).rounded(.down))
        case .updatePercent(_, let reported, _, _)?:
            percent = Int(reported.rounded(.down))
        default:
            if total != nil { (value, percent) = (0, 0) }
        }
        return JobStatus(
            job: id, label: job.label ?? begin.label, phase: job.paused ? "paused" : "active", percent: percent.map { min($0, 99) },
            value: value, total: total, etaSeconds: nil, unit: unit)
    }
}
