import HeadwayCore

/// A request that could not be taken: what it means (``code``, for programs), which field was
/// wrong, and how to put it right (``message``, for people).
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the refusal means; clients decide by this, never by the message.
    public var code: ProtocolErrorCode
    /// The member that was wrong (nil: the line as a whole).
    public var field: String?
    /// What was wrong and how to put it right.
    public var message: String

    /// A refusal meaning `code`, of `field` (nil: the whole line), saying `message`.
    public init(_ code: ProtocolErrorCode, field: String?, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// The refusal of a report the job's own model refused.
    public init(_ error: ProgressError) {
        self.init(error.code, field: error.field, error.description)
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}

extension ProgressError {
    /// What the refusal means on the wire.
    public var code: ProtocolErrorCode {
        switch self {
        case .invalidValue, .valueAboveTotal, .invalidTotal, .invalidTimeRemaining, .invalidStageEnd, .invalidInterval: .outOfRange
        case .indeterminateAfterDeterminate: .alreadyDeterminate
        case .alreadyFinished: .jobFinished
        }
    }

    /// The request's member it concerns (nil: the request as a whole).
    var field: String? {
        switch self {
        case .invalidValue, .valueAboveTotal: "value"
        case .invalidTotal: "total"
        case .invalidTimeRemaining: "eta"
        case .invalidStageEnd: "stage_end"
        case .invalidInterval: nil
        case .indeterminateAfterDeterminate, .alreadyFinished: "op"
        }
    }
}
