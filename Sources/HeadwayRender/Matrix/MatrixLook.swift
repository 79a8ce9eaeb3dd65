import HeadwayCore

/// What a matrix or segment display shows of a job at one moment, decided once for every face:
/// the style then draws it as pixels or as digits.
struct MatrixLook {
    /// What is shown.
    enum Content: Equatable {
        /// Nothing of a job (idle); notices only.
        case idle
        /// A bar of `fraction`, solid for reported progress, dotted for an estimate.
        case bar(fraction: Double, dotted: Bool)
        /// Working, with no idea how far: a spinner.
        case working
        /// No fraction and nothing moving (stalled, stale or paused while indeterminate).
        case waiting
        /// Waiting at its source to start.
        case queued
        /// Ended as `outcome`, after reaching `fraction` (nil: never determinate).
        case finished(Outcome, fraction: Double?)
    }

    var content: Content
    /// What the bar and the figures are drawn as: progress, or a stalled fill (the palette gives
    /// progress the outcome's, the stale or the overdue colour).
    var role: Shade.Role
    var blink: MatrixBlink
    /// The liveness blink of a reported bar: its leading edge dark for the last 0.1 s of every 2 s, so a bar at
    /// rest still shows the job is alive.
    var edgeDark: Bool
    /// The whole percentage to print, when the job and the appearance want it.
    var percent: Int?
    /// The percentage is an estimate from past runs.
    var isEstimate: Bool
    /// The time left, while the job runs and it is known.
    var timeLeft: Seconds?
    /// The time left is a timer's exact remainder (not an estimate).
    var timeLeftIsExact: Bool
    /// Whether the job is paused by a person.
    var paused: Bool
    /// Whether text may move (a label scrolls only while the job is active).
    var moves: Bool

    init(_ configuration: ProgressStyleConfiguration) {
        let snapshot = configuration.snapshot
        blink = .steady
        edgeDark = false
        role = .fill
        paused = snapshot.phase == .paused
        isEstimate = snapshot.isEstimate
        percent = configuration.percentText == nil ? nil : snapshot.fraction.map { Int(($0 * 100).rounded(.down)) }
        timeLeft = snapshot.phase == .active && snapshot.overdue == nil ? snapshot.timeRemaining : nil
        if case .timer = snapshot.kind { timeLeftIsExact = true } else { timeLeftIsExact = false }
        moves = snapshot.phase == .active
        guard snapshot.isVisible else {
            content = .idle
            return
        }
        let bar = snapshot.fraction.map { Content.bar(fraction: $0, dotted: false) }
        switch snapshot.phase {
        case .finished(let outcome):
            content = .finished(outcome, fraction: snapshot.fraction)
            if outcome == .failed { blink = .twoHertz }
        case .stalled:
            content = bar ?? .waiting
            role = .stalled
            blink = .oneHertz
        case .stale:
            content = bar ?? .waiting
            blink = .halfHertz
        case .paused:
            content = bar ?? .waiting
        case .queued:
            content = .queued
            blink = .halfHertz
        default:
            if let fraction = snapshot.fraction, snapshot.isEstimate {
                content = .bar(fraction: fraction, dotted: true)
            } else if let bar {
                content = bar
                edgeDark = snapshot.elapsed.truncatingRemainder(dividingBy: 2) >= 1.9
            } else {
                content = .working
            }
        }
    }

    /// The time left as a small display shows it: `m:ss` under an hour (`m.ss` without a colon),
    /// then `1h05`, then days; an estimate ends in a point.
    func timeText(colon: Bool) -> String? {
        guard let timeLeft else { return nil }
        let seconds = Int(max(0, timeLeft).rounded(.up))
        let text: String
        if seconds < 3600 {
            text = "\(seconds / 60)\(colon ? ":" : ".")\(Self.twoDigits(seconds % 60))"
        } else if seconds < 86_400 {
            text = "\(seconds / 3600)h\(Self.twoDigits(seconds % 3600 / 60))"
        } else {
            text = "\(min(999, seconds / 86_400))d"
        }
        return timeLeftIsExact ? text : text + "."
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
