import Headway
import HeadwayProtocol
import HeadwaySystem

/// Keeps ``DurationHistory`` in the service's state folder (`durations` there), so what past runs
/// took survives restarts. A folder that cannot be written is reported once; the history then lives
/// in memory only.
public final class DurationStore {
    /// The runs learned so far.
    public private(set) var history: DurationHistory
    private let folder: String?
    private let logger: ServiceLogger
    private var reportedFailure = false

    /// The history in `folder` (created when missing), or an empty one in memory without a folder.
    public init(folder: String?, logger: ServiceLogger) {
        self.logger = logger
        self.folder = folder
        history = DurationHistory(text: folder.flatMap { Files.read($0 + "/durations") }.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    /// The expected duration of a run of `name`, when past runs say.
    public func expected(for name: String) -> Seconds? { history.expected(for: name) }

    /// Told of every run recorded (the metrics' histogram).
    public var onRecord: ((_ name: String, _ outcome: Outcome, _ duration: Seconds) -> Void)?
    /// Grows with every run recorded (a reader's cheap check for news).
    public private(set) var version = 0

    /// Records a run that ended with `outcome` and writes the history out (atomically: a crash
    /// leaves the old file). Only successful runs teach the estimate.
    public func record(_ duration: Seconds, for name: String, outcome: Outcome = .succeeded) {
        history.record(DurationHistory.Run(duration: duration, outcome: outcome, endedAt: WallClock.now), for: name)
        version += 1
        onRecord?(name, outcome, duration)
        guard let folder else { return }
        do throws(SystemError) {
            try Folders.make(folder, mode: 0o755)
            try Files.replace(folder + "/durations", with: Array(history.text.utf8))
        } catch {
            if !reportedFailure { logger.warning("cannot keep learned durations in \(folder)/durations: \(error); they last until the service stops") }
            reportedFailure = true
        }
    }
}
