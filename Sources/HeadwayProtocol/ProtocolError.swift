/// A request that could not be taken: which field was wrong and how.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String?
    public var message: String

    public init(field: String?, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }
}
