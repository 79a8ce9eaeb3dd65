import Headway
import HeadwaySystem

/// Keeps ``DurationHistory`` in the service's state folder (`durations` there), so what past runs
/// took survives restarts. A success is learned at once and written by the state writer off the
/// service's loop, at most once a second however many jobs succeed.
public final class DurationStore {
    /// The runs learned so far.
    public private(set) var history: DurationHistory
    private let writer: StateWriter?

    /// The history kept by `writer` (read from its folder), or an empty one in memory without one.
    init(writer: StateWriter?) {
        self.writer = writer
        var text = ""
        if let writer, case .success(let bytes) = Files.readBounded(writer.folder + "/durations", limit: 4 << 20) { text = String(decoding: bytes, as: UTF8.self) }
        history = DurationHistory(text: text)
    }

    /// The history in `folder`, or an empty one in memory without a folder.
    public convenience init(folder: String?, logger: ServiceLogger) {
        self.init(writer: folder.map { StateWriter(folder: $0, logger: logger) })
    }

    /// The expected duration of a run of `name`, when past runs say.
    public func expected(for name: String) -> Seconds? { history.expected(for: name) }

    /// Told of every run recorded (the metrics' histogram).
    public var onRecord: ((_ name: String, _ outcome: Outcome, _ duration: Seconds) -> Void)?
    /// Grows with every run recorded (a reader's cheap check for news).
    public private(set) var version = 0

    /// How the last successful run of `name` went, when it reported progress.
    public func pace(for name: String) -> PaceProfile? { history.paces[name] }

    /// Records a run that ended with `outcome` (and `pace`, how it went); only successful runs teach
    /// the estimate. The file follows off the loop.
    public func record(_ duration: Seconds, for name: String, outcome: Outcome = .succeeded, pace: PaceProfile? = nil) {
        history.record(DurationHistory.Run(duration: duration, outcome: outcome, endedAt: WallClock.now), for: name, pace: pace)
        version += 1
        onRecord?(name, outcome, duration)
        // The text is made on the writer's thread, from this value of the history.
        let learned = history
        writer?.submit("durations") { Array(learned.text.utf8) }
    }
}
