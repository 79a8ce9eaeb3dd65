/// Why a progress report was refused. The job that received it is left exactly as it was.
public enum ProgressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value that is NaN, infinite or negative.
    case invalidValue(Double)
    /// A value above the job's total: it would read as done, or more than done.
    case valueAboveTotal(value: Double, total: Double)
    /// A total that is NaN, infinite, zero or negative.
    case invalidTotal(Double)
    /// A time remaining (a job's own ETA) that is NaN, infinite or negative.
    case invalidTimeRemaining(Double)
    /// A stage's end (``ProgressJob/stageEnd``) that is NaN, infinite, or below the value reported with it.
    case invalidStageEnd(Double)
    /// A timer interval whose end is not after its start, or whose bounds are not finite.
    case invalidInterval(start: Seconds, end: Seconds)
    /// A determinate job was asked to become indeterminate without a reset.
    case indeterminateAfterDeterminate
    /// A report arrived for a job that has already finished.
    case alreadyFinished(Outcome)

    public var description: String {
        switch self {
        case .invalidValue(let value):
            "progress value \(value) is not a finite number ≥ 0; report how much work is done, e.g. 42 of a total of 200"
        case .valueAboveTotal(let value, let total):
            "\(NumberText.compact(value)) is above this job's total \(NumberText.compact(total)): report at most the total, a percentage, or a new total with the value"
        case .invalidTotal(let total):
            "progress total \(total) is not a finite number > 0; report the amount of work in all, or leave it out for 1.0"
        case .invalidTimeRemaining(let seconds):
            "time remaining \(seconds) is not a finite number of seconds ≥ 0; report the job's own estimate, or leave it out"
        case .invalidStageEnd(let end):
            "stage end \(end) is not a finite number at or above the value; report where the current stage ends on the job's scale, or leave it out in the last stage"
        case .invalidInterval(let start, let end):
            "timer interval \(start)…\(end) is empty or not finite; its end must come after its start"
        case .indeterminateAfterDeterminate:
            "a job with a known total cannot go back to indeterminate; report a reset first if the job really started over"
        case .alreadyFinished(let outcome):
            "the job has already finished (\(outcome)); begin a new job to show more progress"
        }
    }
}
