/// What a job knows about its own progress, in SwiftUI's `ProgressView` terms.
public enum ProgressKind: Sendable, Equatable, Codable {
    /// Work of unknown size: shown as something that keeps moving.
    case indeterminate
    /// `value` of `total` done (`total` defaults to 1.0 where a job reports plain fractions).
    case determinate(value: Double, total: Double)
    /// Progress driven by the clock over `start...end`. With `countsDown` the indicator empties as time
    /// passes (like `ProgressView(timerInterval:countsDown:)`), otherwise it fills.
    case timer(start: Seconds, end: Seconds, countsDown: Bool)

    /// Whether the job knows how far it has come (a timer always does).
    public var isDeterminate: Bool {
        if case .indeterminate = self { return false }
        return true
    }
}
