import Headway
import HeadwayProtocol
import HeadwaySystem

/// What systemd says of one unit, as the service follows it: the facts of org.freedesktop.systemd1(5)
/// ("Unit Objects", "Service Unit Objects", "Timer Unit Objects"), times on the service's monotonic
/// clock. A value: each change gives a new one.
public struct UnitState: Sendable, Equatable {
    /// The unit's name (`backup.service`).
    public var name: String
    /// `loaded`, `not-found`, `bad-setting`, `error`, `masked`, … (nil: not known yet).
    public var loadState: String?
    /// `inactive`, `activating`, `active`, `deactivating`, `failed`, `reloading`, `maintenance`.
    public var activeState: String?
    /// The type's finer state (`start`, `running`, `stop-sigterm`, `dead`, …).
    public var subState: String?
    /// The unit's Description=, as systemd gives it (made safe before it is shown).
    public var description: String?
    /// A service's Type= (`simple`, `exec`, `forking`, `oneshot`, `dbus`, `notify`, `notify-reload`, `idle`).
    public var serviceType: String?
    /// Why the last run ended: `success`, `exit-code`, `signal`, `core-dump`, `timeout`, `watchdog`,
    /// `oom-kill`, `start-limit-hit`, `resources`, … (a service's or a timer's Result).
    public var result: String?
    /// The units that start this one (a timer, a path, a socket).
    public var triggeredBy: [String] = []
    /// When the unit last left inactive (its run began), on the service's clock.
    public var startedAt: Seconds?
    /// How the main process ended.
    public var mainExit: MainExit?
    /// A timer's facts.
    public var timer: TimerFacts?
    /// Why systemd could not be asked about it (a refusal, a timeout), when it could not.
    public var problem: String?

    /// A unit of which nothing is known yet.
    public init(name: String) { self.name = name }

    /// A timer unit (`backup.timer`).
    public var isTimer: Bool { name.hasSuffix(".timer") }

    /// Whether systemd has no such unit: no file (or a broken one) under that name.
    public var isMissing: Bool {
        guard problem == nil, let loadState else { return false }
        return loadState != "loaded" && activeState.map { ["inactive", "failed"].contains($0) } ?? true
    }

    /// Whether the unit is doing something: starting, running, stopping.
    var isUp: Bool {
        guard let activeState else { return false }
        return !["inactive", "failed", "maintenance"].contains(activeState)
    }

    /// A unit that is expected to end by itself: a Type=oneshot service, or one a timer starts.
    /// Anything else is a long-running service, a job only while it starts.
    var endsByItself: Bool { serviceType == "oneshot" || triggeredBy.contains { $0.hasSuffix(".timer") } }

    /// The timers among the units that start this one.
    public var triggeringTimers: [String] { triggeredBy.filter { $0.hasSuffix(".timer") } }

    /// Why a run that did not succeed ended, in words for status and the log; nil for a success.
    public var failureReason: String? {
        switch result {
        case nil, "success": return nil
        case "exit-code": return mainExit.map { "exit status \($0.status)" } ?? "exit status not 0"
        case "signal": return mainExit.map { "killed by signal \($0.status)" } ?? "killed by a signal"
        case "core-dump": return mainExit.map { "dumped core (signal \($0.status))" } ?? "dumped core"
        case "timeout": return "timed out"
        case "watchdog": return "watchdog timeout"
        case "oom-kill": return "killed: out of memory"
        case "start-limit-hit": return "started too often (start limit hit)"
        case "resources": return "not enough resources to start"
        case "exec-condition": return "its ExecCondition= failed"
        case "protocol": return "broke the service protocol"
        case let other?: return DisplayText.sanitised(String(other.prefix(40)))
        }
    }
}

/// How a service's main process ended: waitid(2)'s code (1 exited, 2 killed, 3 dumped core) and
/// its exit status or signal (ExecMainCode, ExecMainStatus).
public struct MainExit: Sendable, Equatable {
    /// waitid(2)'s code: 1 exited, 2 killed, 3 dumped core.
    public var code: Int32
    /// The exit status, or the signal's number.
    public var status: Int32

    /// An end of each member given.
    public init(code: Int32, status: Int32) {
        self.code = code
        self.status = status
    }
}

/// A timer's next and last elapse, as systemd computes them (RandomizedDelaySec= included).
public struct TimerFacts: Sendable, Equatable {
    /// The next elapse on CLOCK_REALTIME (seconds since 1970), when a calendar event sets one.
    public var nextRealtime: Double?
    /// The next elapse on the service's monotonic clock, when a monotonic event (OnBootSec=,
    /// OnUnitActiveSec=, …) sets one.
    public var nextMonotonic: Seconds?
    /// When it last elapsed (seconds since 1970).
    public var lastTrigger: Double?
    /// The unit it starts.
    public var unit: String?

    /// A timer's facts of each member given.
    public init(nextRealtime: Double? = nil, nextMonotonic: Seconds? = nil, lastTrigger: Double? = nil, unit: String? = nil) {
        self.nextRealtime = nextRealtime
        self.nextMonotonic = nextMonotonic
        self.lastTrigger = lastTrigger
        self.unit = unit
    }

    /// The next elapse on the service's monotonic clock: the earlier of the two (as `systemctl
    /// list-timers` takes it), the real-time one moved onto `now`'s clock through `wallNow`.
    public func next(now: Seconds, wallNow: Double) -> Seconds? {
        let calendar = nextRealtime.map { now + ($0 - wallNow) }
        return [calendar, nextMonotonic].compactMap { $0 }.min()
    }
}

/// Something systemd said about the units the service follows.
public enum UnitEvent: Sendable, Equatable {
    /// A unit's state after a change (or as first read).
    case state(UnitState)
    /// A job was queued for the unit (a start, a stop, a restart).
    case jobQueued(unit: String)
    /// A job of the unit ended: `done`, `canceled`, `timeout`, `failed`, `dependency`, `skipped`.
    case jobRemoved(unit: String, result: String)
    /// Units cannot be followed (no libsystemd, no bus, refused): why, said once.
    case unavailable(String)
    /// They can again, after being unavailable.
    case available
}

/// Where unit states come from: systemd over the system bus (``SystemdUnits``), or a test's own.
/// Driven by the service's one loop: its descriptor is polled, and ``process()`` is called when it
/// is ready or its deadline has come.
public protocol UnitSource: AnyObject {
    /// Follows `names` from now on (and the timers that start them), forgetting the others; the
    /// events are their states as they are now.
    func follow(_ names: [String]) -> [UnitEvent]
    /// What to poll, when anything.
    var readiness: (fd: Int32, wanted: Readiness)? { get }
    /// When ``process()`` is due at the latest, on the service's clock.
    var deadline: Seconds? { get }
    /// What arrived since the last call.
    func process() -> [UnitEvent]
}
