import CSystemd
import HeadwayProtocol
import HeadwaySystem

/// One connection to systemd on the system bus, through libsystemd's sd-bus (loaded with dlopen by
/// the CSystemd shim, which walks the D-Bus messages): the watched units' properties and the
/// manager's job and unit signals, as plain values. Driven by the caller's poll loop. Not
/// thread-safe: one owner.
final class SystemdBus {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Some of a unit's properties: those one message carried.
    struct Properties {
        var loadState, activeState, subState, description, serviceType, result, timerUnit: String?
        var triggeredBy: [String]?
        /// When the unit last left inactive, CLOCK_MONOTONIC microseconds (0: not on this boot).
        var inactiveExit: UInt64?
        /// A timer's next elapse (CLOCK_REALTIME and CLOCK_MONOTONIC µs) and last trigger
        /// (CLOCK_REALTIME µs); 0 for none.
        var nextRealtime, nextMonotonic, lastTrigger: UInt64?
        var mainExit: MainExit?
        var mainExitKnown = false
    }

    enum Message {
        case properties(path: String, Properties)
        case jobNew(unit: String)
        case jobRemoved(unit: String, result: String)
        case unitNew(unit: String, path: String)
        case unitRemoved(unit: String, path: String)
        case reloaded
        /// The answer to ``watch(_:)``.
        case loaded(unit: String, path: String, Properties)
        case failed(unit: String, reason: String)
    }

    private let handle: OpaquePointer

    /// Connects and subscribes to systemd's signals.
    init() throws(Failure) {
        guard hw_sd_load() == 0 else {
            throw Failure(description: "libsystemd is not there (\(String(cString: hw_sd_load_error()))); sudo apt install libsystemd0")
        }
        var handle: OpaquePointer?
        let code = hw_sd_open(&handle)
        guard code >= 0, let handle else {
            let message = handle.map { String(cString: hw_sd_error($0)) } ?? SystemError(-code).description
            hw_sd_close(handle)
            throw Failure(description: message)
        }
        self.handle = handle
    }

    deinit { hw_sd_close(handle) }

    /// Asks for `unit` (systemd loads a unit with no file as `not-found`), to follow its changes
    /// and read its properties: the answer comes as ``Message/loaded(unit:path:_:)`` (or
    /// `failed`) among the messages, the loop never waiting for it.
    func watch(_ unit: String) throws(Failure) {
        guard hw_sd_watch(handle, unit) >= 0 else { throw Failure(description: String(cString: hw_sd_error(handle))) }
    }

    func unwatch(path: String) { hw_sd_unwatch(handle, path) }

    var readiness: (fd: Int32, wanted: Readiness) {
        (hw_sd_fd(handle), Readiness(rawValue: Int16(truncatingIfNeeded: hw_sd_events(handle))))
    }

    /// When sd-bus must be called at the latest (a call's timeout, a message already read), as
    /// CLOCK_MONOTONIC seconds.
    var deadline: Double? {
        let microseconds = hw_sd_deadline(handle)
        return microseconds == UInt64.max ? nil : Double(microseconds) / 1_000_000
    }

    /// Reads what arrived; throws when the connection is gone.
    func process() throws(Failure) {
        guard hw_sd_process(handle) >= 0 else { throw Failure(description: String(cString: hw_sd_error(handle))) }
    }

    /// The messages read so far, oldest first.
    func messages() -> [Message] {
        var messages: [Message] = []
        var event = hw_sd_event()
        while hw_sd_next(handle, &event) == 1 {
            defer { hw_sd_event_clear(&event) }
            let unit = event.unit.map { String(cString: $0) }
            let path = event.path.map { String(cString: $0) }
            switch Int32(event.kind) {
            case Int32(HW_SD_PROPERTIES.rawValue): if let path { messages.append(.properties(path: path, Self.properties(event))) }
            case Int32(HW_SD_JOB_NEW.rawValue): if let unit { messages.append(.jobNew(unit: unit)) }
            case Int32(HW_SD_JOB_REMOVED.rawValue):
                if let unit, let result = event.job_result { messages.append(.jobRemoved(unit: unit, result: String(cString: result))) }
            case Int32(HW_SD_UNIT_NEW.rawValue): if let unit, let path { messages.append(.unitNew(unit: unit, path: path)) }
            case Int32(HW_SD_UNIT_REMOVED.rawValue): if let unit, let path { messages.append(.unitRemoved(unit: unit, path: path)) }
            case Int32(HW_SD_RELOADED.rawValue): messages.append(.reloaded)
            case Int32(HW_SD_LOADED.rawValue): if let unit, let path { messages.append(.loaded(unit: unit, path: path, Self.properties(event))) }
            case Int32(HW_SD_FAILED.rawValue):
                if let unit { messages.append(.failed(unit: unit, reason: event.error.map { String(cString: $0) } ?? "no answer")) }
            default: break
            }
        }
        return messages
    }

    private static func properties(_ event: hw_sd_event) -> Properties {
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        func has(_ field: hw_sd_field) -> Bool { event.fields & field.rawValue != 0 }
        var properties = Properties()
        properties.loadState = text(event.load_state)
        properties.activeState = text(event.active_state)
        properties.subState = text(event.sub_state)
        properties.description = text(event.description)
        properties.serviceType = text(event.type)
        properties.result = text(event.result)
        properties.timerUnit = text(event.timer_unit)
        properties.triggeredBy = text(event.triggered_by).map { $0.split(separator: "\n").map(String.init) }
        if has(HW_SD_INACTIVE_EXIT) { properties.inactiveExit = event.inactive_exit_monotonic }
        if has(HW_SD_NEXT_REALTIME) { properties.nextRealtime = event.next_elapse_realtime }
        if has(HW_SD_NEXT_MONOTONIC) { properties.nextMonotonic = event.next_elapse_monotonic }
        if has(HW_SD_LAST_TRIGGER) { properties.lastTrigger = event.last_trigger_realtime }
        if has(HW_SD_EXEC_MAIN) {
            properties.mainExitKnown = true
            // Code 0: the main process has not ended (CLD_EXITED is 1, waitid(2)).
            properties.mainExit = event.exec_main_code == 0 ? nil : MainExit(code: event.exec_main_code, status: event.exec_main_status)
        }
        return properties
    }
}

extension SystemdBus.Properties {
    /// `state` with these properties applied; monotonic microseconds become seconds on the
    /// service's clock, which is CLOCK_MONOTONIC too (``MonotonicClock``).
    func applied(to state: UnitState) -> UnitState {
        // 0 and USEC_INFINITY (UINT64_MAX) both mean none.
        func seconds(_ microseconds: UInt64) -> Double? { microseconds == 0 || microseconds == .max ? nil : Double(microseconds) / 1_000_000 }
        var state = state
        if let loadState { state.loadState = loadState }
        if let activeState { state.activeState = activeState }
        if let subState { state.subState = subState }
        if let description { state.description = description }
        if let serviceType { state.serviceType = serviceType }
        if let result { state.result = result }
        if let triggeredBy { state.triggeredBy = triggeredBy }
        if let inactiveExit { state.startedAt = seconds(inactiveExit) }
        if mainExitKnown { state.mainExit = mainExit }
        if state.isTimer, nextRealtime != nil || nextMonotonic != nil || lastTrigger != nil || timerUnit != nil {
            var timer = state.timer ?? TimerFacts()
            if let nextRealtime { timer.nextRealtime = seconds(nextRealtime) }
            if let nextMonotonic { timer.nextMonotonic = seconds(nextMonotonic) }
            if let lastTrigger { timer.lastTrigger = seconds(lastTrigger) }
            if let timerUnit { timer.unit = timerUnit }
            state.timer = timer
        }
        return state
    }
}
