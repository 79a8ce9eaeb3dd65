import Headway

/// How long past runs of each job took: what a job that reports no progress is estimated from.
///
/// As Jenkins does (`Job.getEstimatedDuration`), the estimate is the mean of the most recent
/// successful runs, up to ``runsAveraged`` of them; failed and cancelled runs do not count (a
/// failure after a minute says nothing of how long a success takes). A few runs are kept per name,
/// and at most ``namesKept`` names, the least recently run forgotten first.
public struct DurationHistory: Sendable, Equatable {
    /// How many of a name's latest successful runs its estimate is the mean of.
    public static let runsAveraged = 3
    /// How many names are kept at most.
    public static let namesKept = 1000

    /// Per name, the durations of its recent successful runs, oldest first.
    public private(set) var runs: [String: [Seconds]] = [:]
    /// Names in the order they last ran, least recent first.
    private var recency: [String] = []

    /// A history with no runs.
    public init() {}

    /// The expected duration of a run of `name`, when past runs say.
    public func expected(for name: String) -> Seconds? {
        guard let recent = runs[name]?.suffix(Self.runsAveraged), !recent.isEmpty else { return nil }
        return recent.reduce(0, +) / Double(recent.count)
    }

    /// A run of `name` succeeded after `duration` seconds.
    public mutating func record(_ duration: Seconds, for name: String) {
        guard duration.isFinite, duration > 0 else { return }
        runs[name, default: []].append(duration)
        if runs[name]!.count > Self.runsAveraged { runs[name]!.removeFirst(runs[name]!.count - Self.runsAveraged) }
        recency.removeAll { $0 == name }
        recency.append(name)
        while recency.count > Self.namesKept { runs[recency.removeFirst()] = nil }
    }

    // MARK: - Text form

    /// One line per name, least recently run first: the durations in seconds, a tab, the name.
    /// Names cannot hold tabs or line breaks (they are checked like job ids).
    public var text: String {
        recency.map { name in (runs[name] ?? []).map { NumberText.compact($0) }.joined(separator: ",") + "\t" + name + "\n" }.joined()
    }

    /// Reads ``text``; lines that do not parse are skipped (a damaged file loses those names only).
    public init(text: String) {
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            let name = String(line[line.index(after: tab)...])
            let durations = line[..<tab].split(separator: ",").compactMap { Double($0) }.filter { $0.isFinite && $0 > 0 }
            guard !name.isEmpty, DisplayText.sanitised(name) == name else { continue }
            for duration in durations { record(duration, for: name) }
        }
    }
}
