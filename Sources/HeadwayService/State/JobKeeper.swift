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
/// onto its own clock and counts the time it was away as running time.
struct KeptState: Codable {
    /// The form of the file; another is set aside, not read.
    static let format = 1

    var format: Int
    var savedAt: Seconds
    var savedAtWall: Double
    var unseenFailures: Int
    var jobs: [KeptJob]
}

/// The part of the service that keeps its jobs through a restart (`systemctl restart`, an upgrade,
/// a crash): whenever the jobs change it hands the ``StateWriter`` the registry as it is — at most
/// once a second, the copy and its encoding off the service's loop — and at start it reads them
/// back. A file that cannot be read (damaged, or of another format) is set aside with one log line
/// and the service starts without it: never a crash loop.
final class JobKeeper {
    static let file = "jobs.json"
    /// The most jobs a state file may hold before it is refused (a registry holds 10,000).
    static let maxFileBytes = 64 << 20

    private let writer: StateWriter
    private let logger: ServiceLogger
    private var keptRevision = -1
    private var keptUnseenFailures = 0
    private var submittedAt = -Double.infinity

    init(writer: StateWriter, logger: ServiceLogger) {
        self.writer = writer
        self.logger = logger
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
        writer.submit(Self.file) {
            let state = KeptState(format: KeptState.format, savedAt: now, savedAtWall: wall, unseenFailures: unseenFailures, jobs: registry.kept)
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
        let bytes: [UInt8]
        switch Files.readBounded(path, limit: Self.maxFileBytes) {
        case .success(let read): bytes = read
        case .failure(.missing): return nil
        case .failure(let problem):
            setAside(path, because: problem.reason)
            return nil
        }
        let state: KeptState
        do {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw JSONValueCoding.Mismatch(description: "not UTF-8") }
            let json: JSONValue
            do { json = try JSONValue.parse(text) } catch { throw JSONValueCoding.Mismatch(description: "\(error)") }
            guard json["format"]?.number == Double(KeptState.format) else {
                throw JSONValueCoding.Mismatch(description: "a format this version does not read (\(json["format"]?.number.map { NumberText.compact($0) } ?? "none"))")
            }
            state = try JSONValueCoding.decode(KeptState.self, from: json)
        } catch {
            setAside(path, because: "\(error)")
            return nil
        }
        // The time since the file was written, on the wall clock (the machine may have rebooted,
        // restarting the monotonic clock); never less than nothing.
        let away = max(0, wall - state.savedAtWall)
        let delta = now - away - state.savedAt
        // Every job passes the protocol's checks again: what a report could not have made is set
        // aside, a label is filtered and cut, a name that could not be given is dropped.
        var moved = state
        var refused: [String] = []
        moved.jobs = state.jobs.compactMap { kept in
            guard Identifier.problem(kept.id) == nil, let job = kept.job.checkedAfterReading(maxLabelBytes: WireProtocol.maxLabelBytes) else {
                refused.append(DisplayText.shortened(DisplayText.sanitised(kept.id), maxBytes: 40))
                return nil
            }
            let name = kept.name.flatMap { Identifier.problem($0, maxBytes: WireProtocol.maxNameBytes) == nil ? $0 : nil }
            return KeptJob(id: kept.id, owner: kept.owner, name: name, job: job.shifted(by: delta))
        }
        if !refused.isEmpty {
            let listed = refused.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (refused.count > 5 ? " and \(refused.count - 5) more" : "")
            logger.warning("\(path): \(refused.count) kept job\(refused.count == 1 ? "" : "s") left out, not what a report can make (an id, a value above its total, a time that is not finite): \(listed)")
        }
        keptRevision = -1
        return moved
    }

    private func setAside(_ path: String, because reason: String) {
        let aside = path + ".set-aside"
        Files.remove(aside)
        let moved = (try? Files.link(path, as: aside)) != nil
        Files.remove(path)
        logger.warning("\(path) cannot be read (\(DisplayText.quoted(reason, maxBytes: 200))); starting without the jobs it kept\(moved ? ", the file is kept as \(aside)" : "")")
    }
}
