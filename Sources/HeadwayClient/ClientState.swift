import DequeModule
import HeadwayCore
import HeadwayProtocol

/// Everything a client's callers and its reporting thread share, behind one mutex
/// (``ClientCore``): the jobs as reported, what is in flight, who waits for what. Callers only
/// change it and return; the reporting thread turns it into requests and reads the replies back
/// into it. Whatever must happen outside the lock (resuming a waiting task, yielding an event) is
/// returned as ``Wakeups``.
struct ClientState {
    struct Settings: Sendable {
        /// How long a caller may wait for the service, and how long a reply may take before the
        /// service counts as too slow.
        var timeout: Seconds
        /// Progress of one job goes to the service at most this often (the fastest output draws
        /// 50 frames a second; more would only cost the service's and this process's CPU).
        var progressInterval: Seconds = 0.02
        /// A service that has not answered for this long is given up: the connection is closed
        /// and a new one tried, with back-off.
        var patience: Seconds
        /// Longest wait between two attempts to reach an unavailable service.
        var longestRetry: Seconds = 5
        var processID: Int32
        /// Reports go to an MQTT broker, which holds no service to ask.
        var overBroker = false
    }

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

    private struct Question {
        var deadline: Seconds
        var sent = false
        var continuation: CheckedContinuation<Result<[JobStatus], ClientError>, Never>
    }

    private struct InFlight {
        var key: JobKey?
        var kind: SentKind
        /// For the last request of a job's batch: the version it brings the service to.
        var version: Int?
        var question: Int?
        var sentAt: Seconds
    }

    let settings: Settings
    private(set) var connection = ConnectionState.notConnected
    private(set) var lastRefusal: Refusal?
    private var jobs: [String: JobRecord] = [:]
    /// How the newest jobs that are over ended, so that a late report through their handles is
    /// refused with their outcome (the newest 256).
    private var ended: [JobKey: Outcome] = [:]
    private var endedOrder = Deque<JobKey>()
    private var generation = 0
    private var nextTicket = 0
    private var waiters: [Int: Waiter] = [:]
    private var questions: [Int: Question] = [:]
    private var watchers: [Int: AsyncStream<JobEvent>.Continuation] = [:]
    private var watchingAll = false
    private var inFlight = Deque<InFlight>()
    /// The reporting thread should look at the state again (a caller changed it).
    private(set) var woken = false
    private var linkOpen = false
    private var retryAt: Seconds = -.infinity
    private var retryDelay: Seconds = 0.1
    private(set) var closing = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var closeDeadline: Seconds = .infinity

    init(settings: Settings) { self.settings = settings }

    // MARK: - Callers

    /// Marks that the reporting thread must look again; true when it was not yet told (so the
    /// caller writes the one wake-up byte).
    mutating func wake() -> Bool {
        defer { woken = true }
        return !woken
    }

    mutating func begin(
        _ id: String, options: BeginOptions, countdownEnd: Seconds?, controls: JobControls, now: Seconds
    ) -> (JobKey, Wakeups) {
        generation += 1
        let key = JobKey(id: id, generation: generation)
        var wakeups = Wakeups()
        // Begun again: the old generation's reports stop, and its watchers are done.
        if let old = jobs[id] { wakeups.finished += old.watchers.values }
        // A closed client reports nothing more: the handle's reports are refused as finished.
        guard !closing else { return (key, wakeups) }
        var record = JobRecord(key: key, options: options, startedAt: now, countdownEnd: countdownEnd, controls: controls)
        record.labelVersion = options.label == nil ? 0 : 1
        jobs[id] = record
        return (key, wakeups)
    }

    /// Applies a report to a running job of this generation; refused as the job's own model would.
    mutating func change(_ key: JobKey, _ body: (inout JobRecord) throws(ProgressError) -> Void) throws(ProgressError) {
        guard var record = jobs[key.id], record.key == key else { throw .alreadyFinished(ended[key] ?? .ended) }
        if let outcome = record.outcome { throw .alreadyFinished(outcome) }
        try body(&record)
        record.version += 1
        jobs[key.id] = record
    }

    func record(_ key: JobKey) -> JobRecord? {
        guard let record = jobs[key.id], record.key == key else { return nil }
        return record
    }

    /// Registers a task that waits until `key`'s reports so far (or, without a key, every job's)
    /// are acknowledged — or, when the service cannot answer, returns at once: false.
    mutating func wait(for key: JobKey?, now: Seconds, continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard connection.allowsWaiting, !closingDone(now: now) else { return false }
        let version: Int
        if let key {
            guard let record = record(key), !record.isDelivered, !record.beginRefused else { return false }
            version = record.version
        } else {
            guard jobs.values.contains(where: { !$0.isDelivered && !$0.beginRefused }) else { return false }
            version = 0
        }
        nextTicket += 1
        waiters[nextTicket] = Waiter(key: key, version: version, deadline: now + settings.timeout, continuation: continuation)
        return true
    }

    mutating func ask(now: Seconds, continuation: CheckedContinuation<Result<[JobStatus], ClientError>, Never>) -> Result<[JobStatus], ClientError>? {
        if case .unavailable(let reason) = connection { return .failure(.unavailable(reason)) }
        if closing { return .failure(.unavailable("the client is closed")) }
        nextTicket += 1
        questions[nextTicket] = Question(deadline: now + settings.timeout, continuation: continuation)
        return nil
    }

    mutating func watch(_ continuation: AsyncStream<JobEvent>.Continuation, job key: JobKey?) -> Int? {
        nextTicket += 1
        if let key {
            guard var record = record(key), record.isRunning else { return nil }
            record.watchers[nextTicket] = continuation
            jobs[key.id] = record
        } else {
            watchers[nextTicket] = continuation
        }
        return nextTicket
    }

    mutating func unwatch(_ ticket: Int, job key: JobKey?) {
        if let key {
            jobs[key.id]?.watchers[ticket] = nil
        } else {
            watchers[ticket] = nil
        }
    }

    /// Closes the client: jobs still running end as ``Outcome/ended`` (nobody can report to them
    /// any more), what is unsent goes within the timeout, and the reporting thread ends.
    mutating func close(now: Seconds, continuation: CheckedContinuation<Void, Never>?) {
        if !closing {
            closing = true
            closeDeadline = now + settings.timeout
            for id in jobs.keys where jobs[id]!.isRunning {
                jobs[id]!.outcome = .ended
                jobs[id]!.version += 1
            }
        }
        if let continuation { closeWaiters.append(continuation) }
    }

    // MARK: - The reporting thread

    /// What the reporting thread does next.
    struct Plan {
        var connect = false
        var disconnect = false
        var requests: [Request] = []
        /// How long it may sleep in poll(2) (nil: until woken).
        var timeout: Seconds?
        var exit = false
        var wakeups = Wakeups()
    }

    /// Whether anything needs the service: a running job, a report not yet acknowledged, a
    /// question, someone watching.
    private var needsLink: Bool {
        !jobs.isEmpty || !questions.isEmpty || !watchers.isEmpty
    }

    private func closingDone(now: Seconds) -> Bool {
        closing && (now >= closeDeadline || !connection.allowsWaiting || jobs.values.allSatisfy { $0.isRunning || $0.isDelivered || $0.beginRefused })
    }

    /// The next step, with the link open or not and room in its output buffer or not.
    mutating func plan(now: Seconds, canWrite: Bool) -> Plan {
        woken = false
        var plan = Plan()
        plan.wakeups = expire(now: now)
        if closingDone(now: now) {
            plan.exit = true
            plan.disconnect = linkOpen
            plan.wakeups.add(shutDown())
            return plan
        }
        if !linkOpen {
            guard needsLink else { return plan }
            if now >= retryAt {
                plan.connect = true
            } else {
                plan.timeout = retryAt - now
            }
            return plan
        }
        var deadlines: [Seconds] = []
        if let oldest = inFlight.first {
            if now - oldest.sentAt >= settings.patience {
                plan.disconnect = true
                plan.wakeups.add(lost("did not answer for \(DurationText.short(settings.patience))", now: now, quietly: false))
                return plan
            }
            if now - oldest.sentAt >= settings.timeout, connection.allowsWaiting {
                connection = .unavailable(reason: "did not answer within \(Int((settings.timeout * 1000).rounded())) ms")
                plan.wakeups.add(releaseWaiters())
            }
            deadlines.append(oldest.sentAt + (connection.allowsWaiting ? settings.timeout : settings.patience))
        }
        // A service that is behind gets nothing more until it answers: reports are kept, not queued.
        if canWrite, connection.allowsWaiting || inFlight.isEmpty, inFlight.count < 512 {
            if watchers.isEmpty == false, !watchingAll {
                plan.requests.append(.subscribe(job: nil))
                inFlight.append(InFlight(key: nil, kind: .quiet, sentAt: now))
                watchingAll = true
            }
            for ticket in questions.keys.sorted() where !questions[ticket]!.sent {
                questions[ticket]!.sent = true
                plan.requests.append(.status)
                inFlight.append(InFlight(key: nil, kind: .report, question: ticket, sentAt: now))
            }
            let urgentKeys = Set(waiters.values.compactMap(\.key))
            let everythingUrgent = closing || waiters.values.contains { $0.key == nil }
            for id in jobs.keys {
                var record = jobs[id]!
                let urgent = everythingUrgent || urgentKeys.contains(record.key)
                let requests = record.nextRequests(now: now, interval: settings.progressInterval, urgent: urgent, processID: settings.processID)
                if requests.isEmpty, record.progressVersion > record.sentProgressVersion, !record.beginRefused {
                    deadlines.append(record.lastProgressSentAt + settings.progressInterval)
                }
                for (index, (request, kind)) in requests.enumerated() {
                    plan.requests.append(request)
                    inFlight.append(InFlight(key: record.key, kind: kind, version: index == requests.count - 1 ? record.version : nil, sentAt: now))
                }
                if requests.isEmpty, record.answered < record.version, record.begun || !record.isRunning,
                   inFlight.allSatisfy({ $0.key != record.key }), record.progressVersion <= record.sentProgressVersion {
                    // Nothing left to say of it (a label that was already sent, say): delivered.
                    record.answered = record.version
                }
                jobs[id] = record
                plan.wakeups.add(settle(id))
            }
        }
        deadlines += waiters.values.map(\.deadline)
        deadlines += questions.values.map(\.deadline)
        if closing { deadlines.append(closeDeadline) }
        plan.timeout = deadlines.min().map { max(0, $0 - now) }
        return plan
    }

    /// The connection opened (the service is not known to answer until it does).
    mutating func linkOpened() {
        linkOpen = true
        watchingAll = false
        for id in jobs.keys { jobs[id]!.forgetConnection() }
    }

    /// Connecting failed, or the connection broke: what was in flight is forgotten (each job's
    /// latest state is kept, to be sent again) and the next attempt waits.
    mutating func lost(_ reason: String, now: Seconds, quietly: Bool) -> Wakeups {
        linkOpen = false
        inFlight.removeAll()
        watchingAll = false
        for id in jobs.keys { jobs[id]!.forgetConnection() }
        if quietly {
            // The service closed a connection that had nothing to do: no fault, no waiting.
            connection = .notConnected
            retryAt = now
        } else {
            connection = .unavailable(reason: reason)
            retryAt = now + retryDelay
            retryDelay = min(retryDelay * 2, settings.longestRetry)
        }
        var wakeups = releaseWaiters()
        for (ticket, question) in questions {
            wakeups.answers.append((question.continuation, .failure(.unavailable(reason))))
            questions[ticket] = nil
        }
        // Jobs that ended while the service was away and were never shown are let go.
        for id in Array(jobs.keys) { wakeups.add(settle(id)) }
        return wakeups
    }

    /// Requests sent and not yet answered (bounded: a service that is behind is sent nothing more).
    var inFlightCount: Int { inFlight.count }

    /// Whether a lost connection had anything to do (else the service closed an idle one).
    var linkWasBusy: Bool { !inFlight.isEmpty || needsLink }

    /// Lines the service sent: replies, in the order of the requests, and events.
    mutating func received(_ lines: [String], now: Seconds) -> Wakeups {
        var wakeups = Wakeups()
        for line in lines {
            if let reply = Reply.parse(line) {
                guard let sent = inFlight.popFirst() else { continue }
                if connection != .connected {
                    connection = .connected
                    retryDelay = 0.1
                }
                wakeups.add(answer(sent, with: reply))
            } else if let event = JobEvent.parse(line) {
                wakeups.add(deliver(event))
            }
        }
        return wakeups
    }

    private mutating func answer(_ sent: InFlight, with reply: Reply) -> Wakeups {
        var wakeups = Wakeups()
        if let ticket = sent.question, let question = questions.removeValue(forKey: ticket) {
            switch reply {
            case .jobs(let jobs, _, _, _): wakeups.answers.append((question.continuation, .success(jobs)))
            case .error(let error): wakeups.answers.append((question.continuation, .failure(.unavailable(error.description))))
            case .ok: wakeups.answers.append((question.continuation, .success([])))
            }
            return wakeups
        }
        guard let key = sent.key, var record = jobs[key.id], record.key == key else {
            if case .error(let error) = reply, sent.kind != .quiet { lastRefusal = Refusal(job: nil, error: error) }
            return wakeups
        }
        if case .error(let error) = reply {
            // The service lost the job (it forgot it, or restarted without closing this
            // connection first): begun again, with its running time.
            let unknown = error.code == .noSuchJob
            switch sent.kind {
            case .begin:
                record.beginRefused = true
                record.refusal = Refusal(job: key.id, error: error)
                lastRefusal = record.refusal
            case .report, .subscribe:
                if unknown, record.isRunning, !record.beginRefused {
                    record.forgetConnection()
                } else if !record.beginRefused {
                    record.refusal = Refusal(job: key.id, error: error)
                    lastRefusal = record.refusal
                }
            case .finish:
                // Already over there (a restart forgot it, a button cancelled it): nothing to say.
                if !unknown, error.code != .jobFinished, !record.beginRefused {
                    record.refusal = Refusal(job: key.id, error: error)
                    lastRefusal = record.refusal
                }
            case .quiet:
                break
            }
        }
        if let version = sent.version { record.answered = max(record.answered, version) }
        if record.beginRefused { record.answered = record.version }
        jobs[key.id] = record
        wakeups.add(settle(key.id))
        return wakeups
    }

    /// Requests a broker's displays sent a reporter (``BrokerLink``), as the service's events.
    mutating func received(_ events: [JobEvent]) -> Wakeups {
        var wakeups = Wakeups()
        for event in events { wakeups.add(deliver(event)) }
        return wakeups
    }

    /// The requests in flight were taken (a broker acknowledges publications, not requests).
    mutating func acknowledgeAll() -> Wakeups {
        var wakeups = Wakeups()
        if !inFlight.isEmpty, connection != .connected {
            connection = .connected
            retryDelay = 0.1
        }
        while let sent = inFlight.popFirst() { wakeups.add(answer(sent, with: .ok)) }
        return wakeups
    }

    /// The requests from a button a running job takes.
    func controls(of id: String) -> JobControls? { jobs[id].flatMap { $0.isRunning ? $0.controls : nil } }

    private mutating func deliver(_ event: JobEvent) -> Wakeups {
        var wakeups = Wakeups()
        for continuation in watchers.values { wakeups.events.append((continuation, event)) }
        guard var record = jobs[event.job], record.isRunning else { return wakeups }
        switch event.kind {
        case .paused:
            guard record.controls.contains(.pause) else {
                record.resumeOwed = true
                jobs[event.job] = record
                return wakeups
            }
            record.paused = true
        case .resumed:
            record.paused = false
        case .cancelRequested:
            guard record.controls.contains(.cancel) else { return wakeups }
        case .finished, .lost:
            // Ended by the service (a button, a countdown that ran out): nothing more to send.
            record.outcome = event.outcome ?? .ended
            record.finishSent = true
            record.answered = record.version
            for continuation in record.watchers.values { wakeups.events.append((continuation, event)) }
            wakeups.finished += record.watchers.values
            record.watchers = [:]
        case .begun:
            break
        }
        for continuation in record.watchers.values { wakeups.events.append((continuation, event)) }
        jobs[event.job] = record
        wakeups.add(settle(event.job))
        return wakeups
    }

    /// Lets go of a job that is over and delivered (or never shown), finishing its watchers.
    private mutating func settle(_ id: String) -> Wakeups {
        var wakeups = Wakeups()
        guard let record = jobs[id], !record.isRunning else { return wakeups }
        let delivered = record.isDelivered && inFlight.allSatisfy { $0.key != record.key }
        let neverShown = !record.everBegun || record.beginRefused
        guard delivered || (neverShown && !record.begun) || (!linkOpen && neverShown) else { return wakeups }
        if record.watchers.isEmpty == false, let outcome = record.outcome {
            let ending = JobEvent(.finished, job: id, outcome: outcome)
            for continuation in record.watchers.values { wakeups.events.append((continuation, ending)) }
        }
        wakeups.finished += record.watchers.values
        jobs[id] = nil
        ended[record.key] = record.outcome
        endedOrder.append(record.key)
        if endedOrder.count > 256, let oldest = endedOrder.popFirst() { ended[oldest] = nil }
        wakeups.add(releaseWaiters(satisfiedOnly: true))
        return wakeups
    }

    /// Resumes waiters: all of them, or only those whose reports are acknowledged.
    private mutating func releaseWaiters(satisfiedOnly: Bool = false) -> Wakeups {
        var wakeups = Wakeups()
        for (ticket, waiter) in waiters {
            if satisfiedOnly {
                if let key = waiter.key {
                    if let record = record(key), record.answered < waiter.version, !record.beginRefused { continue }
                } else if jobs.values.contains(where: { !$0.isDelivered && !$0.beginRefused }) {
                    continue
                }
            }
            wakeups.done.append(waiter.continuation)
            waiters[ticket] = nil
        }
        return wakeups
    }

    /// Waiters and questions whose time ran out.
    private mutating func expire(now: Seconds) -> Wakeups {
        var wakeups = releaseWaiters(satisfiedOnly: true)
        for (ticket, waiter) in waiters where now >= waiter.deadline {
            wakeups.done.append(waiter.continuation)
            waiters[ticket] = nil
        }
        for (ticket, question) in questions where now >= question.deadline {
            wakeups.answers.append((question.continuation, .failure(.unavailable("did not answer within \(Int((settings.timeout * 1000).rounded())) ms"))))
            questions[ticket] = nil
        }
        return wakeups
    }

    /// The client is closed: every waiter and stream is let go.
    private mutating func shutDown() -> Wakeups {
        var wakeups = releaseWaiters()
        wakeups.done += closeWaiters
        closeWaiters = []
        for (ticket, question) in questions {
            wakeups.answers.append((question.continuation, .failure(.unavailable("the client is closed"))))
            questions[ticket] = nil
        }
        wakeups.finished += watchers.values
        watchers = [:]
        for id in jobs.keys {
            wakeups.finished += jobs[id]!.watchers.values
            jobs[id]!.watchers = [:]
        }
        linkOpen = false
        return wakeups
    }
}
