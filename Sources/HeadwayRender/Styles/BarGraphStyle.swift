import HeadwayCore

/// The built-in style for an LED bar graph of plain on/off LEDs.
///
/// - Determinate: the first `round(fraction × n)` LEDs lit, but never all of them before success;
///   the last lit LED blinks off for 0.1 s every 2 s so a bar at rest still shows the job is alive.
/// - An estimate from past runs: the lit part on for 1.5 s, off for 0.5 s; overdue, odd and even
///   LEDs taking turns every second.
/// - Other jobs running that the bar does not show: its last LED flashes twice every 2 s (when the
///   fill does not reach it).
/// - Indeterminate: one dot moving back and forth.
/// - Stalled: the lit part blinks slowly (1 s on, 1 s off): nothing moves along the bar.
/// - Paused: the lit part (at least one LED) steady.
/// - Queued: the first LED flashes briefly every 4 s. Stale (its reporter lost sight of it): the lit
///   part (at least one LED) flashes briefly every 3 s.
/// - Succeeded: all on. Failed: the lit part blinks fast (5 Hz). Cancelled: off. Ended without a
///   result: the lit part steady.
public struct BarGraphStyle: ProgressStyle {
    /// The bar graph style.
    public init() {}

    public func render(_ configuration: ProgressStyleConfiguration, into levels: inout LineLevels) {
        let snapshot = configuration.snapshot
        let n = levels.count
        levels = LineLevels(count: n)
        guard snapshot.isVisible, n > 0 else { return levels.markUnseenFailures(configuration.notices) }
        let lit = snapshot.fraction.map { min(n - 1, Int(($0 * Double(n)).rounded())) } ?? 0
        switch snapshot.phase {
        case .finished(.succeeded):
            for i in 0..<n { levels[i] = true }
        case .finished(.failed):
            let on = Int(snapshot.phaseElapsed * 10) % 2 == 0
            for i in 0..<max(1, lit) { levels[i] = on }
        case .finished(.cancelled):
            return
        case .finished(.ended):
            for i in 0..<max(1, lit) { levels[i] = true }
        case .stalled:
            let on = Int(snapshot.phaseElapsed) % 2 == 0
            for i in 0..<max(1, lit) { levels[i] = on }
        case .paused:
            for i in 0..<max(1, lit) { levels[i] = true }
        case .queued:
            levels[0] = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 4) < 0.2
        case .stale:
            let on = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 3) < 0.2
            for i in 0..<max(1, lit) { levels[i] = on }
        default:
            if snapshot.overdue != nil {
                let turn = Int(snapshot.elapsed.rounded(.down)) % 2
                for i in 0..<n where i % 2 == turn { levels[i] = true }
            } else if snapshot.isEstimate {
                let on = snapshot.elapsed.truncatingRemainder(dividingBy: 2) < 1.5
                for i in 0..<max(1, lit) { levels[i] = on }
            } else if snapshot.fraction != nil {
                for i in 0..<lit { levels[i] = true }
                let blink = snapshot.elapsed.truncatingRemainder(dividingBy: 2) < 0.1
                if lit > 0, blink { levels[lit - 1] = false }
            } else {
                let step = Int((snapshot.elapsed / 0.15).rounded(.down)) % max(1, 2 * (n - 1))
                levels[step < n ? step : 2 * (n - 1) - step] = true
                return
            }
        }
        if configuration.otherJobs > 0, n > 1, lit < n - 1 {
            let t = snapshot.time.truncatingRemainder(dividingBy: 2)
            levels[n - 1] = t < 0.1 || (t >= 0.2 && t < 0.3)
        }
    }
}

/// The built-in style for a single status LED: a steady 1 Hz blink while the job runs, a short
/// flash every 2 s while it is stalled, a slow 4 s blink while paused, a short flash every 4 s
/// while queued, two short flashes every 4 s while stale, on for success, a fast 5 Hz blink for
/// failure, off when cancelled or ended without a result.
public struct StatusLEDStyle: ProgressStyle {
    /// The status LED style.
    public init() {}

    public func render(_ configuration: ProgressStyleConfiguration, into levels: inout LineLevels) {
        let snapshot = configuration.snapshot
        levels = LineLevels(count: levels.count)
        guard snapshot.isVisible, levels.count > 0 else { return levels.markUnseenFailures(configuration.notices) }
        let on = Self.isLit(snapshot)
        for i in 0..<levels.count { levels[i] = on }
    }

    /// Whether the LED is lit at `snapshot`'s moment, by the pattern above.
    static func isLit(_ snapshot: ProgressSnapshot) -> Bool {
        let on: Bool
        switch snapshot.phase {
        case .finished(.succeeded): on = true
        case .finished(.failed): on = Int(snapshot.phaseElapsed * 10) % 2 == 0
        case .finished(.cancelled), .finished(.ended): on = false
        case .stalled: on = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 2) < 0.15
        case .paused: on = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 4) < 2
        case .queued: on = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 4) < 0.15
        case .stale:
            let t = snapshot.phaseElapsed.truncatingRemainder(dividingBy: 4)
            on = t < 0.15 || (t >= 0.4 && t < 0.55)
        default: on = snapshot.elapsed.truncatingRemainder(dividingBy: 1) < 0.5
        }
        return on
    }
}
