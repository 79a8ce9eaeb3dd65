import HeadwayCore
import HeadwayProtocol
import HeadwayReporting

/// Everything a client's callers and its reporting thread share, behind one mutex
/// (``ClientCore``): the reporter's core (``ReporterCore``: its jobs, what is in flight, its
/// connection), and who waits for what in Swift's concurrency — tasks waiting for delivery or an
/// answer, streams following events. Callers only change it and return; the reporting thread
/// drives the core. Whatever must happen outside the lock (resuming a waiting task, yielding an
/// event) is returned as ``Wakeups``.
struct ClientState {
    /// Resumptions and events to hand out once the lock is released.
    struct Wakeups {
        var done: [CheckedContinuation<Void, Never>] = []
        var answers: [(CheckedContinuation<Result<[JobStatus], ClientError>, Never>, Result<[JobStatus], ClientError>)] = []
        var events: [(AsyncStream<JobEvent>.Continuation, JobEvent)] = []
        var finished: [AsyncStream<JobEvent>.Continuation] = []

        mutating func add(_ other: Wakeups) {
            done += other.done
            answers += other.answers
            events += other.events
            finished += other.finished
        }

        func deliver() {
            for continuation in done { continuation.resume() }
            for (continuation, result) in answers { continuation.resume(returning: result) }
            for (continuation, event) in events { continuation.yield(event) }
            for continuation in finished { continuation.finish() }
        }
    }

    private struct Waiter {
        /// The job whose reports up to `version` must be acknowledged; nil: every job's.
        var key: JobKey?
        var version: Int
        var deadline: Seconds
        var continuation: CheckedContinuation<Void, Never>
    }

    var core: ReporterCore
    /// Reports go to an MQTT broker, which holds no service to ask.
    let overBroker: Bool
    private var nextTicket = 0
    private var waiters: [Int: Waiter] = [:]
    private var questions: [Int: CheckedContinuation<Result<[JobStatus], ClientError>, Never>] = [:]
    private var watchers: [Int: AsyncStream<JobEvent>.Continuation] = [:]
    private var jobWatchers: [JobKey: [Int: AsyncStream<JobEvent>.Continuation]] = [:]
    /// The reporting thread should look at the state again (a caller changed it).
    private(set) var woken = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []

    init(settings: ReporterCore.Settings, overBroker: Bool) {
        core = ReporterCore(settings: settings)
        self.overBroker = overBroker
    }

    var timeout: Seconds { core.settings.timeout }

    // MARK: - Callers

    /// Marks that the reporting thread must look again; true when it was not yet told (so the
    /// caller writes the one wake-up byte).
    mutating func wake() -> Bool {
        defer { woken = true }
        return !woken
    }

    /// Registers a task that waits until `key`'s reports so far (or, without a key, every job's)
    /// are acknowledged — or, when the service cannot answer, returns at once: false.
    mutating func wait(for key: JobKey?, now: Seconds, continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard core.connection.allowsWaiting, !core.closingDone(now: now) else { return false }
        let version: Int
        if let key {
            guard let record = core.record(key), !record.isDelivered, !record.beginRefused else { return false }
            version = record.version
        } else {
            guard core.hasUndelivered else { return false }
            version = 0
        }
        nextTicket += 1
        waiters[nextTicket] = Waiter(key: key, version: version, deadline: now + timeout, continuation: continuation)
        return true
    }

    /// Asks the service for its jobs; the answer now when there can be none.
    mutating func ask(now: Seconds, continuation: CheckedContinuation<Result<[JobStatus], ClientError>, Never>) -> Result<[JobStatus], ClientError>? {
        switch core.ask(.status, now: now) {
        case .failure(let failure): return .failure(.unavailable(failure.description))
        case .success(let ticket):
            questions[ticket] = continuation
            return nil
        }
    }

    mutating func watch(_ continuation: AsyncStream<JobEvent>.Continuation, job key: JobKey?) -> Int? {
        nextTicket += 1
        if let key {
            guard let record = core.record(key), record.isRunning else { return nil }
            jobWatchers[key, default: [:]][nextTicket] = continuation
        } else {
            watchers[nextTicket] = continuation
            core.followsAllJobs = true
        }
        return nextTicket
    }

    mutating func unwatch(_ ticket: Int, job key: JobKey?) {
        if let key {
            jobWatchers[key]?[ticket] = nil
        } else {
            watchers[ticket] = nil
        }
    }

    /// Closes the client: jobs still running end as ``/HeadwayCore/Outcome/ended`` (nobody can
    /// report to them any more), what is unsent goes within the timeout, and the reporting thread ends.
    mutating func close(now: Seconds, continuation: CheckedContinuation<Void, Never>?) {
        core.close(now: now)
        if let continuation { closeWaiters.append(continuation) }
    }

    // MARK: - After every change

    /// What the core's change means for those who wait: events to yield, streams to end,
    /// answers to give, waiters whose reports are delivered (or who may not wait any more).
    mutating func reconcile() -> Wakeups {
        var wakeups = Wakeups()
        let notes = core.takeNotes()
        for event in notes.events { for continuation in watchers.values { wakeups.events.append((continuation, event)) } }
        for (key, event) in notes.jobEvents {
            for continuation in jobWatchers[key].map({ Array($0.values) }) ?? [] { wakeups.events.append((continuation, event)) }
        }
        for (key, outcome) in notes.ended {
            guard let followers = jobWatchers.removeValue(forKey: key) else { continue }
            if let outcome {
                for continuation in followers.values { wakeups.events.append((continuation, JobEvent(.finished, job: key.id, outcome: outcome))) }
            }
            wakeups.finished += followers.values
        }
        for (ticket, answer) in notes.answers {
            guard let continuation = questions.removeValue(forKey: ticket) else { continue }
            let result: Result<[JobStatus], ClientError>
            switch answer {
            case .success(.jobs(let jobs, _, _, _)): result = .success(jobs)
            case .success(.error(let error)): result = .failure(.unavailable(error.description))
            case .success(.ok): result = .success([])
            case .failure(let failure): result = .failure(.unavailable(failure.description))
            }
            wakeups.answers.append((continuation, result))
        }
        let mayWait = core.connection.allowsWaiting
        for (ticket, waiter) in waiters {
            if mayWait {
                if let key = waiter.key {
                    if let record = core.record(key), record.answered < waiter.version, !record.beginRefused { continue }
                } else if core.hasUndelivered {
                    continue
                }
            }
            wakeups.done.append(waiter.continuation)
            waiters[ticket] = nil
        }
        return wakeups
    }

    // MARK: - The reporting thread

    /// The core's next step, with the deadlines and urgency of those who wait.
    mutating func plan(now: Seconds, canWrite: Bool) -> (ReporterCore.Plan, Wakeups) {
        woken = false
        var wakeups = Wakeups()
        for (ticket, waiter) in waiters where now >= waiter.deadline {
            wakeups.done.append(waiter.continuation)
            waiters[ticket] = nil
            core.waitedInVain()
        }
        let urgency = ReporterCore.Urgency(keys: Set(waiters.values.compactMap(\.key)), all: waiters.values.contains { $0.key == nil })
        var plan = core.plan(now: now, canWrite: canWrite, urgent: urgency)
        wakeups.add(reconcile())
        if plan.exit { wakeups.add(shutDown()) }
        let deadlines = waiters.values.map(\.deadline)
        if let soonest = deadlines.min() { plan.timeout = min(plan.timeout ?? .infinity, max(0, soonest - now)) }
        return (plan, wakeups)
    }

    /// The client is closed: every waiter and stream is let go.
    private mutating func shutDown() -> Wakeups {
        var wakeups = Wakeups()
        wakeups.done += waiters.values.map(\.continuation) + closeWaiters
        waiters = [:]
        closeWaiters = []
        for continuation in questions.values { wakeups.answers.append((continuation, .failure(.unavailable("the client is closed")))) }
        questions = [:]
        wakeups.finished += watchers.values
        watchers = [:]
        for followers in jobWatchers.values { wakeups.finished += followers.values }
        jobWatchers = [:]
        return wakeups
    }
}
