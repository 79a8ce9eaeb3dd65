/// When a status is worth a line of text of its own (printed to a pipe, or to a terminal too small
/// for the live view): when its `key` (the phases) changed, or a new `tick` (a second) came and
/// the line changed, so that a busy job prints about a line a second and a quiet one none.
public struct TextLineThrottle: Sendable {
    private var last: (line: String, key: String, tick: Int)?

    /// A throttle that has let no line through yet.
    public init() {}

    /// `line` when it is due, else nil.
    public mutating func due(_ line: String, key: String, tick: Int) -> String? {
        if let last, last.key == key, last.tick == tick || last.line == line { return nil }
        last = (line, key, tick)
        return line
    }
}
