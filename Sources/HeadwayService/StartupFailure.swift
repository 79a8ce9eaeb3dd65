/// A reason a service cannot start (a configuration or device problem, not a command-line
/// mistake): printed as it is, without the usage text.
public struct StartupFailure: Error, CustomStringConvertible {
    public let description: String
    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
