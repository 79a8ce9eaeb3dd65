/// What is wrong with a YAML text, and the line (1-based) where it was found, when known.
public struct YAMLError: Error, Sendable {
    public let line: Int?
    public let message: String
}
