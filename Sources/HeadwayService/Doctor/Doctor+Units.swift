import Headway

extension Doctor {
    /// The system bus's socket, which the service connects to (D-Bus's default system bus address).
    static let systemBusSocket = "/run/dbus/system_bus_socket"

    /// The systemd units the configuration watches (and the timers outputs count down to): whether
    /// the bus answers and the service's user may use it, whether each unit exists, what shows of it.
    static func units(
        _ configuration: ServiceConfiguration, _ machine: MachineView, _ probe: (any DoctorProbe)?, _ account: Account?, wall: Double, now: Seconds
    ) -> [DoctorFinding] {
        let names = configuration.followedUnits
        guard !names.isEmpty else { return [] }
        guard let probe else {
            return [DoctorFinding("units", .advice, "the watched systemd units were not checked: systemd is asked on the running machine only (not under --root)")]
        }
        var findings: [DoctorFinding] = []
        let states: [UnitState]
        switch probe.units(names) {
        case .unavailable(let reason):
            let fix = reason.contains("libsystemd") ? "sudo apt install libsystemd0" : "is D-Bus running? `systemctl status dbus`"
            return [DoctorFinding("system-bus", .fail, "systemd cannot be asked about the watched units: \(reason)", fix: fix)]
        case .states(let found):
            states = found
        }
        if machine.exists(systemBusSocket), !machine.usable(systemBusSocket, as: account) {
            findings.append(DoctorFinding("system-bus", .fail, "\(account?.name ?? "this user") may not use the system bus (\(systemBusSocket))",
                                          fix: "give the socket its usual mode, srw-rw-rw- (dbus's own default)"))
        } else {
            findings.append(DoctorFinding("system-bus", .pass, "systemd answers on the system bus (\(systemBusSocket)\(account.map { ", open to \($0.name)" } ?? ""))"))
        }
        let byName = Dictionary(states.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in names {
            guard let state = byName[name] else { continue }
            findings.append(unit(state, byName, wall: wall, now: now))
        }
        return findings
    }

    private static func unit(_ state: UnitState, _ all: [String: UnitState], wall: Double, now: Seconds) -> DoctorFinding {
        let name = state.name
        if let problem = state.problem {
            return DoctorFinding("unit", .fail, "\(name): systemd could not be asked: \(problem)")
        }
        if state.isMissing {
            return DoctorFinding("unit", .fail, "\(name) does not exist (systemd says LoadState=\(state.loadState ?? "?"))",
                                 fix: "check the name (`systemctl list-unit-files '\(name.split(separator: ".").first ?? "")*'`), or remove it from watch: units")
        }
        let description = state.description.map { "\"\($0)\"" } ?? "no description"
        if state.isTimer {
            return DoctorFinding("unit", state.timer?.next(now: now, wallNow: wall) == nil ? .advice : .pass, "\(name) (\(description)): \(next(of: state, wall: wall, now: now))",
                                 fix: state.timer?.next(now: now, wallNow: wall) == nil ? "start it: `sudo systemctl enable --now \(name)`" : nil)
        }
        let type = "Type=\(state.serviceType ?? "?")"
        let timers = state.triggeringTimers.compactMap { all[$0] }
        if !state.endsByItself {
            return DoctorFinding("unit", .advice, "\(name) (\(description), \(type)) runs for long: it shows while it starts, and when it fails",
                                 fix: "a unit that does a job and ends is Type=oneshot, or started by a timer")
        }
        let started = timers.isEmpty ? "" : ", started by " + timers.map { "\($0.name) (\(next(of: $0, wall: wall, now: now)))" }.joined(separator: ", ")
        return DoctorFinding("unit", .pass, "\(name) (\(description), \(type))\(started): each run shows as a job")
    }

    /// "next 02:00 (in 5h)", or why there is none.
    private static func next(of timer: UnitState, wall: Double, now: Seconds) -> String {
        guard let next = timer.timer?.next(now: now, wallNow: wall), next > now else { return "no next elapse" }
        let at = LocalTime.of(wallClock: wall + (next - now)).timeOfDay.text
        return "next \(at) (in \(DurationText.short(next - now, rounding: .up)))"
    }
}
