import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// `headway watch [--json]`: what happens to the jobs (or to `--job`'s) as a person watching
/// expects it — begun, progress, label changes, stalls and recoveries, pauses, cancel requests,
/// ends — a line each, with the time. What the service sends events for (a begin, a pause, an
/// end) comes from its subscription, said with the job's status read at once (so that an end
/// says where the job ended); what it sends none for (progress, a label, a stall, which is
/// silence) from its status, read twice a second, a job's progress said at most once a second.
/// `--json` writes one object a line for scripts. It exits 1 when the service cannot be reached
/// or goes away.
struct WatchCommand {
    let client: Client
    let json: Bool

    /// How often the jobs' status is read, and how often one job's progress is said at most.
    static let pollInterval = 0.5
    static let progressInterval = 1.0

    func run() -> Int32 {
        let path = client.socketPath
        let clock = MonotonicClock()
        var watch = WatchLines(json: json)
        do throws(ServiceConnection.Failure) {
            let connection = try ServiceConnection(path: path, budget: 2)
            if case .error(let error) = try connection.send(.subscribe(job: client.command.job, controls: false)) {
                return client.unanswered("the service at \(path) refused to be watched: \(error)")
            }
            while true {
                connection.extend(by: 2)
                guard case .jobs(let jobs, _, _, _) = try connection.send(.status) else {
                    return client.unanswered("unexpected reply to status from \(path)")
                }
                while let event = connection.nextEvent() { emit(watch.event(event, now: clock.now)) }
                emit(watch.status(jobs.filter { client.command.job == nil || $0.job == client.command.job }, now: clock.now))
                let next = clock.now + Self.pollInterval
                while clock.now < next, !watch.wantsStatus {
                    _ = SystemIO.poll([(connection.fd, .readable)], timeout: max(0, next - clock.now))
                    try connection.receiveEvents()
                    while let event = connection.nextEvent() { emit(watch.event(event, now: clock.now)) }
                }
            }
        } catch {
            return client.unanswered(error.message)
        }
    }

    private func emit(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        SystemIO.writeAll(SystemIO.standardOutput, Array(lines.map { $0 + "\n" }.joined().utf8)[...])
    }
}

/// What `watch` says, from the service's events and its status read again and again: each job as
/// last seen, so that only what changed is said.
struct WatchLines {
    let json: Bool

    private struct Seen {
        var status: JobStatus?
        /// Begun, and not yet said (its label comes with the next status).
        var begunUnsaid = false
        /// Ended (an outcome, or "lost"), and not yet said: said with the next status.
        var endUnsaid: String?
        var progressSaidAt = -Double.infinity
        var saidPercent: Int?
        var saidValue: Double?
        var ended = false
    }

    private var jobs: [String: Seen] = [:]
    private var started = false

    init(json: Bool) { self.json = json }

    /// Whether an event waits to be said with the job's status: the status is read at once.
    var wantsStatus: Bool { jobs.values.contains { $0.begunUnsaid || $0.endUnsaid != nil } }

    /// Lines for an event of the service (a begin and an end wait for the job's status).
    mutating func event(_ event: JobEvent, now: Seconds) -> [String] {
        var lines: [String] = []
        var seen = jobs[event.job] ?? Seen()
        switch event.kind {
        case .begun:
            if let end = seen.endUnsaid { lines.append(endLine(event.job, end, seen.status)) }
            seen = Seen(begunUnsaid: true)
        case .paused, .resumed, .cancelRequested:
            lines += flushBegun(event.job, &seen)
            lines.append(line(event.job, event.kind.rawValue, seen.status, detail: event.kind == .cancelRequested ? "a long press or a stop asks its program to stop" : nil))
        case .finished, .lost:
            seen.endUnsaid = event.kind == .lost ? "lost" : (event.outcome ?? .ended).rawValue
            seen.ended = true
        }
        jobs[event.job] = seen
        return lines
    }

    private func endLine(_ id: String, _ end: String, _ status: JobStatus?) -> String {
        line(id, end, status, showing: true, detail: end == "lost" ? "nothing was heard of it for too long" : nil)
    }

    /// Lines for what changed since the status was last read.
    mutating func status(_ statuses: [JobStatus], now: Seconds) -> [String] {
        var lines: [String] = []
        let first = !started
        started = true
        for status in statuses {
            var seen = jobs[status.job] ?? Seen()
            defer { jobs[status.job] = seen }
            let before = seen.status
            seen.status = status
            lines += flushBegun(status.job, &seen)
            if let end = seen.endUnsaid {
                lines.append(endLine(status.job, end, status))
                seen.endUnsaid = nil
                continue
            }
            if first {
                // What runs as watching starts: said whole, by its phase.
                if !["hidden", "lost"].contains(status.phase) {
                    lines.append(line(status.job, status.phase, status, showing: true, label: true))
                    seen.saidPercent = status.percent
                    seen.saidValue = status.value
                    seen.progressSaidAt = now
                }
                continue
            }
            guard !seen.ended, let before else { continue }
            if status.label != before.label, let label = status.label {
                lines.append(line(status.job, "label", status, detail: DisplayText.sanitised(label)))
            }
            switch (before.phase, status.phase) {
            case (let was, "stalled") where was != "stalled":
                lines.append(line(status.job, "stalled", status, showing: true, detail: "no progress reported for a while"))
            case (let was, "stale") where was != "stale":
                lines.append(line(status.job, "stale", status, showing: true, detail: "its reporter lost sight of it"))
            case ("stalled", "active"), ("stale", "active"), ("queued", "active"):
                lines.append(line(status.job, before.phase == "queued" ? "started" : "recovered", status, showing: true))
                seen.saidPercent = status.percent
                seen.saidValue = status.value
                seen.progressSaidAt = now
            default: break
            }
            let moved = status.percent != seen.saidPercent || (status.value != seen.saidValue && status.value != nil)
            if status.phase == "active", moved, now - seen.progressSaidAt >= WatchCommand.progressInterval {
                lines.append(line(status.job, "progress", status, showing: true))
                seen.saidPercent = status.percent
                seen.saidValue = status.value
                seen.progressSaidAt = now
            }
        }
        // Jobs the status does not list (a quick job over already, one of many): what waited
        // is said as last known, and they are forgotten here too.
        let listed = Set(statuses.map(\.job))
        for id in jobs.keys.sorted() where !listed.contains(id) {
            guard var seen = jobs[id] else { continue }
            lines += flushBegun(id, &seen)
            if let end = seen.endUnsaid { lines.append(endLine(id, end, seen.status)) }
            jobs[id] = nil
        }
        return lines
    }

    /// A begun job not yet said is said before anything else about it.
    private func flushBegun(_ id: String, _ seen: inout Seen) -> [String] {
        guard seen.begunUnsaid else { return [] }
        seen.begunUnsaid = false
        seen.saidPercent = seen.status?.percent
        seen.saidValue = seen.status?.value
        return [line(id, "begun", seen.status, showing: true, label: true)]
    }

    /// One line: the time, the job, what happened, then (`showing`) its progress and ETA, (`label`)
    /// its label, and a detail.
    private func line(_ id: String, _ kind: String, _ status: JobStatus?, showing: Bool = false, label: Bool = false, detail: String? = nil) -> String {
        let wall = WallClock.now
        if json {
            var members: [(String, JSONValue)] = [("at", .number((wall * 1000).rounded() / 1000)), ("job", .string(id)), ("event", .string(kind))]
            if let status {
                members.append(("phase", .string(status.phase)))
                if let percent = status.percent { members.append(("percent", .number(Double(percent)))) }
                if let value = status.value { members.append(("value", .number(value))) }
                if let total = status.total { members.append(("total", .number(total))) }
                if let unit = status.unit { members.append(("unit", .string(unit.rawValue))) }
                if let eta = status.etaSeconds { members.append(("eta", .number(eta))) }
                if let overdue = status.overdueSeconds { members.append(("overdue", .number(overdue))) }
                if status.countdown { members.append(("countdown", .bool(true))) }
                if let text = status.label { members.append(("label", .string(text))) }
            }
            if let detail { members.append(("detail", .string(detail))) }
            return JSONValue.object(members).text
        }
        var parts = [Self.clock(wall), DisplayText.sanitised(id), kind]
        if showing, let status, let countdown = status.countdownText {
            parts.append(countdown)
        } else if showing, let status {
            if let percent = status.percent { parts.append("\(status.estimate ? "~" : "")\(percent)%") }
            if let value = status.value, let total = status.total, (total != 1 && total != 100) || status.unit != nil {
                parts.append("(\(NumberText.amounts(value, of: total, unit: status.unit)))")
            }
            if status.phase == "active", let overdue = status.overdueSeconds {
                parts.append("overdue \(DurationText.short(overdue, rounding: .down))")
            } else if status.phase == "active", let eta = status.etaSeconds {
                parts.append("ETA \(status.estimate || status.etaReported ? "~" : "")\(DurationText.short(eta, rounding: .up))")
            }
        }
        if label, let text = status?.label { parts.append("· " + DisplayText.sanitised(text)) }
        if let detail { parts.append("· " + detail) }
        return parts.joined(separator: " ")
    }

    /// `14:03:07`, the local time.
    private static func clock(_ wall: Double) -> String {
        guard let time = WallClock.local(wall) else { return "--:--:--" }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
    }
}
