/// One `notify:` rule: which jobs, on which events, to where.
public struct NotificationRule: Sendable, Equatable {
    /// What happened to a job.
    public enum Event: String, Sendable, Equatable, CaseIterable {
        /// It finished well.
        case succeeded
        /// It failed (or its process ended without saying how it went).
        case failed
        /// It was cancelled.
        case cancelled
        /// It stopped reporting for longer than `stall-after`.
        case stalled
    }

    /// Where a notification goes.
    public enum Target: Sendable, Equatable {
        /// A JSON object POSTed to the URL.
        case webhook(String)
        /// A text POSTed to an ntfy-style topic URL, with a title, a priority and tags in headers.
        case ntfy(String)
    }

    /// A glob (`*`, `?`) on the job's name, or its id when it has no name.
    public var jobs: String
    /// The events it fires on.
    public var events: Set<Event>
    /// Where it goes.
    public var target: Target

    /// A rule sending `events` of the jobs matching `jobs` to `target`.
    public init(jobs: String, events: Set<Event>, target: Target) {
        self.jobs = jobs
        self.events = events
        self.target = target
    }

    /// Whether a job of this name (or id) is one the rule covers.
    public func covers(_ name: String) -> Bool { Self.glob(Array(jobs.utf8)[...], Array(name.utf8)[...]) }

    /// Shell-style matching: `*` any run of bytes, `?` one byte.
    static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: Int?, resume = text.startIndex
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = p
                p += 1
                resume = t
            } else if let s = star {
                p = s + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}
