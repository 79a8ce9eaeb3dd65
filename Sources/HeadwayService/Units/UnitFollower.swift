import Headway
import HeadwayProtocol

/// The part of the service that follows the systemd units it watches (`watch: units:`): what
/// systemd said of each, which watched units' runs are jobs now, why the last run of each failed.
/// It decides from systemd's signals when a unit's run begins and ends and how it went; the core
/// carries those decisions out on its jobs like any other job's.
///
/// Which runs are jobs: a Type=oneshot service, or a service a timer starts, is expected to end —
/// its job lasts from leaving inactive until it is inactive or failed again (a oneshot with
/// RemainAfterExit=yes: until it is active). Any other service runs for long: its job is its
/// start-up only (activating, usually too short to be shown), and a failure is shown when it
/// fails. The job is the service's own (``Liveness/owned``): never stalled or lost for silence,
/// ended only by the unit.
struct UnitFollower {
    /// What the core is to do with a unit's job.
    enum Action: Equatable {
        /// The unit's run began: its job begins.
        case begin(UnitState)
        /// The unit's run ended `outcome`, for `reason` when it failed.
        case end(String, Outcome, reason: String?)
    }

    /// The units the configuration names.
    private(set) var watched: Set<String> = []
    /// The last state of every unit followed (the watched ones and the timers that start them).
    private(set) var states: [String: UnitState] = [:]
    /// The watched units whose run is a job now, by name (the job's id), and whether somebody asked
    /// for the unit to stop while it ran (systemctl stop, a cancel through the service, the command
    /// under `headway run` interrupted): an end that is not a success is a cancellation then.
    private var running: [String: Bool] = [:]
    /// Why a unit's last run failed, for status.
    private(set) var reasons: [String: String] = [:]
    /// Units reported as missing or unreadable (each once, until that changes).
    private var reported: Set<String> = []

    /// Watches `names` from now on; a unit no longer watched has its running job ended with no
    /// known result.
    mutating func watch(_ names: [String], logger: ServiceLogger) -> [Action] {
        watched = Set(names)
        reported = reported.intersection(watched)
        return running.keys.filter { !watched.contains($0) }.map { name in
            logger.info("\(name) is no longer watched; its job ends without a known result")
            return .end(name, .ended, reason: nil)
        }
    }

    /// What systemd said, and what follows for the jobs.
    mutating func apply(_ event: UnitEvent, logger: ServiceLogger) -> [Action] {
        switch event {
        case .state(let state):
            return changed(state, logger: logger)
        case .jobQueued(let name):
            // A job for a unit already running (its start is done): a stop, or a restart.
            if running[name] != nil, states[name]?.activeState == "active" { running[name] = true }
        case .jobRemoved(let name, let result):
            // A start replaced by a stop ends "canceled" (org.freedesktop.systemd1(5), JobRemoved).
            if result == "canceled", running[name] != nil { running[name] = true }
        case .unavailable(let reason):
            logger.warning("systemd units are not watched: \(reason); the rest works as before")
            return running.keys.map { .end($0, .ended, reason: nil) }
        case .available:
            logger.info("systemd units are watched again")
        }
        return []
    }

    private mutating func changed(_ state: UnitState, logger: ServiceLogger) -> [Action] {
        let name = state.name
        let previous = states[name]
        states[name] = state
        guard watched.contains(name), !state.isTimer else { return [] }
        if let problem = state.problem {
            if reported.insert(name).inserted { logger.warning("watched unit \(name) cannot be followed: \(problem); the other units are") }
            return []
        }
        if state.isMissing {
            if reported.insert(name).inserted {
                logger.warning("watched unit \(name) does not exist (LoadState \(state.loadState ?? "?")): nothing shows for it; check the name (systemctl list-unit-files '\(name)'), or remove it from watch: units")
            }
            return running[name] != nil ? [.end(name, .ended, reason: nil)] : []
        }
        if reported.remove(name) != nil { logger.info("watched unit \(name) is there now") }
        let working = isWorking(state)
        if running[name] != nil {
            return working ? [] : [.end(name, outcome(of: state), reason: state.failureReason)]
        }
        if working { return [.begin(state)] }
        // A failure whose run was not seen (over before its signals came, or a long-running
        // service that failed): shown all the same, a failure is always news.
        if state.activeState == "failed", let previous, previous.activeState != "failed" {
            return [.begin(state), .end(name, .failed, reason: state.failureReason)]
        }
        return []
    }

    /// Whether `state` is a run the service shows as a job (see the type's comment).
    private func isWorking(_ state: UnitState) -> Bool {
        guard state.endsByItself else { return state.activeState == "activating" }
        if state.serviceType == "oneshot", state.activeState == "active" { return false }
        return state.isUp
    }

    /// How a run that ended went, from its Result (org.freedesktop.systemd1(5), "Service Unit
    /// Objects": success, exit-code, signal, core-dump, timeout, watchdog, oom-kill, …) and
    /// whether somebody stopped it.
    private func outcome(of state: UnitState) -> Outcome {
        let stopped = running[state.name] == true
        if state.result == "success" || state.result == nil, state.activeState != "failed" { return stopped ? .cancelled : .succeeded }
        if stopped, ["signal", "exit-code", "success"].contains(state.result ?? "success") { return .cancelled }
        return .failed
    }

    /// The core began `name`'s job.
    mutating func began(_ name: String) {
        running[name] = false
        reasons[name] = nil
    }

    /// The core ended `name`'s job, `outcome`, for `reason`.
    mutating func ended(_ name: String, _ outcome: Outcome, reason: String?) {
        running[name] = nil
        if outcome == .failed { reasons[name] = reason }
    }

    /// Whether `id` is the job of a unit running now.
    func isRunning(_ id: String) -> Bool { running[id] != nil }

    /// Somebody asked for unit `id` to stop (its command cancelled, a long press).
    mutating func stopRequested(_ id: String) {
        if running[id] != nil { running[id] = true }
    }

    /// The timers followed, for `status`: when each next starts its unit.
    func timers(now: Seconds, wall: Double, localTime: (Double) -> LocalTime) -> [TimerStatus] {
        states.values.filter(\.isTimer).sorted { $0.name < $1.name }.map { state in
            let next = state.timer?.next(now: now, wallNow: wall).flatMap { $0 > now ? $0 : nil }
            return TimerStatus(
                unit: state.name, triggers: state.timer?.unit,
                at: next.map { localTime(wall + ($0 - now)).timeOfDay.text }, inSeconds: next.map { $0 - now })
        }
    }
}
