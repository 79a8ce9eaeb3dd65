import HeadwayCore
import HeadwayRender

/// Snapshots built by hand, so style tests do not depend on the core's easing or estimator.
enum Fixture {
    static func active(_ fraction: Double?, label: String? = "Compiling", total: Double = 120, elapsed: Seconds = 0, eta: Seconds? = 19) -> ProgressSnapshot {
        let kind: ProgressKind = fraction.map { .determinate(value: ($0 * total).rounded(), total: total) } ?? .indeterminate
        return ProgressSnapshot(
            time: 100, phase: .active, kind: kind, fraction: fraction, label: label, timeRemaining: fraction == nil ? nil : eta,
            elapsed: elapsed, phaseElapsed: elapsed)
    }

    static func stalled(_ fraction: Double?, silence: Seconds = 40, phaseElapsed: Seconds = 1.5) -> ProgressSnapshot {
        let kind: ProgressKind = fraction.map { .determinate(value: $0 * 100, total: 100) } ?? .indeterminate
        return ProgressSnapshot(
            time: 100, phase: .stalled(silence: silence), kind: kind, fraction: fraction, label: "Upload",
            elapsed: 60, phaseElapsed: phaseElapsed)
    }

    /// A CI run waiting in its server's queue for 80 s.
    static func queued(label: String = "deploy: waiting for a runner") -> ProgressSnapshot {
        ProgressSnapshot(time: 100, phase: .queued, kind: .indeterminate, fraction: nil, label: label, elapsed: 80, phaseElapsed: 80)
    }

    /// A followed run whose server has not answered for 2 minutes.
    static func stale(_ fraction: Double?, phaseElapsed: Seconds = 1.5) -> ProgressSnapshot {
        let kind: ProgressKind = fraction.map { .determinate(value: ($0 * 12).rounded(), total: 12) } ?? .indeterminate
        return ProgressSnapshot(
            time: 100, phase: .stale(silence: 120), kind: kind, fraction: fraction, label: "build: Run tests",
            elapsed: 300, phaseElapsed: phaseElapsed)
    }

    static func finished(_ outcome: Outcome, fraction: Double?, phaseElapsed: Seconds = 1, left: Seconds = 2) -> ProgressSnapshot {
        ProgressSnapshot(
            time: 100, phase: .finished(outcome), kind: .determinate(value: 1, total: 1), fraction: fraction, label: "Backup",
            elapsed: 65 + phaseElapsed, phaseElapsed: phaseElapsed, phaseEndsAt: 100 + left)
    }

    static func countdown(_ fraction: Double, left: Seconds) -> ProgressSnapshot {
        ProgressSnapshot(
            time: 100, phase: .active, kind: .timer(start: 0, end: 200, countsDown: true), fraction: fraction, label: "Cooldown",
            timeRemaining: left, elapsed: 100, phaseElapsed: 98)
    }

    static func led(_ snapshot: ProgressSnapshot, count: Int, style: LEDIndicatorStyle, appearance: Appearance = .standard) -> LEDFrame {
        var frame = LEDFrame(count: count)
        style.render(ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance), into: &frame)
        return frame
    }

    static func bitmap(_ snapshot: ProgressSnapshot, width: Int = 128, height: Int = 64, style: some DisplayStyle, appearance: Appearance = .standard) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        style.render(ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance), into: &bitmap)
        return bitmap
    }
}
