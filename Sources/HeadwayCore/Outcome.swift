/// How a job ended.
public enum Outcome: String, Sendable, Equatable, CaseIterable, CustomStringConvertible, Codable {
    /// The job did what it set out to do: shown in the success colour, full.
    case succeeded
    /// The job failed (or its process died): shown in the failure colour, where it stopped.
    case failed
    /// Someone stopped the job: shown as cancelled, where it stopped.
    case cancelled
    /// It ended and nothing said how (a runner whose hooks are not told the result): shown as
    /// neutral, never as a success.
    case ended

    public var description: String { rawValue }
}
