import Headway
import HeadwayProtocol

/// The units the configuration watches, followed on the system bus: each unit's state as a whole
/// after every change (systemd's signals carry only what changed), the jobs queued and removed for
/// them, and the timers that start them (followed too, for their next elapse). Without libsystemd
/// or a bus it says why once and tries again later (after 5 s, doubling up to 5 min); a unit that
/// does not exist is loaded as `not-found` and followed all the same, so it is picked up when it
/// appears.
public final class SystemdUnits: UnitSource {
    private let clock: any ProgressClock
    private var bus: SystemdBus?
    /// The units asked for, and the timers found to start them.
    private var wanted: [String] = []
    private var timers: [String] = []
    private var states: [String: UnitState] = [:]
    private var paths: [String: String] = [:]
    private var retryAt: Seconds?
    private var retryDelay: Seconds = 5
    private var unavailable = false

    public init(clock: any ProgressClock) { self.clock = clock }

    /// The states of `names` and the timers that start them, read once (for doctor).
    public static func lookUp(_ names: [String]) -> UnitLookup {
        var states: [UnitState] = []
        for event in SystemdUnits(clock: MonotonicClock()).follow(names) {
            switch event {
            case .unavailable(let reason): return .unavailable(reason)
            case .state(let state): states.append(state)
            default: break
            }
        }
        return .states(states)
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
        events += names.flatMap { read($0) }
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
            return unavailableEvent("the system bus went away (\(error.description))")
        }
        var events: [UnitEvent] = []
        for message in bus.messages() {
            switch message {
            case .properties(let path, let properties):
                guard let name = paths[path], let state = states[name] else { continue }
                let next = properties.applied(to: state)
                guard next != state else { continue }
                states[name] = next
                events.append(.state(next))
                events += followTimers(of: next)
            case .jobNew(let unit) where states[unit] != nil:
                events.append(.jobQueued(unit: unit))
            case .jobRemoved(let unit, let result) where states[unit] != nil:
                events.append(.jobRemoved(unit: unit, result: result))
            case .unitNew(let unit, _) where states[unit] != nil:
                // A unit (re)loaded into systemd's memory — one that had no file, or was dropped
                // while inactive and is started again — announces its first change as UnitNew, not
                // as PropertiesChanged (src/core/dbus-unit.c, bus_unit_send_change_signal): read it
                // again. No loop: reading a unit already loaded makes no new UnitNew.
                events += read(unit, onlyChanges: true)
            case .unitNew(let unit, _) where unit.hasSuffix(".timer"):
                // A timer loaded (enabled, started) may start a watched unit, whose TriggeredBy
                // systemd does not announce as changed: read them again.
                for name in wanted where !name.hasSuffix(".timer") { events += read(name, onlyChanges: true) }
            case .reloaded:
                // After a daemon-reload a unit file may have come or gone.
                for name in wanted + timers { events += read(name, onlyChanges: true) }
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

    private var lastFailure = ""

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

    /// Reads `name` afresh (and the timers that start it); with `onlyChanges`, says nothing when
    /// the state is the one already known.
    private func read(_ name: String, onlyChanges: Bool = false) -> [UnitEvent] {
        guard let bus else { return [] }
        do throws(SystemdBus.Failure) {
            let (path, properties) = try bus.watch(name)
            paths[path] = name
            let state = properties.applied(to: UnitState(name: name))
            let known = states[name]
            states[name] = state
            if onlyChanges, known == state { return [] }
            return [.state(state)] + followTimers(of: state)
        } catch {
            var state = UnitState(name: name)
            state.problem = error.description
            states[name] = nil
            return [.state(state)]
        }
    }

    /// Follows the timers that start `state`'s unit, when not followed yet.
    private func followTimers(of state: UnitState) -> [UnitEvent] {
        var events: [UnitEvent] = []
        for timer in state.triggeringTimers where states[timer] == nil {
            timers.append(timer)
            events += read(timer)
        }
        return events
    }
}
