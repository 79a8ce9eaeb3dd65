import Headway
import HeadwayProtocol

/// The jobs the service knows, by id, applying the core model's rules to each request.
public struct JobRegistry: Sendable {
    struct Entry: Sendable {
        var job: ProgressJob
        var sequence: Int
    }

    public let policy: LifecyclePolicy
    private var entries: [String: Entry] = [:]
    private var sequence = 0

    public init(policy: LifecyclePolicy = .standard) { self.policy = policy }

    /// Applies `request` at `now`; returns the reply and the events it causes.
    public mutating func apply(_ request: Request, at now: Seconds) -> (Reply, [JobEvent]) {
        do throws(ProtocolError) {
            return try applyChecked(request, at: now)
        } catch {
            return (.error(error), [])
        }
    }

    private mutating func applyChecked(_ request: Request, at now: Seconds) throws(ProtocolError) -> (Reply, [JobEvent]) {
        switch request {
        case .begin(let id, let label, let total):
            let kind: ProgressKind = total.map { .determinate(value: 0, total: $0) } ?? .indeterminate
            do {
                let job = try ProgressJob(label: label, kind: kind, policy: policy, at: now)
                sequence += 1
                entries[id] = Entry(job: job, sequence: sequence)
            } catch {
                throw ProtocolError(field: "total", error.description)
            }
            return (.ok, [])
        case .update(let id, let value, let total, let label):
            try change(id) { (job: inout ProgressJob) throws(ProgressError) in try job.update(value: value, total: total, label: label, at: now) }
        case .label(let id, let label):
            try change(id) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel(label, at: now) }
        case .indeterminate(let id):
            try change(id) { (job: inout ProgressJob) throws(ProgressError) in try job.indeterminate(at: now) }
        case .finish(let id, let outcome):
            try change(id) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(outcome, at: now) }
            return (.ok, [JobEvent(.finished, job: id, outcome: outcome)])
        case .status:
            return (.jobs(status(at: now)), [])
        case .subscribe, .press, .snapshot:
            return (.ok, [])
        }
        return (.ok, [])
    }

    private mutating func change(_ id: String, _ body: (inout ProgressJob) throws(ProgressError) -> Void) throws(ProtocolError) {
        guard var entry = entries[id] else {
            throw ProtocolError(field: "job", "no job \"\(id)\"; send begin first (jobs are forgotten after they finish or are lost)")
        }
        do {
            try body(&entry.job)
        } catch {
            throw ProtocolError(field: Self.field(for: error), error.description)
        }
        entries[id] = entry
    }

    private static func field(for error: ProgressError) -> String? {
        switch error {
        case .invalidValue: "value"
        case .invalidTotal: "total"
        case .invalidInterval: nil
        case .indeterminateAfterDeterminate, .alreadyFinished: "op"
        }
    }

    /// Pauses or resumes job `id` (a short button press); the event to send.
    public mutating func togglePause(_ id: String, at now: Seconds) -> JobEvent? {
        guard var entry = entries[id] else { return nil }
        let paused = entry.job.pausedAt != nil
        do {
            if paused { try entry.job.resume(at: now) } else { try entry.job.pause(at: now) }
        } catch {
            return nil
        }
        entries[id] = entry
        return JobEvent(paused ? .resumed : .paused, job: id)
    }

    /// Ends job `id` as cancelled (a long press with nobody subscribed to carry it out).
    public mutating func cancel(_ id: String, at now: Seconds) -> JobEvent? {
        guard var entry = entries[id], (try? entry.job.finish(.cancelled, at: now)) != nil else { return nil }
        entries[id] = entry
        return JobEvent(.finished, job: id, outcome: .cancelled)
    }

    /// Forgets jobs that are over (finished and no longer shown, or lost); returns a `lost` event
    /// for each lost one.
    public mutating func prune(at now: Seconds) -> [JobEvent] {
        var events: [JobEvent] = []
        for (id, entry) in entries {
            switch entry.job.phase(at: now) {
            case .lost:
                events.append(JobEvent(.lost, job: id))
                entries[id] = nil
            case .hidden where entry.job.outcome != nil:
                entries[id] = nil
            default:
                break
            }
        }
        return events
    }

    /// Visible jobs, newest first, as (id, snapshot).
    public func visible(at now: Seconds) -> [(id: String, snapshot: ProgressSnapshot)] {
        entries.sorted { $0.value.sequence > $1.value.sequence }
            .map { ($0.key, $0.value.job.snapshot(at: now)) }
            .filter { $0.1.isVisible }
    }

    /// The earliest moment a job's phase changes by itself (a grace delay ending, a stall, a linger
    /// running out): when an idle service must next wake up.
    public func nextPhaseChange(after now: Seconds) -> Seconds? {
        entries.values.compactMap { $0.job.snapshot(at: now).phaseEndsAt }.filter { $0 > now }.min()
    }

    public var count: Int { entries.count }

    /// Every job, oldest first, for `status`.
    public func status(at now: Seconds) -> [JobStatus] {
        entries.sorted { $0.value.sequence < $1.value.sequence }.map { id, entry in
            let snapshot = entry.job.snapshot(at: now)
            var value: Double?, total: Double?
            if case .determinate(let v, let t) = snapshot.kind { (value, total) = (v, t) }
            return JobStatus(
                job: id, label: snapshot.label, phase: snapshot.phase.name,
                percent: snapshot.fraction.map { Int(($0 * 100).rounded(.down)) }, value: value, total: total, etaSeconds: snapshot.timeRemaining)
        }
    }
}
