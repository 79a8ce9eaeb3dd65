/// How a job ended.
public enum Outcome: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case succeeded
    case failed
    case cancelled
    /// It ended and nothing said how (a runner whose hooks are not told the result): shown as
    /// neutral, never as a success.
    case ended

    public var description: String { rawValue }
}
