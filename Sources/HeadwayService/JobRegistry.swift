import Headway
import HeapModule
import OrderedCollections

/// Why the registry did not take a change.
public enum JobRefusal: Error, Equatable, Sendable {
    /// No job has that id (never begun, or forgotten since it ended).
    case noSuchJob(String)
    /// The job was begun by another user, who alone (with root) may change it.
    case belongsToAnotherUser(job: String, owner: UInt32)
    /// The registry holds its limit of jobs that are not over yet.
    case tooManyJobs(limit: Int)
    /// The core model refused the report.
    case progress(ProgressError)
}

/// The jobs the service knows, by id, applying the core model's rules to each change.
///
/// Jobs are kept in the order they began. Every job's next phase change (a grace delay ending, a
/// stall, a linger running out) is a timer on a heap, so the service learns what is due without
/// looking at every job: `begin`, `update` and ``nextChange()`` cost O(log n), and only ``all(at:limit:)``
/// walks all jobs. A timer may fire early (a report since moved the change later): the job is then
/// looked at and its timer set again, so a job has one live timer however often it reports. Jobs
/// that are over (finished and shown, or lost) are forgotten when their timer fires in
/// ``advance(to:)``.
public struct JobRegistry: Sendable {
    /// One job and what the registry knows of it.
    public struct Entry: Sendable {
        /// The job's model.
        public internal(set) var job: ProgressJob
        /// The user who began the job (nil: the service itself).
        public let owner: UInt32?
        /// The name runs of the same job share, for learned durations.
        public let name: String?
        /// The time of the job's live timer on the heap, if it has one.
        var scheduled: Seconds?
        var visible = false
    }

    struct Timer: Comparable, Sendable {
        var time: Seconds
        var id: String
        static func < (a: Timer, b: Timer) -> Bool { a.time < b.time }
        static func == (a: Timer, b: Timer) -> Bool { a.time == b.time && a.id == b.id }
    }

    /// What ``advance(to:)`` forgot.
    public struct Departure: Sendable, Equatable {
        /// The job's id.
        public var id: String
        /// Lost (silent too long) rather than finished.
        public var lost: Bool
    }

    /// What ``advance(to:)`` found: jobs forgotten, and jobs whose timer ran out (for the owner of
    /// the registry to finish, see `ProgressJob/timerRanOut(at:)`).
    public struct Advance: Sendable, Equatable {
        /// The jobs forgotten.
        public var departures: [Departure] = []
        /// The jobs whose countdown ran out.
        public var ranOut: [String] = []
    }

    /// The timings of every job's phases.
    public var policy: LifecyclePolicy
    /// Most jobs held at once; `begin` of one more is refused.
    public let limit: Int
    private(set) var entries: OrderedDictionary<String, Entry> = [:]
    private var timers = Heap<Timer>()
    private var visibleIDs = Set<String>()
    /// Jobs that need a person (stalled, or signalling a failure), as of the last change or
    /// ``advance(to:)``: found without walking every job.
    public private(set) var urgentIDs = Set<String>()
    /// Counts every change to the jobs: what the state folder holds is up to date while it matches.
    public private(set) var revision = 0

    /// An empty registry holding at most `limit` jobs.
    public init(policy: LifecyclePolicy = .standard, limit: Int = 10_000) {
        self.policy = policy
        self.limit = limit
    }

    /// How many jobs it holds (finished ones count until forgotten).
    public var count: Int { entries.count }
    /// Timers on the heap, live or stale (bounded by a few per job, whatever the report rate).
    var timerCount: Int { timers.count }
    /// How many jobs are shown (not pending, hidden or lost) as of the last change or ``advance(to:)``.
    public var visibleCount: Int { visibleIDs.count }

    /// The job with id `id`.
    public subscript(id: String) -> Entry? { entries[id] }

    /// Starts job `id` as `job` (again, if it exists and `requester` may change it).
    public mutating func begin(_ id: String, _ job: ProgressJob, name: String? = nil, requester: UInt32?, at now: Seconds) throws(JobRefusal) {
        if let existing = entries[id] {
            try check(existing, id, requester)
        } else if entries.count >= limit {
            throw .tooManyJobs(limit: limit)
        }
        let owner = entries.removeValue(forKey: id).map(\.owner) ?? requester
        entries[id] = Entry(job: job, owner: owner, name: name)
        revision += 1
        refresh(id, at: now)
    }

    /// Starts job `id` with this registry's policy (tests and simple callers).
    public mutating func begin(_ id: String, label: String?, kind: ProgressKind, requester: UInt32?, at now: Seconds) throws(JobRefusal) {
        let job: ProgressJob
        do { job = try ProgressJob(label: label, kind: kind, policy: policy, at: now) } catch { throw .progress(error) }
        try begin(id, job, requester: requester, at: now)
    }

    /// Applies `body` to job `id`; the job is unchanged when it throws.
    public mutating func change(
        _ id: String, requester: UInt32?, at now: Seconds, _ body: (inout ProgressJob) throws(ProgressError) -> Void
    ) throws(JobRefusal) {
        guard var entry = entries[id] else { throw .noSuchJob(id) }
        try check(entry, id, requester)
        do { try body(&entry.job) } catch { throw .progress(error) }
        entries[id] = entry
        revision += 1
        refresh(id, at: now)
    }

    private func check(_ entry: Entry, _ id: String, _ requester: UInt32?) throws(JobRefusal) {
        guard let requester, requester != 0, let owner = entry.owner, owner != requester else { return }
        throw .belongsToAnotherUser(job: id, owner: owner)
    }

    /// Re-reads job `id`'s visibility and makes sure a timer fires no later than its next phase
    /// change (a timer already set earlier stays: it will find the job again when it fires).
    private mutating func refresh(_ id: String, at now: Seconds) {
        guard var entry = entries[id] else { return }
        let phase = entry.job.phase(at: now)
        entry.visible = phase.isVisible
        switch phase {
        case .stalled, .finished(.failed): urgentIDs.insert(id)
        default: urgentIDs.remove(id)
        }
        if let next = entry.job.nextPhaseChange(after: now), entry.scheduled.map({ next < $0 }) ?? true {
            timers.insert(Timer(time: next, id: id))
            entry.scheduled = next
        }
        entries[id] = entry
        if entry.visible { visibleIDs.insert(id) } else { visibleIDs.remove(id) }
    }

    private func isLive(_ timer: Timer) -> Bool { entries[timer.id]?.scheduled == timer.time }

    /// Lets time pass to `now`: every job whose timer is due is looked at again, jobs that are
    /// over are forgotten, and countdowns that ran out are named.
    public mutating func advance(to now: Seconds) -> Advance {
        var advance = Advance()
        while let timer = timers.min, timer.time <= now {
            timers.removeMin()
            guard isLive(timer), let entry = entries[timer.id] else { continue }
            entries[timer.id]?.scheduled = nil
            if entry.job.isOver(at: now) {
                advance.departures.append(Departure(id: timer.id, lost: entry.job.outcome == nil))
                entries.removeValue(forKey: timer.id)
                revision += 1
                visibleIDs.remove(timer.id)
                urgentIDs.remove(timer.id)
            } else {
                if entry.job.timerRanOut(at: now) { advance.ranOut.append(timer.id) }
                refresh(timer.id, at: now)
            }
        }
        return advance
    }

    /// When ``advance(to:)`` next has something to do, if ever.
    public mutating func nextChange() -> Seconds? {
        while let timer = timers.min {
            if isLive(timer) { return timer.time }
            timers.removeMin()
        }
        return nil
    }

    /// Up to `limit` visible jobs, newest first.
    public func newestVisible(at now: Seconds, limit: Int) -> [(id: String, snapshot: ProgressSnapshot)] {
        visible(entries.keys.indices.reversed(), at: now, limit: limit)
    }

    /// Up to `limit` visible jobs, oldest first.
    public func oldestVisible(at now: Seconds, limit: Int) -> [(id: String, snapshot: ProgressSnapshot)] {
        visible(entries.keys.indices, at: now, limit: limit)
    }

    /// Walks positions, not entries: a frame asks for a few jobs among thousands, and copying the
    /// entries (as `entries.reversed()` did) cost milliseconds a frame with 10,000 jobs.
    private func visible(_ order: some Sequence<Int>, at now: Seconds, limit: Int) -> [(id: String, snapshot: ProgressSnapshot)] {
        var found: [(id: String, snapshot: ProgressSnapshot)] = []
        guard !visibleIDs.isEmpty else { return found }
        for index in order where entries.values[index].visible {
            found.append((entries.keys[index], entries.values[index].job.snapshot(at: now)))
            if found.count == limit || found.count == visibleIDs.count { break }
        }
        return found
    }

    /// Whether job `id` is visible (as of the last change or advance).
    public func isVisible(_ id: String) -> Bool { visibleIDs.contains(id) }

    /// Where job `id` stands in the order jobs began (for sorting a few of them).
    func order(of id: String) -> Int { entries.index(forKey: id) ?? Int.max }

    /// The unfinished jobs whose liveness is process `pid`.
    public func jobs(watching pid: Int32) -> [String] {
        entries.filter { $0.value.job.outcome == nil && $0.value.job.liveness == .process(pid: pid) }.map(\.key)
    }

    /// Up to `limit` jobs, oldest first, with how many more there are.
    public func all(at now: Seconds, limit: Int) -> (jobs: [(id: String, snapshot: ProgressSnapshot)], omitted: Int) {
        let listed = entries.suffix(limit)
        return (listed.map { ($0.key, $0.value.job.snapshot(at: now)) }, entries.count - listed.count)
    }

    /// Job `id` as the state folder keeps it.
    func kept(_ id: String) -> KeptJob? {
        entries[id].map { KeptJob(id: id, owner: $0.owner, name: $0.name, job: $0.job) }
    }

    /// Every job as the state folder keeps it, in the order they began.
    var kept: [KeptJob] { entries.map { KeptJob(id: $0.key, owner: $0.value.owner, name: $0.value.name, job: $0.value.job) } }

    /// Takes back jobs kept before a restart (each moved onto this process's clock), in their order.
    /// A job already here, or one over the limit, is left out.
    mutating func restore(_ jobs: [KeptJob], at now: Seconds) {
        for kept in jobs where entries[kept.id] == nil && entries.count < limit {
            entries[kept.id] = Entry(job: kept.job, owner: kept.owner, name: kept.name)
            refresh(kept.id, at: now)
        }
        revision += 1
    }
}

