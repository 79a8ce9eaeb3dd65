import Headway

/// Which jobs each output shows: the one place that decides it.
///
/// Displays, rings, sticks and GPIO LEDs show one job, the newest visible one. A chain of 16 or
/// more LEDs laid out as a strip gives each visible job a segment of its own (oldest first on the
/// wire), as many as fit with at least ``minimumSegment`` LEDs each.
enum OutputLayout {
    enum Drawing {
        case one(ProgressStyleConfiguration)
        case segments([LEDOutput.Segment])
    }

    static let minimumSegment = 8

    /// How many jobs `output` can show at once.
    static func capacity(of output: ServiceOutput) -> Int {
        guard let count = output.stripLength, count >= 2 * minimumSegment else { return 1 }
        return count / minimumSegment
    }

    /// What `output` draws, given the visible jobs newest first (at least its capacity of them).
    static func drawing(for output: ServiceOutput, jobs: [ProgressSnapshot], idle: ProgressSnapshot, appearance: Appearance) -> Drawing {
        func configuration(_ snapshot: ProgressSnapshot) -> ProgressStyleConfiguration {
            ProgressStyleConfiguration(snapshot: snapshot, appearance: appearance)
        }
        guard let newest = jobs.first else { return .one(configuration(idle)) }
        let shown = Array(jobs.prefix(capacity(of: output)).reversed())
        guard shown.count > 1, let count = output.stripLength else { return .one(configuration(newest)) }
        let size = count / shown.count
        return .segments(shown.enumerated().map { index, snapshot in
            let start = index * size
            let end = index == shown.count - 1 ? count : start + size
            return LEDOutput.Segment(range: start..<end, configuration: configuration(snapshot))
        })
    }
}
