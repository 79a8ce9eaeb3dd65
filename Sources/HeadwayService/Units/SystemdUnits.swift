import Headway
import HeadwayProtocol
import HeadwaySystem

/// The units the configuration watches, followed on the system bus: each unit's state as a whole
/// after every change (systemd's signals carry only what changed), the jobs queued and removed for
/// them, and the timers that start them (followed too, for their next elapse). Nothing waits for
/// systemd: a unit is asked for, and its state arrives with the other messages. Without
/// libsystemd or a bus it says why once and tries again later (after 5 s, doubling up to 5 min); a
/// unit that does not exist is loaded as `not-found` and followed all the same, so it is picked up
/// when a daemon-reload brings it.
public final class SystemdUnits: UnitSource {
    private let clock: any ProgressClock
    private var bus: SystemdBus?
    /// The units asked for, and the timers found to start them.
    private var wanted: [String] = []
    private var timers: [String] = []
    private var states: [String: UnitState] = [:]
    private var paths: [String: String] = [:]
    /// Units asked for whose answer has not come yet.
    private var asked: Set<String> = []
    /// When each unit was last asked for or answered, on `clock`.
    private var lastQuestion: [String: Seconds] = [:]
    /// Units asked for again, after a change of systemd's, while their answer was on its way:
    /// that answer may tell of a time before the change, so they are asked once more when it comes.
    private var askAgain: Set<String> = []
    private var retryAt: Seconds?
    private var retryDelay: Seconds = 5
    private var unavailable = false
    private var lastFailure = ""

    /// Units followed on `clock`.
    public init(clock: any ProgressClock) { self.clock = clock }

    /// The states of `names` and the timers that start them, read once (for doctor), waiting at
    /// most `budget` seconds for systemd's answers.
    public static func lookUp(_ names: [String], budget: Double = 20) -> UnitLookup {
        let units = SystemdUnits(clock: MonotonicClock())
        var states: [String: UnitState] = [:]
        func take(_ events: [UnitEvent]) -> String? {
            for event in events {
                switch event {
                case .unavailable(let reason): return reason
                case .state(let state): states[state.name] = state
                default: break
                }
            }
            return nil
        }
        if let reason = take(units.follow(names)) { return .unavailable(reason) }
        let deadline = MonotonicClock().now + budget
        while !units.asked.isEmpty, let readiness = units.readiness, MonotonicClock().now < deadline {
            _ = SystemIO.poll([readiness], timeout: max(0, min(deadline, units.deadline ?? deadline) - MonotonicClock().now))
            if let reason = take(units.process()) { return .unavailable(reason) }
        }
        for name in units.asked where states[name] == nil {
            var state = UnitState(name: name)
            state.problem = "systemd did not answer within \(Int(budget)) s"
            states[name] = state
        }
        return .states(Array(states.values))
    }

    public func follow(_ names: [String]) -> [UnitEvent] {
        wanted = names
        timers = []
        guard connect() else { return unavailableEvent() }
        var events: [UnitEvent] = []
        if unavailable {
            unavailable = false
            events.append(.available)
        }
        forgetUnwanted()
        for name in names { ask(name) }
        return events
    }

    public var readiness: (fd: Int32, wanted: Readiness)? { bus?.readiness }

    public var deadline: Seconds? {
        guard let bus else { return retryAt }
        // sd-bus speaks CLOCK_MONOTONIC; the service's clock may have another origin.
        return bus.deadline.map { clock.now + ($0 - MonotonicClock().now) }
    }

    public func process() -> [UnitEvent] {
        guard let bus else {
            guard let retryAt, clock.now >= retryAt else { return [] }
            return follow(wanted)
        }
        do throws(SystemdBus.Failure) {
            try bus.process()
        } catch {
            self.bus = nil
            states = [:]
            paths = [:]
            asked = []
            askAgain = []
            lastQuestion = [:]
            return unavailableEvent("the system bus went away (\(error.description))")
        }
        var events: [UnitEvent] = []
        for message in bus.messages() {
            switch message {
            case .loaded(let unit, let path, let properties):
                answered(unit)
                guard wanted.contains(unit) || timers.contains(unit) else { continue }
                paths[path] = unit
                let state = properties.applied(to: UnitState(name: unit))
                followTimers(of: state)
                guard states[unit] != state else { continue }
                states[unit] = state
                events.append(.state(state))
            case .failed(let unit, let reason):
                answered(unit)
                // A timer that could not be read is found again when its unit is read next.
                if !wanted.contains(unit) { timers.removeAll { $0 == unit } }
                var state = UnitState(name: unit)
                state.problem = reason
                states[unit] = nil
                events.append(.state(state))
            case .properties(let path, let properties):
                guard let name = paths[path], let state = states[name] else { continue }
                let next = properties.applied(to: state)
                guard next != state else { continue }
                states[name] = next
                events.append(.state(next))
                followTimers(of: next)
            case .jobNew(let unit) where states[unit] != nil:
                events.append(.jobQueued(unit: unit))
            case .jobRemoved(let unit, let result) where states[unit] != nil:
                events.append(.jobRemoved(unit: unit, result: result))
            case .unitNew(let unit, _) where loadedByAQuestion(unit):
                // Each question loads a unit systemd had dropped (an inactive unit nothing needs),
                // which announces itself: asked again for that, it would be loaded and dropped
                // again without end.
                break
            case .unitNew(let unit, _) where states[unit].map({ !$0.isMissing }) == true:
                // A unit dropped while inactive and loaded again (started again) announces its
                // first change as UnitNew, not as PropertiesChanged (src/core/dbus-unit.c,
                // bus_unit_send_change_signal). A unit without a file is not asked for again
                // here, for the same reason as above.
                ask(unit)
            case .unitNew(let unit, _) where unit.hasSuffix(".timer"),
                 .jobRemoved(let unit, _) where unit.hasSuffix(".timer") && !timers.contains(unit) && !wanted.contains(unit):
                // A timer loaded (enabled), or started or stopped without being followed yet, may
                // start a watched unit, whose TriggeredBy systemd does not announce as changed.
                for name in wanted where !name.hasSuffix(".timer") { ask(name, again: true) }
            case .reloaded:
                // After a daemon-reload a unit file may have come or gone.
                for name in wanted + timers { ask(name, again: true) }
            default:
                break
            }
        }
        return events
    }

    private func connect() -> Bool {
        if bus != nil { return true }
        do throws(SystemdBus.Failure) {
            bus = try SystemdBus()
            retryAt = nil
            retryDelay = 5
            return true
        } catch {
            lastFailure = error.description
            return false
        }
    }

    /// Says that units cannot be followed (once until they can again) and when it tries again.
    private func unavailableEvent(_ reason: String? = nil) -> [UnitEvent] {
        retryAt = clock.now + retryDelay
        retryDelay = min(retryDelay * 2, 300)
        defer { unavailable = true }
        return unavailable ? [] : [.unavailable(reason ?? lastFailure)]
    }

    /// Stops following what is no longer wanted (the timers are found again as their units are read).
    private func forgetUnwanted() {
        let keep = Set(wanted)
        for (path, name) in paths where !keep.contains(name) {
            bus?.unwatch(path: path)
            paths[path] = nil
            states[name] = nil
        }
    }

    /// Asks systemd for `name`'s state (once at a time; `again`, after a change of systemd's, once
    /// more when an answer on its way comes); the answer comes through ``process()``.
    private func ask(_ name: String, again: Bool = false) {
        guard let bus else { return }
        guard !asked.contains(name) else {
            if again { askAgain.insert(name) }
            return
        }
        do throws(SystemdBus.Failure) {
            try bus.watch(name)
            asked.insert(name)
            lastQuestion[name] = clock.now
        } catch {
            lastFailure = error.description
        }
    }

    /// Whether `unit` was asked for (or answered) within the last 2 s: a UnitNew for it then is
    /// systemd loading it to answer.
    private func loadedByAQuestion(_ unit: String) -> Bool {
        asked.contains(unit) || lastQuestion[unit].map { clock.now - $0 < 2 } == true
    }

    /// `unit`'s answer came: asked again if it was asked for meanwhile.
    private func answered(_ unit: String) {
        asked.remove(unit)
        lastQuestion[unit] = clock.now
        if askAgain.remove(unit) != nil { ask(unit) }
    }

    /// Follows the timers that start `state`'s unit, when not followed yet.
    private func followTimers(of state: UnitState) {
        for timer in state.triggeringTimers where !timers.contains(timer) && !wanted.contains(timer) {
            timers.append(timer)
            ask(timer)
        }
    }
}
