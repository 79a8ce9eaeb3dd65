/// How a job ended.
public enum Outcome: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case succeeded
    case failed
    case cancelled

    public var description: String { rawValue }
}
