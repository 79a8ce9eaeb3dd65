import Headway
import HeadwayProtocol
import HeadwaySystem
import Synchronization

/// The jobs' journal (`jobs.journal` beside `jobs.json`): what a `begin`, `done`, `fail` or
/// `cancel` made of its job, appended and made durable before the service answers — so that a
/// crash a moment after a hook was told "ok" does not lose its job, as waiting for the next
/// `jobs.json` (written at most once a second) would. Updates are not journaled: after a crash
/// a job's value may be up to a second old, never the job gone.
///
/// A thread of its own writes and syncs what was appended, one `fdatasync` for everything that
/// came meanwhile and at most one each ``minimumSyncInterval``, and pokes ``wake`` when more is
/// durable; the service's loop holds each such reply until then and never waits for the disk
/// itself. Each `jobs.json` written records the last entry it holds (``fold(through:)``): the
/// journal is emptied when nothing after that is in it, and cut to what is newer (its tail) when
/// more than half of it is older and it has grown past ``maxBytes``. When the disk refuses a write, it is said once and the
/// replies are no longer held: the jobs then last until the service stops, as with `jobs.json`.
final class JobJournal: Sendable {
    static let file = "jobs.journal"
    /// At most one sync each 2 ms, 500 a second (an SD card's can take 10 ms to a second: the entries
    /// that come meanwhile share the next).
    static let minimumSyncInterval = 0.002
    /// The size past which the journal is rewritten with only what `jobs.json` does not hold yet.
    static let maxBytes = 1 << 20
    /// The most that waits for a disk that does not answer: past it the journal is given up, as
    /// for a disk that refuses it, rather than growing with every job begun.
    static let maxWaiting = 4 << 20

    /// One line of the journal.
    struct Entry: Codable {
        var sequence: Int
        /// When it was appended, on the writing process's clock and on the wall clock.
        var savedAt: Seconds
        var savedAtWall: Double
        var kept: KeptJob
    }

    private struct State {
        var fd: Int32 = -1
        var bytesInFile = 0
        /// Appended and not yet written.
        var queued: [UInt8] = []
        var appended = 0
        var durable = 0
        /// The newest entry `jobs.json` holds, and the size of each entry after it (written or
        /// not): they are the journal's tail.
        var folded = 0
        var unfolded: [(sequence: Int, bytes: Int)] = []
        var failed = false
        var lastSync = -Double.infinity
    }

    let path: String
    private let logger: ServiceLogger
    private let state = Mutex(State())
    private let clock = MonotonicClock()
    private let work: (read: Int32, write: Int32)?
    /// Readable when more of what was appended is durable.
    private let done: (read: Int32, write: Int32)?

    /// A journal in `folder` (made when first written).
    init(folder: String, logger: ServiceLogger) {
        path = folder + "/" + Self.file
        self.logger = logger
        work = try? SystemIO.makePipe(nonBlocking: true)
        done = try? SystemIO.makePipe(nonBlocking: true)
        guard let work else { return }
        try? Threads.start { [weak self] in
            while let self {
                _ = SystemIO.poll([(work.read, .readable)], timeout: nil)
                SystemIO.drain(work.read)
                self.writeQueued()
            }
        }
    }

    deinit {
        let fd = state.withLock { $0.fd }
        if fd >= 0 { SystemIO.close(fd) }
        for pipe in [work, done].compactMap({ $0 }) {
            SystemIO.close(pipe.read)
            SystemIO.close(pipe.write)
        }
    }

    /// The descriptor the service's loop waits on for replies to release.
    var wake: Int32? { done?.read }

    /// The last entry appended, and the last one durable.
    var appended: Int { state.withLock { $0.appended } }
    var durable: Int { state.withLock { $0.durable } }

    /// Numbers the next entry after `last`: what the last process wrote, in the journal or in
    /// `jobs.json`.
    func continueAfter(_ last: Int) {
        state.withLock { state in
            guard state.appended < last else { return }
            state.appended = last
            state.durable = last
            state.folded = last
        }
    }

    /// Appends what `kept` is now; returns its number, durable once ``durable`` reaches it.
    @discardableResult
    func append(_ kept: KeptJob, at now: Seconds, wall: Double) -> Int {
        let sequence = state.withLock { $0.appended + 1 }
        let entry = Entry(sequence: sequence, savedAt: now, savedAtWall: wall, kept: kept)
        let line = Array(((try? JSONValueCoding.encode(entry).text) ?? "").utf8) + [0x0A]
        let gaveUp = state.withLock { state -> Bool in
            state.appended = sequence
            if !state.failed, state.queued.count + line.count > Self.maxWaiting {
                state.failed = true
                state.queued = []
                state.unfolded = []
                state.durable = sequence
                return true
            }
            if state.failed {
                state.durable = sequence
            } else {
                state.queued += line
                state.unfolded.append((sequence, line.count))
            }
            return false
        }
        if gaveUp { logger.warning("\(path): the disk has not taken \(Self.maxWaiting >> 20) MiB of it; jobs begun or ended are kept only with the next jobs.json") }
        if let work { SystemIO.poke(work.write) }
        return sequence
    }

    /// `jobs.json` now holds everything up to entry `sequence`.
    func fold(through sequence: Int) {
        state.withLock { state in
            state.folded = max(state.folded, sequence)
            state.unfolded.removeFirst(state.unfolded.prefix { $0.sequence <= sequence }.count)
        }
        if let work { SystemIO.poke(work.write) }
    }

    /// Empties the wake-up pipe (the loop read it).
    func drainWake() {
        if let done { SystemIO.drain(done.read) }
    }

    private func writeQueued() {
        let wait = state.withLock { $0.lastSync + Self.minimumSyncInterval } - clock.now
        if wait > 0 { Threads.sleep(wait) }
        var (fd, queued, through, unfolded, size) = state.withLock { state in
            defer { state.queued = [] }
            return (state.fd, state.queued, state.appended, state.unfolded.reduce(0) { $0 + $1.bytes }, state.bytesInFile)
        }
        // Nothing to write to a journal not opened yet: it is made with its first entry.
        if fd < 0, queued.isEmpty { return }
        var ok = true
        if fd < 0 {
            fd = Files.openAppending(path)
            ok = fd >= 0
            if ok { size = Self.sizeAfterCuttingATornLine(fd, path: path) }
        }
        // What is written and not yet in jobs.json is at most the file's last `newer` bytes.
        let newer = min(size, max(0, unfolded - queued.count))
        if ok, unfolded == 0, size > 0, queued.isEmpty {
            // Everything written is in jobs.json: start afresh.
            ok = Files.truncate(fd, to: 0)
            size = 0
        } else if ok, size + queued.count > Self.maxBytes, size - newer > size / 2 {
            (fd, size, ok) = cut(fd, keepingLast: newer)
        }
        if ok, !queued.isEmpty {
            ok = SystemIO.writeAll(fd, queued[...]) && Files.syncData(fd)
            size += queued.count
        }
        let error = ok ? nil : SystemError.last
        let said = state.withLock { state -> Bool in
            state.fd = fd
            state.bytesInFile = size
            state.lastSync = clock.now
            if !ok {
                defer { state.failed = true }
                state.durable = state.appended
                state.queued = []
                state.unfolded = []
                return !state.failed
            }
            state.durable = max(state.durable, through)
            return false
        }
        if said, let error { logger.warning("cannot write \(path): \(error); jobs begun or ended are kept only with the next jobs.json") }
        if let done { SystemIO.poke(done.write) }
    }

    /// A new journal holding the last `count` bytes of this one, renamed over it.
    private func cut(_ fd: Int32, keepingLast count: Int) -> (fd: Int32, size: Int, ok: Bool) {
        guard let bytes = Files.read(path, limit: JobKeeper.maxFileBytes) else { return (fd, 0, false) }
        let tail = Array(bytes.suffix(count))
        do throws(SystemError) {
            try Files.replace(path, with: tail)
        } catch {
            return (fd, 0, false)
        }
        SystemIO.close(fd)
        let reopened = Files.openAppending(path)
        return (reopened, tail.count, reopened >= 0)
    }

    /// A crash in the middle of an append leaves a line without its end: it is cut, so that the
    /// next entry starts a line of its own. Returns the size left.
    private static func sizeAfterCuttingATornLine(_ fd: Int32, path: String) -> Int {
        guard let bytes = Files.read(path, limit: maxBytes * 64), !bytes.isEmpty else { return 0 }
        let whole = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        if whole < bytes.count { _ = Files.truncate(fd, to: whole) }
        return whole
    }

    /// The entries of the journal at `path`, in order, and how many lines could not be read.
    static func read(_ path: String) -> (entries: [Entry], unreadable: Int) {
        guard case .success(let bytes) = Files.readBounded(path, limit: JobKeeper.maxFileBytes) else { return ([], 0) }
        var entries: [Entry] = []
        var unreadable = 0
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        for (index, line) in lines.enumerated() {
            guard let text = String(validating: line, as: UTF8.self), let json = try? JSONValue.parse(text),
                  let entry = try? JSONValueCoding.decode(Entry.self, from: json) else {
                // The last line may be torn by a crash: not worth a word.
                if index < lines.count - 1 || bytes.last == 0x0A { unreadable += 1 }
                continue
            }
            entries.append(entry)
        }
        return (entries, unreadable)
    }
}
