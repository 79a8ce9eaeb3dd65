import Headway
import HeadwayProtocol

/// What people do to jobs through the service (subscribe to them, press the board's button, stop
/// them), and the tick that composes the parts.
extension ServiceCore {
    /// The connections subscribed to events of `job`.
    public func subscribers(for job: String) -> Set<ConnectionID> { subscriptions.subscribers(for: job) }

    /// Whether `connection` follows any job (such connections may stay silent for as long as
    /// their jobs run).
    public func isSubscribed(_ connection: ConnectionID) -> Bool { subscriptions.has(connection) }

    /// A client went away. A job it paused for its command cannot stay paused: it is resumed.
    public func disconnected(_ connection: ConnectionID) -> [JobEvent] {
        let now = clock.now
        var events: [JobEvent] = []
        for job in subscriptions.remove(connection) where registry[job]?.job.pausedAt != nil {
            if (try? setPausedByService(job, false, at: now)) != nil { events.append(JobEvent(.resumed, job: job)) }
        }
        return events
    }

    private func setPausedByService(_ id: String, _ pause: Bool, at now: Seconds) throws(ProtocolError) {
        try change(id, nil, now) { (job: inout ProgressJob) throws(ProgressError) in
            if pause { try job.pause(at: now) } else { try job.resume(at: now) }
        }
    }

    /// The job a person at the board sees: the one the first single-job output shows, else the newest.
    func focusedJob(at now: Seconds) -> (id: String, snapshot: ProgressSnapshot)? {
        let shown = devices.outputs.lazy.compactMap(\.layout.focused).first { self.registry.isVisible($0) }
        if let shown, let entry = registry[shown] { return (shown, entry.job.snapshot(at: now)) }
        return registry.newestVisible(at: now, limit: 1).first
    }

    /// A button was pressed: it acts on the job shown. A short press pauses or resumes it when
    /// something can really pause it (its controller, `headway run`); a long press (held: the
    /// confirmation) asks whoever runs it to cancel, or cancels it when nobody listens.
    public func button(_ event: ButtonEvent) -> [JobEvent] {
        let now = clock.now
        guard let focused = focusedJob(at: now), focused.snapshot.phase.isRunning else { return [] }
        switch event {
        case .shortPress:
            guard (try? setPaused(focused.id, focused.snapshot.phase != .paused, requester: nil, at: now)) != nil else {
                logger.info("button: job \(focused.id) cannot be paused (nothing that runs it can stop it)")
                return []
            }
            return [JobEvent(focused.snapshot.phase == .paused ? .resumed : .paused, job: focused.id)]
        case .longPress:
            return (try? stop(focused.id, requester: nil, at: now)) ?? []
        }
    }

    /// Asks for a job to stop (a long press, or `stop`): its controller is told to cancel it;
    /// a job nobody controls is cancelled here.
    func stop(_ id: String, requester: UInt32?, at now: Seconds) throws(ProtocolError) -> [JobEvent] {
        if isUnitJob(id) { return try stopUnitJob(id) }
        guard subscriptions.controller(of: id) == nil else {
            guard let entry = registry[id] else { throw Self.protocolError(.noSuchJob(id)) }
            if let outcome = entry.job.outcome { throw ProtocolError(.alreadyFinished(outcome)) }
            return [JobEvent(.cancelRequested, job: id)]
        }
        try finish(id, .cancelled, requester: requester, at: now)
        return [JobEvent(.finished, job: id, outcome: .cancelled)]
    }

    /// Forgets jobs that are over, reads the buttons and draws every output that is due, each as
    /// its layout, a timer's countdown and quiet hours make it. Returns the events to deliver (lost
    /// jobs, presses) and output failures to report.
    public func tick() -> (events: [JobEvent], failures: [String]) {
        let now = clock.now
        let advance = registry.advance(to: now)
        var events = advance.departures.filter(\.lost).map { JobEvent(.lost, job: $0.id) }
        for id in advance.ranOut {
            guard (try? finish(id, .succeeded, requester: nil, at: now)) != nil else { continue }
            events.append(JobEvent(.finished, job: id, outcome: .succeeded))
        }
        var failures: [String] = []
        for monitor in devices.buttons {
            do throws(DeviceError) {
                for press in try monitor.poll(timeout: 0) { events += self.press(press, at: now) }
            } catch {
                failures.append("button: \(error.message)")
            }
        }
        let local = localNow
        let visible = registry.visibleCount
        failures += scheduler.draw(devices.outputs, registry: registry, focus: settings.focus, at: now, recorder: frameRecorder, clock: clock) { output, jobs in
            let countdown = countdownSnapshot(for: output, at: now)
            let chosen = output.layout.drawing(
                for: output, jobs: jobs, visibleCount: visible, focus: settings.focus, idle: countdown ?? .idle(at: now), appearance: settings.appearance)
            output.showedCountdown = countdown != nil && output.layout.shownJobs.isEmpty
            return quietHours.adjusted(chosen, for: output, at: now, local, appearance: settings.appearance)
        }
        keepJobs(at: now)
        return (events, failures)
    }

    /// Draws every output idle (dark LEDs, a blank display): what stopping leaves behind unless
    /// the configuration asks to persist.
    public func clearOutputs() {
        let idle = ProgressStyleConfiguration(snapshot: .idle(at: clock.now), appearance: settings.appearance)
        for output in devices.outputs { try? output.output.draw(idle) }
    }

    /// When the loop must next call ``tick()``: at the next frame while anything is shown, at the
    /// next phase change (a grace delay ending, a finished job to forget) otherwise, never when
    /// there is nothing at all.
    public func nextWakeup() -> Seconds? {
        if scheduler.showingJobs || registry.visibleCount > 0 {
            return [scheduler.nextFrame(devices.outputs) ?? registry.nextChange(), keepingWakeup].compactMap { $0 }.min()
        }
        return [registry.nextChange(), quietHours.wakeup(devices.outputs), countdownWakeup(at: clock.now), keepingWakeup].compactMap { $0 }.min()
    }
}

extension JobPhase {
    /// Shown and not yet ended (active, queued, stalled, paused or stale).
    var isRunning: Bool {
        switch self {
        case .active, .queued, .stalled, .paused, .stale: true
        default: false
        }
    }
}
