/// What is wrong with a YAML text, and the line (1-based) where it was found, when known.
struct YAMLError: Error, Sendable {
    let line: Int?
    let message: String
}
