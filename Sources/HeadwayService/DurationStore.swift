import Foundation
import Headway

/// Keeps ``DurationHistory`` in the service's state folder (`durations` there), so what past runs
/// took survives restarts. A folder that cannot be written is reported once; the history then lives
/// in memory only.
public final class DurationStore {
    public private(set) var history: DurationHistory
    private let file: URL?
    private let logger: ServiceLogger
    private var reportedFailure = false

    /// The history in `folder` (created when missing), or an empty one in memory without a folder.
    public init(folder: String?, logger: ServiceLogger) {
        self.logger = logger
        guard let folder else {
            file = nil
            history = DurationHistory()
            return
        }
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        file = url.appendingPathComponent("durations")
        if let data = try? Data(contentsOf: file!) {
            history = DurationHistory(text: String(decoding: data, as: UTF8.self))
        } else {
            history = DurationHistory()
        }
    }

    public func expected(for name: String) -> Seconds? { history.expected(for: name) }

    /// Records a successful run and writes the history out (atomically: a crash leaves the old file).
    public func record(_ duration: Seconds, for name: String) {
        history.record(duration, for: name)
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(history.text.utf8).write(to: file, options: .atomic)
        } catch {
            if !reportedFailure { logger.warning("cannot keep learned durations in \(file.path): \(error.localizedDescription); they last until the service stops") }
            reportedFailure = true
        }
    }
}
