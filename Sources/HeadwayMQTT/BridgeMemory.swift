import HeadwayCore
import HeadwayProtocol

/// What a display's bridge remembers of the jobs a broker tells it of, bounded whatever the broker
/// sends: which were begun through it (so that a job's progress waits only for a begin not seen
/// yet), what came for a job before its begin (retained messages arrive in no set order), and the
/// jobs whose reporter takes commands. A job is forgotten at its finish, after `maxAge` seconds
/// without a message, and, past `capacity` jobs, those heard from longest ago first; jobs not
/// begun are held for at most `maxWaiting`, four requests each.
public struct BridgeMemory: Sendable {
    /// A job whose reporter takes commands (`headway run` on another machine): where its commands
    /// go, and whether this display last knew it paused (a command goes out only when that changes).
    public struct Remote: Sendable, Equatable {
        /// The reporter's source: the topic its commands go to.
        public var source: String
        /// The job's id at that source.
        public var job: String
        /// Whether this display last knew the job paused.
        public var paused = false

        /// The job `job` of `source`, paused or not as this display last knew it.
        public init(source: String, job: String, paused: Bool = false) {
            self.source = source
            self.job = job
            self.paused = paused
        }
    }

    private struct Entry: Sendable {
        var heard: Seconds
        var begun = false
        var held: [Request] = []
        var remote: Remote?
    }

    /// The most jobs remembered: the service holds no more than this many.
    public let capacity: Int
    /// Seconds without a message after which a job is forgotten.
    public let maxAge: Seconds
    /// The most jobs not begun whose requests are held.
    public let maxWaiting: Int
    private var entries: [String: Entry] = [:]
    private var waitingCount = 0
    private var sweptAt: Seconds?

    /// What is held for a job not begun yet: its last few requests.
    static let heldPerJob = 4

    /// A memory of at most `capacity` jobs, each forgotten after `maxAge` seconds of silence, with
    /// the requests of at most `maxWaiting` jobs not begun held.
    public init(capacity: Int = 10_000, maxAge: Seconds = 86_400, maxWaiting: Int = 1000) {
        self.capacity = max(1, capacity)
        self.maxAge = maxAge
        self.maxWaiting = maxWaiting
    }

    /// How many jobs are remembered.
    public var count: Int { entries.count }

    /// Whether `job` was begun here (and is neither finished nor forgotten).
    public func isBegun(_ job: String) -> Bool { entries[job]?.begun == true }

    /// The jobs whose reporter takes commands, with where their commands go.
    public var remotes: [String: Remote] { entries.compactMapValues(\.remote) }

    /// `job`'s reporter, when it takes commands.
    public func remote(_ job: String) -> Remote? { entries[job]?.remote }

    /// Keeps what this display last knew of a remote job's pause.
    public mutating func setPaused(_ paused: Bool, of job: String) { entries[job]?.remote?.paused = paused }

    /// `job` was begun (by a reporter that takes commands when `remote` is given): the requests
    /// held for it, oldest first, to send after the begin.
    public mutating func begin(_ job: String, remote: Remote?, at now: Seconds) -> [Request] {
        var entry = entries[job] ?? Entry(heard: now)
        if !entry.begun, !entry.held.isEmpty { waitingCount -= 1 }
        let held = entry.held
        entry = Entry(heard: now, begun: true, held: [], remote: remote)
        entries[job] = entry
        bound(at: now)
        return held
    }

    /// A request for `job` that is not a begin or a finish came at `now`: true when it may be sent
    /// (the job was begun here); else it is held for the begin, as long as there is room.
    public mutating func take(_ request: Request, for job: String, at now: Seconds) -> Bool {
        if var entry = entries[job] {
            entry.heard = now
            if entry.begun {
                entries[job] = entry
                return true
            }
            entry.held = Array((entry.held + [request]).suffix(Self.heldPerJob))
            entries[job] = entry
            return false
        }
        guard waitingCount < maxWaiting else { return false }
        entries[job] = Entry(heard: now, held: [request])
        waitingCount += 1
        bound(at: now)
        return false
    }

    /// `job` finished, or the service said it is over: it is forgotten.
    public mutating func forget(_ job: String) {
        guard let entry = entries.removeValue(forKey: job) else { return }
        if !entry.begun, !entry.held.isEmpty { waitingCount -= 1 }
    }

    /// Forgets the jobs not heard from for `maxAge` (looked at once a tenth of `maxAge` at most).
    public mutating func forgetOld(at now: Seconds) {
        if let swept = sweptAt, now - swept < maxAge / 10 { return }
        sweptAt = now
        for (job, entry) in entries where now - entry.heard > maxAge { forget(job) }
    }

    /// Past `capacity`, the tenth heard from longest ago is forgotten (at once, so that a flood of
    /// new jobs costs a sort per tenth, not a search per job).
    private mutating func bound(at now: Seconds) {
        forgetOld(at: now)
        guard entries.count > capacity else { return }
        let excess = entries.count - capacity + capacity / 10
        for (job, _) in entries.sorted(by: { $0.value.heard < $1.value.heard }).prefix(excess) { forget(job) }
    }
}
