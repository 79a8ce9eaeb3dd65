import Headway
import HeadwaySystem
import Synchronization

/// Writes the service's state files (the jobs it keeps through a restart, learned durations) on a
/// thread of its own, so that the service's loop never waits for a disk — an SD card's fsync can
/// take a second. A file is written whole and renamed into place (a crash at any instant leaves the
/// old file or the new one, never half of one), at most once per ``minimumInterval``: contents
/// handed in meanwhile replace each other, and only the latest is written.
final class StateWriter: Sendable {
    /// The shortest time between two writes of one file.
    let minimumInterval: Double
    /// The folder the files are in.
    let folder: String
    private let logger: ServiceLogger
    private let clock = MonotonicClock()

    private struct State {
        var pending: [String: Submission] = [:]
        var writtenAt: [String: Double] = [:]
        var failed: Set<String> = []
        var writes = 0
    }

    /// What a file is to hold, and what to do once it is written.
    private struct Submission {
        var contents: @Sendable () -> [UInt8]
        var written: @Sendable () -> Void
    }

    private let state = Mutex(State())
    /// Held from taking what is pending until it is written: the thread and ``flush()`` never write
    /// at once, and a flush returns only once everything handed in before it is on disk (what the
    /// thread took is written before the flush looks).
    private let writing = Mutex(())
    private let wake: (read: Int32, write: Int32)?

    /// A writer into `folder` (made when first written), each file at most once per `minimumInterval`.
    init(folder: String, minimumInterval: Double = 1, logger: ServiceLogger) {
        self.folder = folder
        self.minimumInterval = minimumInterval
        self.logger = logger
        wake = try? SystemIO.makePipe(nonBlocking: true)
        guard let wake else { return }
        try? Threads.start { [weak self] in
            while let self {
                let timeout = self.nextDue().map { max(0, $0 - self.clock.now) }
                _ = SystemIO.poll([(wake.read, .readable)], timeout: timeout)
                SystemIO.drain(wake.read)
                self.writeDue()
            }
        }
    }

    deinit {
        if let wake {
            SystemIO.close(wake.read)
            SystemIO.close(wake.write)
        }
    }

    /// Files written since the writer started (for measuring the write rate).
    var writes: Int { state.withLock { $0.writes } }

    /// Hands in what `file` is to hold; `contents` is called on the writer's thread, when the file
    /// is next written, and `written` once it is on disk.
    func submit(_ file: String, written: @escaping @Sendable () -> Void = {}, _ contents: @escaping @Sendable () -> [UInt8]) {
        state.withLock { $0.pending[file] = Submission(contents: contents, written: written) }
        if let wake { SystemIO.poke(wake.write) }
    }

    /// Writes everything handed in, now, on the calling thread: the service is stopping.
    func flush() {
        writing.withLock { _ in
            let pending = state.withLock { state in
                defer { state.pending = [:] }
                return state.pending
            }
            for (file, submission) in pending { write(file, submission) }
        }
    }

    private func nextDue() -> Double? {
        state.withLock { state in
            state.pending.keys.map { (state.writtenAt[$0] ?? -.infinity) + minimumInterval }.min()
        }
    }

    private func writeDue() {
        writing.withLock { _ in
            let now = clock.now
            let due = state.withLock { state -> [(String, Submission)] in
                let ready = state.pending.filter { now >= (state.writtenAt[$0.key] ?? -.infinity) + minimumInterval }
                for file in ready.keys {
                    state.pending[file] = nil
                    state.writtenAt[file] = now
                }
                return ready.map { ($0.key, $0.value) }
            }
            for (file, submission) in due { write(file, submission) }
        }
    }

    /// Called with `writing` held.
    private func write(_ file: String, _ submission: Submission) {
        let bytes = submission.contents()
        do throws(SystemError) {
            try Folders.make(folder, mode: 0o750)
            try Files.replace(folder + "/" + file, with: bytes)
            submission.written()
            let recovered = state.withLock { state in
                state.writes += 1
                return state.failed.remove(file) != nil
            }
            if recovered { logger.info("\(folder)/\(file) is written again") }
        } catch {
            // Said once until it works again: a full disk must not fill the journal too.
            if state.withLock({ $0.failed.insert(file).inserted }) {
                logger.warning("cannot write \(folder)/\(file): \(error); what it keeps lasts until the service stops")
            }
        }
    }
}
