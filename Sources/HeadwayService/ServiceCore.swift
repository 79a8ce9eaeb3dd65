import Headway
import HeadwayProtocol

/// A client connection, as the service knows it.
public typealias ConnectionID = Int

/// Who sent a request: the connection, and the process at its other end as the kernel vouches for
/// it (nil credentials: the service itself, or a transport without them).
public struct Peer: Sendable, Equatable {
    public var connection: ConnectionID
    public var credentials: PeerCredentials?

    public init(connection: ConnectionID, credentials: PeerCredentials?) {
        self.connection = connection
        self.credentials = credentials
    }
}

/// Something that answers request lines: the service core, or a program's own operations
/// wrapped around it (the simulator's).
public protocol LineHandler: AnyObject {
    /// Answers one request line from `peer`: the reply line and the events to deliver.
    func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent])
}

/// What a configuration's devices became: the outputs to draw on and the buttons to read.
public struct ServiceDevices {
    public var outputs: [ServiceOutput]
    public var buttons: [ButtonMonitor]

    public init(outputs: [ServiceOutput], buttons: [ButtonMonitor]) {
        self.outputs = outputs
        self.buttons = buttons
    }

    public static var none: ServiceDevices { ServiceDevices(outputs: [], buttons: []) }
}

/// The service without its I/O: jobs, who may change them, which output shows what, frame
/// scheduling, subscribers and buttons. The daemon and `headway-sim serve` run the same core;
/// only the devices differ. Not thread-safe: one loop owns it.
public final class ServiceCore: LineHandler {
    /// Jobs a `status` reply lists at most (the newest); the rest are counted as omitted.
    public static let statusLimit = 1000

    public private(set) var registry: JobRegistry
    public private(set) var devices: ServiceDevices
    public private(set) var appearance: Appearance
    public let clock: any ProgressClock
    private var subscriptions = Subscriptions()
    private var showingJobs = false

    public init(devices: ServiceDevices, policy: LifecyclePolicy = .standard, appearance: Appearance = .standard, clock: any ProgressClock, jobLimit: Int = 10_000) {
        registry = JobRegistry(policy: policy, limit: jobLimit)
        self.devices = devices
        self.appearance = appearance
        self.clock = clock
    }

    public var outputs: [ServiceOutput] { devices.outputs }

    /// Takes new devices, timings and look (a reload); jobs and subscribers stay. New jobs follow
    /// the new timings; running ones keep theirs.
    public func reconfigure(_ devices: ServiceDevices, policy: LifecyclePolicy, appearance: Appearance) {
        self.devices = devices
        registry.policy = policy
        self.appearance = appearance
        showingJobs = true  // draw every output once, even idle, so the new ones start right
    }

    // MARK: - Requests

    public func handle(line: String, from peer: Peer) -> (reply: String, events: [JobEvent]) {
        let request: Request
        do throws(ProtocolError) {
            request = try Request.parse(line)
        } catch {
            return (Reply.error(error).line, [])
        }
        let (reply, events) = handle(request, from: peer)
        return (reply.line, events)
    }

    /// Applies `request` from `peer`.
    public func handle(_ request: Request, from peer: Peer) -> (Reply, [JobEvent]) {
        let now = clock.now
        let requester = peer.credentials?.uid
        do throws(JobRefusal) {
            switch request {
            case .begin(let job, let label, let total):
                try registry.begin(job, label: label, kind: total.map { .determinate(value: 0, total: $0) } ?? .indeterminate, requester: requester, at: now)
            case .update(let job, let value, let total, let label):
                try registry.change(job, requester: requester, at: now) { (job: inout ProgressJob) throws(ProgressError) in
                    try job.update(value: value, total: total, label: label, at: now)
                }
            case .label(let job, let label):
                try registry.change(job, requester: requester, at: now) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel(label, at: now) }
            case .indeterminate(let job):
                try registry.change(job, requester: requester, at: now) { (job: inout ProgressJob) throws(ProgressError) in try job.indeterminate(at: now) }
            case .finish(let job, let outcome):
                try registry.change(job, requester: requester, at: now) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(outcome, at: now) }
                return (.ok, [JobEvent(.finished, job: job, outcome: outcome)])
            case .status:
                let (jobs, omitted) = registry.all(at: now, limit: Self.statusLimit)
                return (.jobs(jobs.map(Self.status), omitted: omitted), [])
            case .subscribe(let job):
                if let problem = subscriptions.subscribe(peer.connection, to: job) { return (.error(problem), []) }
            }
            return (.ok, [])
        } catch {
            return (.error(Self.protocolError(error)), [])
        }
    }

    static func protocolError(_ refusal: JobRefusal) -> ProtocolError {
        switch refusal {
        case .noSuchJob(let id):
            ProtocolError(field: "job", "no job \"\(id)\"; send begin first (jobs are forgotten once they are over)")
        case .belongsToAnotherUser(let id, let owner):
            ProtocolError(field: "job", "job \"\(id)\" was begun by user \(owner); only that user or root may change it")
        case .tooManyJobs(let limit):
            ProtocolError(field: "job", "the service already holds \(limit) jobs, its limit; finish jobs that are over, or wait for them to be forgotten")
        case .progress(let error):
            ProtocolError(field: field(for: error), error.description)
        }
    }

    private static func field(for error: ProgressError) -> String? {
        switch error {
        case .invalidValue: "value"
        case .invalidTotal: "total"
        case .invalidInterval: nil
        case .indeterminateAfterDeterminate, .alreadyFinished: "op"
        }
    }

    static func status(_ job: (id: String, snapshot: ProgressSnapshot)) -> JobStatus {
        let snapshot = job.snapshot
        var value: Double?, total: Double?
        if case .determinate(let v, let t) = snapshot.kind { (value, total) = (v, t) }
        return JobStatus(
            job: job.id, label: snapshot.label, phase: snapshot.phase.name,
            percent: snapshot.fraction.map { Int(($0 * 100).rounded(.down)) }, value: value, total: total, etaSeconds: snapshot.timeRemaining)
    }

    // MARK: - Subscribers and buttons

    /// The connections subscribed to events of `job`.
    public func subscribers(for job: String) -> Set<ConnectionID> { subscriptions.subscribers(for: job) }

    /// Whether `connection` follows any job (such connections may stay silent for as long as
    /// their jobs run).
    public func isSubscribed(_ connection: ConnectionID) -> Bool { subscriptions.has(connection) }

    public func disconnected(_ connection: ConnectionID) { subscriptions.remove(connection) }

    /// A button was pressed: it acts on the job shown (the newest visible one that has not ended).
    public func button(_ event: ButtonEvent) -> [JobEvent] {
        let now = clock.now
        guard let focused = registry.newestVisible(at: now, limit: 8).first(where: { $0.snapshot.phase.isRunning }) else { return [] }
        switch event {
        case .shortPress:
            let paused = focused.snapshot.phase == .paused
            do throws(JobRefusal) {
                try registry.change(focused.id, requester: nil, at: now) { (job: inout ProgressJob) throws(ProgressError) in
                    if paused { try job.resume(at: now) } else { try job.pause(at: now) }
                }
            } catch {
                return []
            }
            return [JobEvent(paused ? .resumed : .paused, job: focused.id)]
        case .longPress:
            // Whoever runs the job should stop it; with nobody listening, the service cancels it.
            guard subscribers(for: focused.id).isEmpty else { return [JobEvent(.cancelRequested, job: focused.id)] }
            do throws(JobRefusal) {
                try registry.change(focused.id, requester: nil, at: now) { (job: inout ProgressJob) throws(ProgressError) in try job.finish(.cancelled, at: now) }
            } catch {
                return []
            }
            return [JobEvent(.finished, job: focused.id, outcome: .cancelled)]
        }
    }

    // MARK: - Frames

    /// Forgets jobs that are over, reads the buttons and draws every output that is due. Returns the
    /// events to deliver (lost jobs, presses) and output failures to report.
    public func tick() -> (events: [JobEvent], failures: [String]) {
        let now = clock.now
        var events = registry.advance(to: now).filter(\.lost).map { JobEvent(.lost, job: $0.id) }
        var failures: [String] = []
        for monitor in devices.buttons {
            do throws(DeviceError) {
                let presses = try monitor.poll(timeout: 0)
                if showingJobs { for press in presses { events += button(press) } }
            } catch {
                failures.append("button: \(error.message)")
            }
        }
        let capacity = devices.outputs.map(OutputLayout.capacity).max() ?? 1
        let jobs = registry.newestVisible(at: now, limit: capacity).map(\.snapshot)
        let idle = ProgressSnapshot.idle(at: now)
        let clearing = jobs.isEmpty && showingJobs
        for output in devices.outputs where output.isDue(at: now) || clearing {
            let drawing = OutputLayout.drawing(for: output, jobs: jobs, idle: idle, appearance: appearance)
            if let failure = output.draw(drawing, at: now) { failures.append(failure) }
        }
        showingJobs = !jobs.isEmpty
        return (events, failures)
    }

    /// Draws every output idle (dark LEDs, a blank display): what stopping leaves behind unless
    /// the configuration asks to persist.
    public func clearOutputs() {
        let idle = ProgressStyleConfiguration(snapshot: .idle(at: clock.now), appearance: appearance)
        for output in devices.outputs { try? output.output.draw(idle) }
    }

    /// When the loop must next call ``tick()``: at the next frame while anything is shown, at the
    /// next phase change (a grace delay ending, a finished job to forget) otherwise, never when
    /// there is nothing at all.
    public func nextWakeup() -> Seconds? {
        if showingJobs || registry.visibleCount > 0 {
            return devices.outputs.map(\.nextFrame).min() ?? registry.nextChange()
        }
        return registry.nextChange()
    }
}

extension JobPhase {
    /// Shown and not yet ended (active, stalled or paused).
    var isRunning: Bool {
        switch self {
        case .active, .stalled, .paused: true
        default: false
        }
    }
}
