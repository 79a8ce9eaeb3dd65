/// Which of a program's log lines are written, so that an event that repeats (a client refused
/// again and again, a source refusing each look, the descriptors running out) is a line now and
/// then rather than a line each time: the first line of each kind at once, then at most one of that
/// kind every `interval` seconds, saying how many like it were left out meanwhile. Without an
/// interval a kind is written once. At most `capacity` kinds are remembered, the one written
/// longest ago forgotten first, so that kinds made of outside text (job ids) cost bounded memory.
/// The one limiter of the service's, headway-ci's and headway-mqtt's logs; pure, on the clock
/// it is given.
public struct LogLimiter: Sendable {
    /// Seconds between two lines of one kind; nil: one line a kind.
    public let interval: Seconds?
    /// The most kinds remembered.
    public let capacity: Int
    private var kinds: [String: Kind] = [:]

    private struct Kind: Sendable {
        var writtenAt: Seconds
        var leftOut = 0
    }

    /// A limiter writing each kind at most every `interval` seconds (nil: once), remembering at
    /// most `capacity` kinds.
    public init(interval: Seconds? = 60, capacity: Int = 256) {
        self.interval = interval
        self.capacity = max(1, capacity)
    }

    /// The line to write for `line`, of the kind `kind`, at `now`: `line` itself the first time,
    /// with how many were left out since the last one written after that, or nil while it is too
    /// soon.
    public mutating func admit(_ line: String, kind: String, at now: Seconds) -> String? {
        if var known = kinds[kind] {
            guard let interval, now - known.writtenAt >= interval else {
                known.leftOut += 1
                kinds[kind] = known
                return nil
            }
            kinds[kind] = Kind(writtenAt: now)
            guard known.leftOut > 0 else { return line }
            return "\(line) (\(known.leftOut) more like it in the last \(DurationText.short(now - known.writtenAt)))"
        }
        if kinds.count >= capacity, let oldest = kinds.min(by: { $0.value.writtenAt < $1.value.writtenAt })?.key { kinds[oldest] = nil }
        kinds[kind] = Kind(writtenAt: now)
        return line
    }

    /// The kind of a message whose words stay the same when the same thing happens again and whose
    /// details do not: its text before any parenthesis or quotation, without digits ("12000 bytes;
    /// a request is at most 4096" and "300 bytes; …" are one kind).
    public static func kind(of text: String) -> String {
        String(text.prefix { $0 != "(" && $0 != "\"" }.filter { !$0.isNumber }.prefix(120))
    }

    /// Whether `kind` is remembered (a test's view of the bound).
    public func remembers(_ kind: String) -> Bool { kinds[kind] != nil }

    /// How many kinds are remembered.
    public var count: Int { kinds.count }
}
