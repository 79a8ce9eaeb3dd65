import Headway
import HeadwayProtocol

/// systemd units as jobs: a watched unit's run is a job whose id and name are the unit's name, its
/// label the unit's Description, its end and outcome the unit's own (its Result), decided by the
/// ``UnitFollower``. Its durations are learned like any named job's, so a unit that reports no
/// progress shows an estimate from past runs; a `headway run` inside the unit reports its progress
/// into the same job.
extension ServiceCore {
    /// The units the configuration watches now.
    public func watchUnits(_ names: [String]) -> [JobEvent] { perform(units.watch(names, logger: logger)) }

    /// Applies what systemd said; returns the events for subscribers.
    public func unit(_ event: UnitEvent) -> [JobEvent] { perform(units.apply(event, logger: logger)) }

    private func perform(_ actions: [UnitFollower.Action]) -> [JobEvent] {
        actions.flatMap { action -> [JobEvent] in
            switch action {
            case .begin(let state): beginUnitJob(state)
            case .end(let name, let outcome, let reason): endUnitJob(name, outcome, reason: reason)
            }
        }
    }

    private func beginUnitJob(_ state: UnitState) -> [JobEvent] {
        let now = clock.now
        let name = state.name
        var label = Self.unitLabel(state)
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
        units.began(name)
        noteBeginning()
        return [JobEvent(.begun, job: name)]
    }

    private func endUnitJob(_ name: String, _ outcome: Outcome, reason: String?) -> [JobEvent] {
        units.ended(name, outcome, reason: reason)
        let now = clock.now
        guard let entry = registry[name], entry.job.outcome == nil else { return [] }
        let took = DurationText.short(entry.job.runningTime(at: now))
        do throws(ProtocolError) {
            try finish(name, outcome, requester: nil, at: now)
        } catch {
            return []
        }
        if outcome == .failed {
            logger.warning("\(name) failed after \(took)\(reason.map { ": \($0)" } ?? "")")
        } else {
            logger.info("\(name) \(outcome) after \(took)")
        }
        return [JobEvent(.finished, job: name, outcome: outcome)]
    }

    /// A job that follows a running unit, when `id` names one.
    func isUnitJob(_ id: String) -> Bool {
        guard units.isRunning(id), let entry = registry[id] else { return false }
        return entry.job.outcome == nil
    }

    /// A unit's job's own label: its Description (its name when it has none).
    private static func unitLabel(_ state: UnitState) -> String {
        let description = state.description.map(DisplayText.sanitised).flatMap { $0.isEmpty ? nil : $0 } ?? state.name
        return DisplayText.shortened(description, maxBytes: WireProtocol.maxLabelBytes)
    }

    /// A label for a unit's running job. The unit's name is how a command in the unit (`headway
    /// run`, which knows no Description) names the job's own label, at its begin and when it
    /// ends and names the job again in place of its tool's last step: the unit's Description.
    func setUnitLabel(_ id: String, _ label: String, requester: UInt32?, at now: Seconds) throws(ProtocolError) {
        let own = label == id ? units.states[id].map(Self.unitLabel) ?? label : label
        try change(id, requester, now) { (job: inout ProgressJob) throws(ProgressError) in try job.setLabel(own, at: now) }
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
        if outcome == .cancelled { units.stopRequested(id) }
    }

    /// Asks for a unit's job to stop: its command (`headway run`) is told to cancel; a unit with
    /// nothing to tell is not the service's to stop.
    func stopUnitJob(_ id: String) throws(ProtocolError) -> [JobEvent] {
        guard subscriptions.controller(of: id) != nil else {
            throw ProtocolError(.notControllable, field: "job", "job \"\(id)\" is the systemd unit \(id); stop it with: sudo systemctl stop \(id)")
        }
        units.stopRequested(id)
        return [JobEvent(.cancelRequested, job: id)]
    }

    /// The timers followed, for `status`: when each next starts its unit.
    var timerStatuses: [TimerStatus] { units.timers(now: clock.now, wall: wallClock(), localTime: localTime) }
}
