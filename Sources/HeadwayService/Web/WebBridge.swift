import Headway
import HeadwayProtocol
import HeadwaySystem

/// The page's side of the service's loop: it asks the core as a client does (`status`, `pause`,
/// `resume`, `stop`, through the core's own request handling), reads what each output last showed
/// (``ShownRecord``), and publishes to the ``WebHub`` only what changed (a patch of the
/// ``PageState``), only while a page is open. Runs on the loop's thread, as everything that
/// touches the core does.
final class WebBridge {
    /// The job list is looked at at most this often while a page is open.
    static let jobsPeriod: Seconds = 0.1
    /// A page that fell behind is looked at this often until it can be sent the whole state.
    static let catchUpPeriod: Seconds = 0.1
    /// Names the history shows at most, and job names the metrics keep series for.
    static let historyNames = 50
    static let metricNames = 100

    let hub: WebHub
    let core: ServiceCore
    /// Hands events the core returns to their subscribers (a paused job's `headway run`).
    let deliver: ([JobEvent]) -> Void
    /// The peer the page's requests come from: the service itself, as a button press does.
    static let peer = Peer(connection: -1, credentials: nil)

    /// What the pages were last sent, and for which outputs (a reload makes new ones).
    private var page = PageState()
    private var outputs: [ObjectIdentifier] = []
    private var pacing = OutputPacing(versions: [], at: 0)
    private var jobsLookedAt = -Double.infinity
    private var historyVersion = -1
    private var pendingUntil: Seconds?
    private var about = JSONValue.object([])
    private var aboutChanged = true
    private var watching = false

    // Metrics kept on the loop.
    private var durations: [String: MetricsText.Histogram] = [:]
    private(set) var requests = 0
    private(set) var refused = 0

    init(hub: WebHub, core: ServiceCore, deliver: @escaping ([JobEvent]) -> Void) {
        self.hub = hub
        self.core = core
        self.deliver = deliver
        core.durations.onRecord = { [unowned self] name, outcome, seconds in
            let key = durations[name] != nil || durations.count < Self.metricNames ? name : "other"
            durations[key + "\t" + outcome.rawValue, default: MetricsText.Histogram()].observe(seconds)
        }
    }

    /// What the page says of the configuration and the machine (at start and after a reload).
    func setAbout(_ configuration: ServiceConfiguration, doctor: String) {
        about = .object([("configuration", .string(WebDescription.configuration(configuration))), ("doctor", .string(WebDescription.lines(doctor)))])
        aboutChanged = true
        publish()
    }

    /// The loop's source: woken by questions and new viewers, and at the deadline of a frame held
    /// back (``OutputPacing``), of the job list's next look, or of a page catching up.
    var source: ServiceServer.Source {
        ServiceServer.Source(fd: hub.wakeDescriptor, deadline: pendingUntil) { [unowned self] in
            for question in hub.takeRequests() { answer(question) }
            publish()
        }
    }

    /// After every tick: publishes what changed, when a page is open; nothing else.
    func afterTick() { publish() }

    /// Counts a request line the core answered (for the metrics).
    func counted(reply: String) {
        requests += 1
        if reply.hasPrefix("{\"v\":1,\"ok\":false") { refused += 1 }
        // A request may change a job between ticks (a job in its grace delay draws nothing):
        // while a page is open, the job list is looked at again by the bridge's deadline.
        if watching {
            let due = jobsLookedAt + Self.jobsPeriod
            pendingUntil = min(pendingUntil ?? due, due)
        }
    }

    // MARK: - Questions

    private func answer(_ question: WebHub.Question) {
        switch question.kind {
        case .request(let request):
            let (reply, events) = core.handle(request, from: Self.peer)
            deliver(events)
            question.reply(reply.line)
            jobsLookedAt = -.infinity  // the change shows at once
        case .metrics:
            question.reply(metricsText())
        case .state:
            jobsLookedAt = -.infinity
            let state = PageState(outputs: core.outputs.map(WebDescription.output), jobs: jobsJSON(at: core.clock.now), history: historyJSON(), about: about)
            question.reply(state.whole.text)
        }
    }

    // MARK: - Publishing

    private func publish() {
        guard hub.hasViewers else {
            if watching {
                // Everyone left: what was published is stale by the time someone comes back.
                watching = false
                page = PageState()
                outputs = []
                jobsLookedAt = -.infinity
                historyVersion = -1
                aboutChanged = true
                pendingUntil = nil
            }
            return
        }
        watching = true
        let now = core.clock.now
        let identities = core.outputs.map(ObjectIdentifier.init)
        if identities != outputs {
            // New outputs (the first page, a reload): every page gets the whole state afresh.
            outputs = identities
            page.replace(outputs: core.outputs.map(WebDescription.output))
            pacing = OutputPacing(versions: core.outputs.map { $0.indicatorOutput.shown?.version }, at: now)
            hub.restart()
        }
        var changes = PageState.Changes()
        let versions = core.outputs.map { $0.indicatorOutput.shown?.version }
        let (send, lookAgain) = pacing.due(versions: versions, nextFrames: core.outputs.map(\.nextFrame), at: now)
        changes.outputs = send.map { ($0, WebDescription.output(core.outputs[$0])) }
        pendingUntil = lookAgain
        if now - jobsLookedAt >= Self.jobsPeriod {
            jobsLookedAt = now
            changes.jobs = jobsJSON(at: now)
        } else {
            let due = jobsLookedAt + Self.jobsPeriod
            pendingUntil = min(pendingUntil ?? due, due)
        }
        if historyVersion != core.durations.version {
            historyVersion = core.durations.version
            changes.history = historyJSON()
        }
        if aboutChanged {
            aboutChanged = false
            changes.about = about
        }
        let patch = page.update(changes)
        if hub.publish(patch: patch?.text, state: { page.whole.text }) {
            let due = now + Self.catchUpPeriod
            pendingUntil = min(pendingUntil ?? due, due)
        }
    }

    /// The jobs as `status` gives them, with what the page adds: where each comes from, whether
    /// it can be paused and cancelled (and what cancelling loses), how long it has run, what its
    /// name's past runs took. Each job is a member of `byId`, in the order `order` gives, so that
    /// a patch names the jobs that changed and only their members that did.
    func jobsJSON(at now: Seconds) -> JSONValue {
        guard case .jobs(let statuses, let omitted, let quiet, let timers) = core.handle(.status, from: Self.peer).0 else { return .object([]) }
        let jobs: [(String, JSONValue)] = statuses.map { status in
            let id = DisplayText.sanitised(status.job)
            let entry = core.registry[status.job]
            let controlled = core.subscriptions.controller(of: status.job) != nil
            let unit = core.units.isRunning(status.job)
            let running = ["active", "queued", "stalled", "paused", "stale"].contains(status.phase)
            var members: [(String, JSONValue)] = [
                ("id", .string(id)), ("phase", .string(status.phase)),
                ("source", .string(Self.source(entry?.job.liveness, controlled: controlled, unit: unit))),
                ("pausable", .bool(controlled && (status.phase == "active" || status.phase == "stalled" || status.phase == "paused"))),
                ("cancellable", .bool(running && (!unit || controlled))),
                ("cancelLoses", .string(Self.cancelLoses(status, controlled: controlled, unit: unit))),
                ("shown", .bool(status.shown)), ("estimate", .bool(status.estimate)), ("etaReported", .bool(status.etaReported)),
            ]
            if let label = status.label { members.append(("label", .string(DisplayText.sanitised(label)))) }
            if let percent = status.percent { members.append(("percent", .number(Double(percent)))) }
            if let value = status.value { members.append(("value", .number(value))) }
            if let total = status.total { members.append(("total", .number(total))) }
            if let eta = status.etaSeconds { members.append(("eta", .number(eta.rounded()))) }
            if let overdue = status.overdueSeconds { members.append(("overdue", .number(overdue.rounded()))) }
            if status.countdown { members.append(("countdown", .bool(true))) }
            if let reason = status.reason { members.append(("reason", .string(DisplayText.sanitised(reason)))) }
            if let entry {
                members.append(("elapsed", .number(entry.job.runningTime(at: now).rounded())))
                if let name = entry.name {
                    members.append(("name", .string(DisplayText.sanitised(name))))
                    if let expected = core.durations.expected(for: name) { members.append(("learned", .number(expected.rounded()))) }
                }
            }
            return (id, .object(members))
        }
        var members: [(String, JSONValue)] = [("order", .array(jobs.map { .string($0.0) })), ("byId", .object(jobs))]
        if omitted > 0 { members.append(("omitted", .number(Double(omitted)))) }
        if let quiet { members.append(("quiet", .string(quiet.summary))) }
        if !timers.isEmpty { members.append(("timers", .array(timers.map { .string($0.summary) }))) }
        return .object(members)
    }

    static func source(_ liveness: Liveness?, controlled: Bool, unit: Bool) -> String {
        if unit { return "systemd unit" }
        if controlled { return "headway run" }
        switch liveness {
        case .followed?: return "follower (CI, a broker)"
        case .process?: return "hook (its process watched)"
        case .heartbeat?: return "reporter (heartbeats)"
        case .owned?: return "the service"
        default: return "reporter"
        }
    }

    /// What cancelling a job loses, for the confirmation.
    static func cancelLoses(_ status: JobStatus, controlled: Bool, unit: Bool) -> String {
        let done = status.percent.map { "\($0) % done" } ?? "the work done so far"
        if unit && !controlled { return "This systemd unit can only be stopped with systemctl." }
        if controlled {
            return "Its command is stopped (SIGTERM, as a long press of the button does): \(done) is lost unless the command can resume where it stopped."
        }
        return "Nothing here can stop the work itself: the job is only marked cancelled and taken off the display, and the program reporting it goes on."
    }

    func historyJSON() -> JSONValue {
        let history = core.durations.history
        let names = history.recency.suffix(Self.historyNames).reversed()
        return .object([("names", .array(names.map { name in
            var members: [(String, JSONValue)] = [("name", .string(DisplayText.sanitised(name)))]
            if let expected = history.expected(for: name) { members.append(("learned", .number((expected * 10).rounded() / 10))) }
            let runs = history.recent[name] ?? history.runs[name, default: []].map { DurationHistory.Run(duration: $0, outcome: .succeeded) }
            members.append(("runs", .array(runs.map { run in
                var entry: [(String, JSONValue)] = [("seconds", .number((run.duration * 10).rounded() / 10)), ("outcome", .string(run.outcome.rawValue))]
                if let ended = run.endedAt { entry.append(("ended", .number(ended.rounded()))) }
                return .object(entry)
            })))
            return .object(members)
        }))])
    }

    // MARK: - Metrics

    func metricsText() -> String {
        var text = MetricsText()
        let now = core.clock.now
        var phases: [String: Int] = [:]
        for phase in ["queued", "active", "stalled", "paused", "stale", "succeeded", "failed", "cancelled"] { phases[phase] = 0 }
        var followed: [String: Int] = [:]
        // Every job the service holds, not the page `status` lists.
        for job in core.registry.all(at: now, limit: .max).jobs {
            phases[job.snapshot.phase.name, default: 0] += 1
            if case .followed? = core.registry[job.id]?.job.liveness { followed[job.snapshot.phase.name, default: 0] += 1 }
        }
        text.family("headway_jobs", "gauge", "Jobs the service holds, by phase.")
        for (phase, count) in phases.sorted(by: { $0.key < $1.key }) { text.sample("headway_jobs", [("phase", phase)], Double(count)) }
        text.family("headway_followed_jobs", "gauge", "Jobs a follower (headway-ci, the MQTT bridge) reports, by phase; stale ones lost their follower.")
        for (phase, count) in followed.sorted(by: { $0.key < $1.key }) { text.sample("headway_followed_jobs", [("phase", phase)], Double(count)) }
        text.family("headway_job_duration_seconds", "histogram", "How long jobs ran, by job name and outcome, since the service started.")
        for (key, histogram) in durations.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\t", maxSplits: 1).map(String.init)
            text.histogram("headway_job_duration_seconds", [("name", DisplayText.sanitised(parts[0])), ("outcome", parts.count > 1 ? parts[1] : "")], histogram)
        }
        text.family("headway_requests_total", "counter", "Request lines clients sent the service (updates, begins, finishes …), by result.")
        text.sample("headway_requests_total", [("result", "ok")], Double(requests - refused))
        text.sample("headway_requests_total", [("result", "refused")], Double(refused))
        let records = core.outputs.map { ($0.name, $0.indicatorOutput.shown?.current ?? ShownFrame()) }
        text.family("headway_output_frames_total", "counter", "Frames each output's driver took that changed what it shows.")
        for (name, frame) in records { text.sample("headway_output_frames_total", [("output", name)], Double(frame.frames)) }
        text.family("headway_output_frame_bytes_total", "counter", "Bytes of those frames handed to each driver (a display's driver sends only what changed).")
        for (name, frame) in records { text.sample("headway_output_frame_bytes_total", [("output", name)], Double(frame.bytes)) }
        text.family("headway_output_errors_total", "counter", "Frames each output's bus or device refused.")
        for (name, frame) in records { text.sample("headway_output_errors_total", [("output", name)], Double(frame.errors)) }
        text.family("headway_output_recoveries_total", "counter", "Times an output worked again after errors.")
        for (name, frame) in records { text.sample("headway_output_recoveries_total", [("output", name)], Double(frame.recoveries)) }
        text.family("headway_output_failing", "gauge", "1 while an output's last frame failed.")
        for (name, frame) in records { text.sample("headway_output_failing", [("output", name)], frame.failure == nil ? 0 : 1) }
        text.family("headway_web_viewers", "gauge", "Pages open (live event streams).")
        text.sample("headway_web_viewers", [], Double(hub.viewerCount))
        text.family("headway_web_pushed_bytes_total", "counter", "Bytes pushed to open pages.")
        text.sample("headway_web_pushed_bytes_total", [], Double(hub.bytesPushed))
        return text.text
    }
}
