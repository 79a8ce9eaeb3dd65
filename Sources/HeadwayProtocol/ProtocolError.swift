/// A request that could not be taken: which field was wrong and how.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The member that was wrong (nil: the line as a whole).
    public var field: String?
    /// What was wrong and how to put it right.
    public var message: String

    /// A refusal of `field` (nil: the whole line) saying `message`.
    public init(field: String?, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}
