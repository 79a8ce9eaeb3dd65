import Headway

/// How past runs of each job went: what a job that reports no progress is estimated from, and the
/// recent runs a person looks back on (the web page's plot).
///
/// As Jenkins does (`Job.getEstimatedDuration`), the estimate is the mean of the most recent
/// successful runs, up to ``runsAveraged`` of them; failed and cancelled runs do not count (a
/// failure after a minute says nothing of how long a success takes). The last ``runsKept`` runs of
/// any outcome are kept beside them, and at most ``namesKept`` names, the least recently run
/// forgotten first. A job that reported progress also leaves the pace of its last successful run
/// (`PaceProfile`), which its next run's time left is read from.
public struct DurationHistory: Sendable, Equatable {
    /// How many of a name's latest successful runs its estimate is the mean of.
    public static let runsAveraged = 3
    /// How many recent runs of any outcome are kept per name.
    public static let runsKept = 20
    /// How many names are kept at most.
    public static let namesKept = 1000

    /// One run: how long it took, how it ended, and when (seconds since 1970, when known).
    public struct Run: Sendable, Equatable {
        /// How long it ran.
        public var duration: Seconds
        /// How it ended.
        public var outcome: Outcome
        /// When it ended, in seconds since 1970 (UTC).
        public var endedAt: Double?

        /// A run of each fact given.
        public init(duration: Seconds, outcome: Outcome, endedAt: Double? = nil) {
            self.duration = duration
            self.outcome = outcome
            self.endedAt = endedAt
        }
    }

    /// Per name, the durations of its recent successful runs, oldest first.
    public private(set) var runs: [String: [Seconds]] = [:]
    /// Per name, its last runs of any outcome, oldest first.
    public private(set) var recent: [String: [Run]] = [:]
    /// Names in the order they last ran, least recent first.
    public private(set) var recency: [String] = []
    /// Per name, how its last successful run that reported progress went.
    public private(set) var paces: [String: PaceProfile] = [:]

    /// A history with no runs.
    public init() {}

    /// The expected duration of a run of `name`, when past runs say.
    public func expected(for name: String) -> Seconds? {
        guard let recent = runs[name]?.suffix(Self.runsAveraged), !recent.isEmpty else { return nil }
        return recent.reduce(0, +) / Double(recent.count)
    }

    /// A run of `name` succeeded after `duration` seconds.
    public mutating func record(_ duration: Seconds, for name: String) {
        record(Run(duration: duration, outcome: .succeeded), for: name)
    }

    /// A run of `name` ended as `run` says; `pace`, how it went when it reported progress.
    public mutating func record(_ run: Run, for name: String, pace: PaceProfile? = nil) {
        guard run.duration.isFinite, run.duration > 0 else { return }
        if run.outcome == .succeeded {
            if let pace, pace.isComplete { paces[name] = pace }
            runs[name, default: []].append(run.duration)
            if runs[name]!.count > Self.runsAveraged { runs[name]!.removeFirst(runs[name]!.count - Self.runsAveraged) }
        }
        recent[name, default: []].append(run)
        if recent[name]!.count > Self.runsKept { recent[name]!.removeFirst(recent[name]!.count - Self.runsKept) }
        recency.removeAll { $0 == name }
        recency.append(name)
        while recency.count > Self.namesKept {
            let gone = recency.removeFirst()
            runs[gone] = nil
            recent[gone] = nil
            paces[gone] = nil
        }
    }

    // MARK: - Text form

    /// Up to three lines per name, least recently run first: the successful durations in seconds, a
    /// tab, the name; then `runs:` and the recent runs (`SECONDS/OUTCOME/ENDED`), a tab, the name;
    /// then `pace:` and the last success's `PaceProfile` times, a tab, the name. Names cannot hold
    /// tabs or line breaks (they are checked like job ids).
    public var text: String {
        recency.map { name in
            var lines = (runs[name] ?? []).map { NumberText.compact($0) }.joined(separator: ",") + "\t" + name + "\n"
            if let recent = recent[name], !recent.isEmpty {
                let entries = recent.map { run in
                    NumberText.compact(run.duration) + "/" + run.outcome.rawValue + (run.endedAt.map { "/" + NumberText.compact($0.rounded()) } ?? "")
                }
                lines += "runs:" + entries.joined(separator: ",") + "\t" + name + "\n"
            }
            if let pace = paces[name] {
                lines += "pace:" + pace.times.map { NumberText.compact(($0 * 1000).rounded() / 1000) }.joined(separator: ",") + "\t" + name + "\n"
            }
            return lines
        }.joined()
    }

    /// Reads ``text``; lines that do not parse are skipped (a damaged file loses those names only).
    public init(text: String) {
        var runLines: [(String, Substring)] = []
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            let name = String(line[line.index(after: tab)...])
            guard !name.isEmpty, DisplayText.sanitised(name) == name else { continue }
            if line.hasPrefix("runs:") {
                runLines.append((name, line[line.index(line.startIndex, offsetBy: 5)..<tab]))
                continue
            }
            if line.hasPrefix("pace:") {
                let times = line[line.index(line.startIndex, offsetBy: 5)..<tab].split(separator: ",").map { Double($0) ?? .nan }
                paces[name] = PaceProfile(times: times)
                continue
            }
            let durations = line[..<tab].split(separator: ",").compactMap { Double($0) }.filter { $0.isFinite && $0 > 0 }
            for duration in durations {
                runs[name, default: []].append(duration)
                if runs[name]!.count > Self.runsAveraged { runs[name]!.removeFirst() }
            }
            if !durations.isEmpty { recency.removeAll { $0 == name }; recency.append(name) }
        }
        for (name, entries) in runLines {
            let parsed: [Run] = entries.split(separator: ",").compactMap { entry in
                let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
                guard let duration = Double(parts[0]), duration.isFinite, duration > 0 else { return nil }
                let outcome = parts.count > 1 ? Outcome(rawValue: String(parts[1])) : .succeeded
                guard let outcome else { return nil }
                let ended = parts.count > 2 ? Double(parts[2]).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } : nil
                return Run(duration: duration, outcome: outcome, endedAt: ended)
            }
            guard !parsed.isEmpty else { continue }
            recent[name] = Array(parsed.suffix(Self.runsKept))
            if !recency.contains(name) { recency.append(name) }
        }
        for name in paces.keys where !recency.contains(name) { paces[name] = nil }
        while recency.count > Self.namesKept {
            let gone = recency.removeFirst()
            runs[gone] = nil
            recent[gone] = nil
            paces[gone] = nil
        }
    }
}
