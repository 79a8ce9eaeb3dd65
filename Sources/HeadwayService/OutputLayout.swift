import Headway

/// Which job an output that shows one job at a time shows.
public enum Focus: String, Sendable, CaseIterable {
    /// The newest running job.
    case newest
    /// The oldest running job, until it ends.
    case oldest
    /// A failure being signalled, then a stalled job, then the newest: what needs a person first.
    case urgent
}

/// Which jobs each output shows, and where: the one place that decides it.
///
/// Displays, rings, sticks and GPIO LEDs show one job, chosen by the configuration's ``Focus`` and
/// kept while it stays the right choice (a job does not lose the display to an equal one); they
/// show that others run ("+2" on a display, a marker LED on a ring). A chain of 16 or more LEDs laid
/// out as a strip gives each running job a segment of its own, at least eight LEDs,
/// with one unlit LED between segments. A job keeps its segment while it runs: when a job ends its
/// segment goes dark and the others stay where they are; a new job takes the first free segment, or
/// a new one at the end (the segments then share the strip again).
public struct OutputLayout: Sendable {
    /// What an output draws in a frame.
    public enum Drawing: Sendable {
        /// One job on the whole output.
        case one(ProgressStyleConfiguration)
        /// Each running job in a segment of the strip.
        case segments([LEDOutput.Segment])
    }

    static let minimumSegment = 8

    /// The job a single-job output shows.
    private(set) var focused: String?
    /// A strip's segments, by job (nil: free).
    private(set) var slots: [String?] = []

    /// The jobs this output shows now.
    var shownJobs: [String] { (focused.map { [$0] } ?? []) + slots.compactMap { $0 } }

    /// How many jobs `output` can show side by side.
    static func capacity(of output: ServiceOutput) -> Int {
        guard let count = output.stripLength, count >= 2 * minimumSegment else { return 1 }
        return (count + 1) / (minimumSegment + 1)
    }

    /// What `output` draws now. `jobs` are the visible jobs in the order they began (at least the
    /// output's capacity of the newest, and any it showed before).
    mutating func drawing(
        for output: ServiceOutput, jobs: [(id: String, snapshot: ProgressSnapshot)], visibleCount: Int, focus: Focus,
        idle: ProgressSnapshot, appearance: Appearance
    ) -> Drawing {
        func configuration(_ snapshot: ProgressSnapshot, others: Int) -> ProgressStyleConfiguration {
            ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance, otherJobs: others)
        }
        let capacity = Self.capacity(of: output)
        guard capacity > 1, let count = output.stripLength else {
            guard let shown = choose(from: jobs, focus: focus) else {
                focused = nil
                return .one(configuration(idle, others: 0))
            }
            focused = shown.id
            return .one(configuration(shown.snapshot, others: max(0, visibleCount - 1)))
        }
        let running = Set(jobs.map(\.id))
        slots = slots.map { $0.flatMap { running.contains($0) ? $0 : nil } }
        while slots.last == .some(nil) { slots.removeLast() }
        for job in jobs where !slots.contains(job.id) {
            if let free = slots.firstIndex(of: nil) {
                slots[free] = job.id
            } else if slots.count < capacity {
                slots.append(job.id)
            }
        }
        guard !slots.isEmpty else { return .one(configuration(idle, others: 0)) }
        let snapshots = Dictionary(jobs.map { ($0.id, $0.snapshot) }, uniquingKeysWith: { first, _ in first })
        let length = (count - (slots.count - 1)) / slots.count
        return .segments(slots.enumerated().compactMap { index, id in
            guard let id, let snapshot = snapshots[id] else { return nil }
            let start = index * (length + 1)
            let end = index == slots.count - 1 ? count : start + length
            return LEDOutput.Segment(range: start..<end, configuration: configuration(snapshot, others: 0))
        })
    }

    /// The job to show on a single-job output, keeping the one shown while it is as good a choice.
    private func choose(from jobs: [(id: String, snapshot: ProgressSnapshot)], focus: Focus) -> (id: String, snapshot: ProgressSnapshot)? {
        guard !jobs.isEmpty else { return nil }
        switch focus {
        case .newest:
            return jobs.last
        case .oldest:
            return jobs.first { $0.id == focused } ?? jobs.first
        case .urgent:
            let best = jobs.map { Self.urgency($0.snapshot) }.max()!
            if let current = jobs.first(where: { $0.id == focused }), Self.urgency(current.snapshot) == best { return current }
            return jobs.last { Self.urgency($0.snapshot) == best }
        }
    }

    /// How much a job needs a person now: a failure being signalled, then a stall, then the rest;
    /// a job still waiting in a queue last.
    static func urgency(_ snapshot: ProgressSnapshot) -> Int {
        switch snapshot.phase {
        case .finished(.failed): 2
        case .stalled: 1
        case .queued: -1
        default: 0
        }
    }
}
