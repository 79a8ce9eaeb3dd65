import Headway
import HeadwayProtocol
import HeadwaySystem

/// One job as the state folder keeps it.
struct KeptJob: Codable, Sendable {
    var id: String
    var owner: UInt32?
    var name: String?
    var job: ProgressJob
}

/// What `jobs.json` holds: the jobs, the failures quiet hours marked, and when it was written on
/// the writing process's clock and on the wall clock — so that a new process moves every job
/// onto its own clock and counts the time it was away as running time — and the last entry of
/// the journal it holds (entries after it are newer than the file).
struct KeptState: Codable {
    /// The form of the file; another is set aside, not read.
    static let format = 1

    var format: Int
    var savedAt: Seconds
    var savedAtWall: Double
    var unseenFailures: Int
    var jobs: [KeptJob]
    var journal: Int?
}

/// The part of the service that keeps its jobs through a restart (`systemctl restart`, an upgrade,
/// a crash): whenever the jobs change it hands the ``StateWriter`` the registry as it is — at most
/// once a second, the copy and its encoding off the service's loop — and a job begun or ended is
/// in the ``JobJournal`` before it is answered; at start it reads both back. A file that cannot
/// be read (damaged, or of another format) is set aside with one log line and the service starts
/// without it: never a crash loop.
final class JobKeeper {
    static let file = "jobs.json"
    /// The most jobs a state file may hold before it is refused (a registry holds 10,000).
    static let maxFileBytes = 64 << 20

    private let writer: StateWriter
    let journal: JobJournal
    private let logger: ServiceLogger
    private var keptRevision = -1
    private var keptUnseenFailures = 0
    private var submittedAt = -Double.infinity

    init(writer: StateWriter, logger: ServiceLogger) {
        self.writer = writer
        self.logger = logger
        journal = JobJournal(folder: writer.folder, logger: logger)
    }

    /// When the jobs next need handing to the writer, if they changed since they last were.
    func due(revision: Int, unseenFailures: Int) -> Seconds? {
        guard revision != keptRevision || unseenFailures != keptUnseenFailures else { return nil }
        return submittedAt + writer.minimumInterval
    }

    /// Hands the writer the jobs as they are now, if they changed and a second has passed.
    func keep(_ registry: JobRegistry, unseenFailures: Int, at now: Seconds, wall: Double) {
        guard let due = due(revision: registry.revision, unseenFailures: unseenFailures), now >= due else { return }
        keptRevision = registry.revision
        keptUnseenFailures = unseenFailures
        submittedAt = now
        let journal = journal, through = journal.appended
        writer.submit(Self.file, written: { journal.fold(through: through) }) {
            let state = KeptState(format: KeptState.format, savedAt: now, savedAtWall: wall, unseenFailures: unseenFailures, jobs: registry.kept, journal: through)
            return Array(((try? JSONValueCoding.encode(state).text) ?? "").utf8)
        }
    }

    /// Files the writer has written (for measuring the write rate).
    var writes: Int { writer.writes }

    /// Writes what is handed in now: the service is stopping.
    func flush(_ registry: JobRegistry, unseenFailures: Int, at now: Seconds, wall: Double) {
        submittedAt = -.infinity
        keptRevision = -1
        keep(registry, unseenFailures: unseenFailures, at: now, wall: wall)
        writer.flush()
    }

    /// The jobs kept in the writer's folder, moved onto this process's clock, or nil when there
    /// are none. A file that cannot be read is set aside, with one line saying so.
    func restore(at now: Seconds, wall: Double) -> KeptState? {
        let path = writer.folder + "/" + Self.file
        let file = readState(path)
        let (entries, unreadable) = JobJournal.read(journal.path)
        if unreadable > 0 { logger.warning("\(journal.path): \(unreadable) line\(unreadable == 1 ? "" : "s") could not be read and \(unreadable == 1 ? "was" : "were") left out") }
        let newer = entries.filter { $0.sequence > file?.journal ?? 0 }
        journal.continueAfter(max(file?.journal ?? 0, entries.map(\.sequence).max() ?? 0))
        guard file != nil || !newer.isEmpty else { return nil }
        // The time since each was written, on the wall clock (the machine may have rebooted,
        // restarting the monotonic clock); never less than nothing.
        func shift(savedAt: Seconds, savedAtWall: Double) -> Seconds { now - max(0, wall - savedAtWall) - savedAt }
        var jobs = (file?.jobs ?? []).map { ($0, shift(savedAt: file!.savedAt, savedAtWall: file!.savedAtWall)) }
        // A journal entry is what its job became after the file was written: it replaces it.
        var indices = Dictionary(jobs.enumerated().map { ($1.0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for entry in newer {
            let moved = (entry.kept, shift(savedAt: entry.savedAt, savedAtWall: entry.savedAtWall))
            if let index = indices[entry.kept.id] {
                jobs[index] = moved
            } else {
                indices[entry.kept.id] = jobs.count
                jobs.append(moved)
            }
        }
        // Every job passes the protocol's checks again: what a report could not have made is set
        // aside, a label is filtered and cut, a name that could not be given is dropped.
        var refused: [String] = []
        let checked = jobs.compactMap { kept, delta -> KeptJob? in
            guard Identifier.problem(kept.id) == nil, let job = kept.job.checkedAfterReading(maxLabelBytes: WireProtocol.maxLabelBytes) else {
                refused.append(DisplayText.shortened(DisplayText.sanitised(kept.id), maxBytes: 40))
                return nil
            }
            let name = kept.name.flatMap { Identifier.problem($0, maxBytes: WireProtocol.maxNameBytes) == nil ? $0 : nil }
            let moved = job.shifted(by: delta)
            // Over while the service was away (its result shown long enough, or lost): forgotten,
            // as it would have been.
            return moved.isOver(at: now) ? nil : KeptJob(id: kept.id, owner: kept.owner, name: name, job: moved)
        }
        if !refused.isEmpty {
            let listed = refused.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (refused.count > 5 ? " and \(refused.count - 5) more" : "")
            logger.warning("\(path): \(refused.count) kept job\(refused.count == 1 ? "" : "s") left out, not what a report can make (an id, a value above its total, a time that is not finite): \(listed)")
        }
        keptRevision = -1
        let last = max(file?.journal ?? 0, entries.map(\.sequence).max() ?? 0)
        let merged = KeptState(format: KeptState.format, savedAt: now, savedAtWall: wall, unseenFailures: file?.unseenFailures ?? 0, jobs: checked, journal: last)
        settle(merged, at: path)
        return merged
    }

    /// Writes what was taken back as the new `jobs.json` and empties the journal, before the
    /// service answers anyone: each process starts with one file to read, and a service killed
    /// again and again does not leave a journal growing across its lives. Staging files of
    /// writes a kill cut short go too.
    private func settle(_ state: KeptState, at path: String) {
        for name in Folders.entries(writer.folder) ?? [] where name.hasPrefix(Self.file + ".") && name.hasSuffix(".new") {
            Files.remove(writer.folder + "/" + name)
        }
        do throws(SystemError) {
            try Files.replace(path, with: Array(((try? JSONValueCoding.encode(state).text) ?? "").utf8))
            Files.remove(journal.path)
        } catch {
            // The journal stays: the next start reads it again.
            logger.warning("cannot write \(path): \(error); the jobs taken back are kept only in memory until it can be")
        }
    }

    /// `jobs.json` as the last process wrote it, or nil (none, or set aside).
    private func readState(_ path: String) -> KeptState? {
        let bytes: [UInt8]
        switch Files.readBounded(path, limit: Self.maxFileBytes) {
        case .success(let read): bytes = read
        case .failure(.missing): return nil
        case .failure(let problem):
            setAside(path, because: problem.reason)
            return nil
        }
        do {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw JSONValueCoding.Mismatch(description: "not UTF-8") }
            let json: JSONValue
            do { json = try JSONValue.parse(text) } catch { throw JSONValueCoding.Mismatch(description: "\(error)") }
            guard json["format"]?.number == Double(KeptState.format) else {
                throw JSONValueCoding.Mismatch(description: "a format this version does not read (\(json["format"]?.number.map { NumberText.compact($0) } ?? "none"))")
            }
            return try JSONValueCoding.decode(KeptState.self, from: json)
        } catch {
            setAside(path, because: "\(error)")
            return nil
        }
    }

    /// Puts what `job` is now in the journal; its number is durable once the journal's
    /// `durable` reaches it.
    func journal(_ job: KeptJob, at now: Seconds, wall: Double) {
        journal.append(job, at: now, wall: wall)
    }

    private func setAside(_ path: String, because reason: String) {
        let aside = path + ".set-aside"
        Files.remove(aside)
        let moved = (try? Files.link(path, as: aside)) != nil
        Files.remove(path)
        logger.warning("\(path) cannot be read (\(DisplayText.quoted(reason, maxBytes: 200))); starting without the jobs it kept\(moved ? ", the file is kept as \(aside)" : "")")
    }
}
