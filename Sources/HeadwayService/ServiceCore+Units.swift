import Headway
import HeadwayProtocol

/// What the service knows of the systemd units it watches (`watch: units:`).
struct UnitJobs {
    /// The units the configuration names.
    var watched: Set<String> = []
    /// The last state of every unit followed (the watched ones and the timers that start them).
    var states: [String: UnitState] = [:]
    /// The watched units whose run is a job now, by name (the job's id), with what was said of
    /// stopping it.
    var running: [String: RunningUnit] = [:]
    /// Why a unit's last run failed, for status.
    var reasons: [String: String] = [:]
    /// Units reported as missing or unreadable (each once, until that changes).
    var reported: Set<String> = []

    struct RunningUnit {
        /// Somebody asked for the unit to stop while it ran (systemctl stop, a cancel through the
        /// service, the command under `headway run` interrupted): an end that is not a success
        /// is a cancellation.
        var stopRequested = false
    }
}

/// systemd units as jobs: a watched unit's run is a job whose id and name are the unit's name, its
/// label the unit's Description, its end and outcome the unit's own (its Result). Its durations are
/// learned like any named job's, so a unit that reports no progress shows an estimate from past
/// runs; a `headway run` inside the unit reports its progress into the same job.
///
/// Which runs are jobs: a Type=oneshot service, or a service a timer starts, is expected to end —
/// its job lasts from leaving inactive until it is inactive or failed again (a oneshot with
/// RemainAfterExit=yes: until it is active). Any other service runs for long: its job is its
/// start-up only (activating, usually too short to be shown), and a failure is shown when it
/// fails. The job is the service's own (``Liveness/owned``): never stalled or lost for silence,
/// ended only by the unit.
extension ServiceCore {
    /// The units the configuration watches now. A unit no longer watched stops being followed: its
    /// running job ends with no known result.
    public func watchUnits(_ names: [String]) -> [JobEvent] {
        units.watched = Set(names)
        var events: [JobEvent] = []
        for name in units.running.keys where !units.watched.contains(name) {
            logger.info("\(name) is no longer watched; its job ends without a known result")
            events += endUnitJob(name, .ended, reason: nil)
        }
        units.reported = units.reported.intersection(units.watched)
        return events
    }

    /// Applies what systemd said; returns the events for subscribers.
    public func unit(_ event: UnitEvent) -> [JobEvent] {
        switch event {
        case .state(let state):
            return unitChanged(state)
        case .jobQueued(let name):
            // A job for a unit already running (its start is done): a stop, or a restart.
            if units.running[name] != nil, units.states[name]?.activeState == "active" { units.running[name]?.stopRequested = true }
        case .jobRemoved(let name, let result):
            // A start replaced by a stop ends "canceled" (org.freedesktop.systemd1(5), JobRemoved).
            if result == "canceled", units.running[name] != nil { units.running[name]?.stopRequested = true }
        case .unavailable(let reason):
            logger.warning("systemd units are not watched: \(reason); the rest works as before")
            var events: [JobEvent] = []
            for name in Array(units.running.keys) { events += endUnitJob(name, .ended, reason: nil) }
            return events
        case .available:
            logger.info("systemd units are watched again")
        }
        return []
    }

    private func unitChanged(_ state: UnitState) -> [JobEvent] {
        let name = state.name
        let previous = units.states[name]
        units.states[name] = state
        guard units.watched.contains(name), !state.isTimer else { return [] }
        if let problem = state.problem {
            if units.reported.insert(name).inserted { logger.warning("watched unit \(name) cannot be followed: \(problem); the other units are") }
            return []
        }
        if state.isMissing {
            if units.reported.insert(name).inserted {
                logger.warning("watched unit \(name) does not exist (LoadState \(state.loadState ?? "?")): nothing shows for it; check the name (systemctl list-unit-files '\(name)'), or remove it from watch: units")
            }
            return units.running[name] != nil ? endUnitJob(name, .ended, reason: nil) : []
        }
        if units.reported.remove(name) != nil { logger.info("watched unit \(name) is there now") }
        let working = isWorking(state)
        if units.running[name] != nil {
            return working ? [] : endUnitJob(name, outcome(of: state), reason: state.failureReason)
        }
        if working { return beginUnitJob(state) }
        // A failure whose run was not seen (over before its signals came, or a long-running
        // service that failed): shown all the same, a failure is always news.
        if state.activeState == "failed", let previous, previous.activeState != "failed" {
            return beginUnitJob(state) + endUnitJob(name, .failed, reason: state.failureReason)
        }
        return []
    }

    /// Whether `state` is a run the service shows as a job (see the extension's comment).
    private func isWorking(_ state: UnitState) -> Bool {
        guard state.endsByItself else { return state.activeState == "activating" }
        if state.serviceType == "oneshot", state.activeState == "active" { return false }
        return state.isUp
    }

    /// How a run that ended went, from its Result (org.freedesktop.systemd1(5), "Service Unit
    /// Objects": success, exit-code, signal, core-dump, timeout, watchdog, oom-kill, …) and
    /// whether somebody stopped it.
    private func outcome(of state: UnitState) -> Outcome {
        let stopped = units.running[state.name]?.stopRequested == true
        if state.result == "success" || state.result == nil, state.activeState != "failed" { return stopped ? .cancelled : .succeeded }
        if stopped, ["signal", "exit-code", "success"].contains(state.result ?? "success") { return .cancelled }
        return .failed
    }

    private func beginUnitJob(_ state: UnitState) -> [JobEvent] {
        let now = clock.now
        let name = state.name
        let description = state.description.map(DisplayText.sanitised).flatMap { $0.isEmpty ? nil : $0 } ?? name
        var label = DisplayText.truncated(description, maxBytes: WireProtocol.maxLabelBytes)
        var kind = ProgressKind.indeterminate
        // The run began when the unit left inactive (it may have begun before the service did).
        var start = min(now, state.startedAt ?? now)
        if let entry = registry[name], entry.job.outcome == nil {
            // `headway run` in the unit spoke first: its job becomes the unit's, with its progress.
            if entry.job.kind.isDeterminate { kind = entry.job.kind }
            if let own = entry.job.label, own != name { label = own }
            start = min(start, entry.job.startedAt)
            logger.info("\(name): the unit's job takes over the job its command began")
        }
        let expected = kind == .indeterminate ? durations.expected(for: name) : nil
        do {
            let job = try ProgressJob(
                label: label, kind: kind, policy: settings.policy, liveness: .owned, expectedDuration: expected, startedAt: start, at: now)
            try registry.begin(name, job, name: name, requester: nil, at: now)
        } catch {
            logger.warning("\(name) started, but its job cannot be shown: \(error)")
            return []
        }
        units.running[name] = UnitJobs.RunningUnit()
        units.reasons[name] = nil
        noteBeginning()
        return [JobEvent(.begun, job: name)]
    }

    private func endUnitJob(_ name: String, _ outcome: Outcome, reason: String?) -> [JobEvent] {
        units.running[name] = nil
        let now = clock.now
        guard let entry = registry[name], entry.job.outcome == nil else { return [] }
        let took = DurationText.short(entry.job.runningTime(at: now))
        do throws(ProtocolError) {
            try finish(name, outcome, requester: nil, at: now)
        } catch {
            return []
        }
        if outcome == .failed {
            units.reasons[name] = reason
            logger.warning("\(name) failed after \(took)\(reason.map { ": \($0)" } ?? "")")
        } else {
            logger.info("\(name) \(outcome) after \(took)")
        }
        return [JobEvent(.finished, job: name, outcome: outcome)]
    }

    /// A job that follows a running unit, when `id` names one.
    func isUnitJob(_ id: String) -> Bool {
        guard units.running[id] != nil, let entry = registry[id] else { return false }
        return entry.job.outcome == nil
    }

    /// `begin` from a client for a unit's running job (`headway run` in the unit, whose job id is
    /// the unit's name): the job stays the unit's, and takes the command's label and total.
    func adoptBegin(_ id: String, _ options: BeginOptions, requester: UInt32?, at now: Seconds) throws(ProtocolError) {
        try change(id, requester, now) { (job: inout ProgressJob) throws(ProgressError) in
            if let label = options.label, label != id { try job.setLabel(label, at: now) }
            if let total = options.total, !job.kind.isDeterminate { try job.update(value: 0, total: total, at: now) }
        }
    }

    /// A client says how a unit's job ended (the command under `headway run` ended): the unit's
    /// own end decides; a cancelled command means somebody stopped it.
    func noteCommandEnd(_ id: String, _ outcome: Outcome) {
        if outcome == .cancelled { units.running[id]?.stopRequested = true }
    }

    /// Asks for a unit's job to stop: its command (`headway run`) is told to cancel; a unit with
    /// nothing to tell is not the service's to stop.
    func stopUnitJob(_ id: String) throws(ProtocolError) -> [JobEvent] {
        guard subscriptions.controller(of: id) != nil else {
            throw ProtocolError(.notControllable, field: "job", "job \"\(id)\" is the systemd unit \(id); stop it with: sudo systemctl stop \(id)")
        }
        units.running[id]?.stopRequested = true
        return [JobEvent(.cancelRequested, job: id)]
    }

    /// The timers followed, for `status`: when each next starts its unit.
    var timerStatuses: [TimerStatus] {
        let now = clock.now
        let wall = wallClock()
        return units.states.values.filter(\.isTimer).sorted { $0.name < $1.name }.map { state in
            let next = state.timer?.next(now: now, wallNow: wall).flatMap { $0 > now ? $0 : nil }
            return TimerStatus(
                unit: state.name, triggers: state.timer?.unit,
                at: next.map { localTime(wall + ($0 - now)).timeOfDay.text }, inSeconds: next.map { $0 - now })
        }
    }
}
