import Headway
import HeadwayProtocol

/// The service without its I/O: jobs, layout of jobs onto outputs, frame scheduling, subscribers and
/// buttons. The daemon and `headway-sim serve` run the same core; only the devices differ.
///
/// Not thread-safe: one loop owns it.
public final class ServiceCore {
    public typealias ConnectionID = Int

    public private(set) var registry: JobRegistry
    public let outputs: [ServiceOutput]
    public let appearance: Appearance
    public let clock: any ProgressClock
    /// What only the simulator can do: press its virtual button, write its devices' pictures.
    public struct SimulatorHooks {
        public var press: (Bool) -> Void
        /// Writes the pictures to a folder; returns an error message or nil.
        public var snapshot: (String) -> String?

        public init(press: @escaping (Bool) -> Void, snapshot: @escaping (String) -> String?) {
            self.press = press
            self.snapshot = snapshot
        }
    }

    private let simulator: SimulatorHooks?

    /// Buttons, read on every tick (a press matters only while a job is shown, and jobs are
    /// ticked while shown); presses made while nothing is shown are dropped.
    public let buttons: [ButtonMonitor]

    private var subscribers: [ConnectionID: Set<String>?] = [:]
    private var showingJobs = false
    private var lastTick = -Double.infinity

    public init(
        outputs: [ServiceOutput], buttons: [ButtonMonitor] = [], policy: LifecyclePolicy = .standard, appearance: Appearance = .standard,
        clock: any ProgressClock, simulator: SimulatorHooks? = nil
    ) {
        registry = JobRegistry(policy: policy)
        self.outputs = outputs
        self.buttons = buttons
        self.appearance = appearance
        self.clock = clock
        self.simulator = simulator
    }

    /// Handles one request line from `connection`; returns the reply line and events to deliver.
    public func handle(line: String, from connection: ConnectionID) -> (reply: String, events: [JobEvent]) {
        let request: Request
        do throws(ProtocolError) {
            request = try Request.parse(line)
        } catch {
            return (Reply.error(error).line, [])
        }
        switch request {
        case .subscribe(let job):
            if let job {
                var jobs = subscribers[connection] ?? Set<String>()
                jobs?.insert(job)
                subscribers[connection] = jobs
            } else {
                subscribers[connection] = .some(nil)
            }
            return (Reply.ok.line, [])
        case .press(let long):
            guard let simulator else {
                return (Reply.error(ProtocolError(field: "op", "press is only for the simulator's virtual button")).line, [])
            }
            simulator.press(long)
            return (Reply.ok.line, [])
        case .snapshot(let folder):
            guard let simulator else {
                return (Reply.error(ProtocolError(field: "op", "snapshot is only for the simulator")).line, [])
            }
            if let problem = simulator.snapshot(folder) { return (Reply.error(ProtocolError(field: "folder", problem)).line, []) }
            return (Reply.ok.line, [])
        default:
            let (reply, events) = registry.apply(request, at: clock.now)
            return (reply.line, events)
        }
    }

    /// A button was pressed: it acts on the job shown (the newest visible one).
    public func button(_ event: ButtonEvent) -> [JobEvent] {
        let now = clock.now
        guard let focused = registry.visible(at: now).first(where: { !isFinished($0.snapshot) }) else { return [] }
        switch event {
        case .shortPress:
            return registry.togglePause(focused.id, at: now).map { [$0] } ?? []
        case .longPress:
            // Whoever runs the job should stop it; with nobody listening, the service cancels it.
            if subscribers(for: focused.id).isEmpty { return registry.cancel(focused.id, at: now).map { [$0] } ?? [] }
            return [JobEvent(.cancelRequested, job: focused.id)]
        }
    }

    private func isFinished(_ snapshot: ProgressSnapshot) -> Bool {
        if case .finished = snapshot.phase { return true }
        return false
    }

    /// The connections subscribed to events of `job`.
    public func subscribers(for job: String) -> [ConnectionID] {
        subscribers.compactMap { connection, jobs in (jobs == nil || jobs!.contains(job)) ? connection : nil }
    }

    public func disconnected(_ connection: ConnectionID) { subscribers[connection] = nil }

    /// Forgets finished and lost jobs and draws every output that is due. Returns the events
    /// (lost jobs) and output failures to report.
    public func tick() -> (events: [JobEvent], failures: [String]) {
        let now = clock.now
        lastTick = now
        var events = registry.prune(at: now)
        var failures: [String] = []
        for monitor in buttons {
            do throws(DeviceError) {
                let presses = try monitor.poll(timeout: 0)
                if showingJobs { for press in presses { events += button(press) } }
            } catch {
                failures.append("button: \(error.message)")
            }
        }
        let visible = registry.visible(at: now)
        let idle = ProgressStyleConfiguration(snapshot: .idle(at: now), appearance: appearance)
        for output in outputs where output.isDue(at: now) || (visible.isEmpty && showingJobs) {
            let configurations: [ProgressStyleConfiguration]
            if visible.isEmpty {
                configurations = [idle]
            } else if output.output.canShowSegments, visible.count > 1 {
                configurations = visible.reversed().map { ProgressStyleConfiguration(snapshot: $0.snapshot, appearance: appearance) }
            } else {
                configurations = [ProgressStyleConfiguration(snapshot: visible[0].snapshot, appearance: appearance)]
            }
            if let failure = output.draw(configurations, at: now) { failures.append(failure) }
        }
        showingJobs = !visible.isEmpty
        return (events, failures)
    }

    /// Draws every output idle (dark LEDs, a blank display): what stopping leaves behind unless
    /// the configuration asks to persist.
    public func clearOutputs() {
        let idle = ProgressStyleConfiguration(snapshot: .idle(at: clock.now), appearance: appearance)
        for output in outputs { _ = try? output.output.draw(idle) }
    }

    /// When the loop must next call ``tick()``: soon while anything is shown (animation), at the
    /// next phase change (a grace delay ending) otherwise, never when there is nothing at all.
    public func nextWakeup() -> Seconds? {
        let now = clock.now
        if !registry.visible(at: now).isEmpty || showingJobs {
            let fastest = outputs.map(\.framesPerSecond).max() ?? 30
            return lastTick + 1 / fastest
        }
        return registry.nextPhaseChange(after: now)
    }
}
