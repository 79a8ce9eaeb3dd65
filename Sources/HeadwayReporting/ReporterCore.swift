import DequeModule
import HeadwayCore
import HeadwayProtocol

/// The one client core every reporter runs — the `headway` command, headway-ci and HeadwayClient,
/// to the service's socket or to a broker: the jobs as their program last reported them, what the
/// link has told the other end, what is in flight, and whether the other end answers. A link
/// (``SocketLink``, ``BrokerLink``) carries out its ``plan(now:canWrite:urgent:)`` and hands back
/// what came; its host (``ReporterHost``) holds it, on the program's own loop or behind a mutex.
///
/// Its rules, the same for every reporter:
/// - Connecting: when there is anything to tell (a job, a question, someone following every
///   job), by the ``ConnectionPolicy``: after a failure the next attempt waits, doubling up to its
///   longest wait; a one-shot reporter makes one attempt.
/// - Waiting: a reply that takes longer than ``Settings/timeout`` makes the other end
///   ``ConnectionState/unavailable(reason:)`` (nobody waits for delivery any more); one silent for
///   ``Settings/patience`` is given up, and a new connection made.
/// - Telling again: a new connection knows nothing, so every running job is begun again — with
///   the time it has run (`elapsed`), its latest label and total, what is left of its countdown —
///   then given its latest progress, its subscription, its pause, its staleness. A report the
///   service answers with ``ProtocolErrorCode/noSuchJob`` (it forgot the job) does the same for
///   that job. A job that ended while the other end was away and was never shown is not shown late.
/// - Coalescing: each job keeps only its latest state (the latest value wins); progress of a job
///   goes at most every ``Settings/progressInterval``, the rest of what changed in order; a
///   service that is behind is sent nothing more until it answers, and at most
///   ``Settings/maxInFlight`` requests are ever unanswered.
/// - Replies by code: a refused begin stops the job's requests until the next connection; a
///   report refused with ``ProtocolErrorCode/jobFinished`` means the service ended the job (a
///   button, its countdown): nothing more is said of it until it is begun again; a finish refused
///   as ``ProtocolErrorCode/jobFinished`` or ``ProtocolErrorCode/noSuchJob`` was said already.
package struct ReporterCore {
    package struct Settings: Sendable {
        /// How long a caller may wait for delivery, and how long a reply may take before the
        /// other end counts as unavailable.
        package var timeout: Seconds
        /// An other end that has not answered for this long is given up: the connection is
        /// closed and a new one made.
        package var patience: Seconds
        /// Progress of one job goes at most this often.
        package var progressInterval: Seconds
        package var policy: ConnectionPolicy
        /// The process whose life is every job's (the service fails a job when it ends); nil: none.
        package var processID: Int32?
        /// What the reporter talks to, as messages name it ("the service at /run/headway/headway.sock").
        package var place: String
        /// Requests sent and not yet answered, at most.
        package var maxInFlight = 512

        /// Settings with a patience of ten timeouts (at least 2 s).
        package init(timeout: Seconds, progressInterval: Seconds, policy: ConnectionPolicy, processID: Int32?, place: String) {
            self.timeout = timeout
            patience = max(2, 10 * timeout)
            self.progressInterval = progressInterval
            self.policy = policy
            self.processID = processID
            self.place = place
        }
    }

    /// What happened since the host last looked: what it hands on outside its lock.
    package struct Notes {
        /// Events from the service (or a broker's displays), in order, for whoever follows every job.
        package var events: [JobEvent] = []
        /// Events for whoever follows one running job (its program): its pauses, resumptions,
        /// cancel requests, and its end when the service ended it.
        package var jobEvents: [(JobKey, JobEvent)] = []
        /// Jobs whose followers are done: the job ended (by the service, or it was let go once
        /// delivered) or was begun again; with how it ended, when it did.
        package var ended: [(JobKey, Outcome?)] = []
        /// Answers to questions (``ask(_:now:)``), by ticket: the reply, or why there is none.
        package var answers: [(ticket: Int, answer: Result<Reply, QuestionFailure>)] = []
        /// Reports the service refused.
        package var refusals: [Refusal] = []
        /// Jobs the service ended while their reporter went on (a report refused as finished).
        package var dismissed: [String] = []

        package var isEmpty: Bool {
            events.isEmpty && jobEvents.isEmpty && ended.isEmpty && answers.isEmpty && refusals.isEmpty && dismissed.isEmpty
        }
    }

    /// Why a question got no reply: the other end could not be asked, or did not answer in time.
    package struct QuestionFailure: Error, Equatable, Sendable, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    struct InFlight {
        var key: JobKey?
        var kind: SentKind
        /// For the last request of a job's batch: the version it brings the service to.
        var version: Int?
        var question: Int?
        var sentAt: Seconds
    }

    struct Question {
        var request: Request
        var deadline: Seconds
        var sent = false
    }

    package let settings: Settings
    package internal(set) var connection = ConnectionState.notConnected
    package internal(set) var lastRefusal: Refusal?
    package internal(set) var jobs: [String: ReportedJob] = [:]
    /// How the newest jobs that are over ended, so that a late report through their keys is
    /// refused with their outcome (the newest 256).
    private var ended: [JobKey: Outcome] = [:]
    private var endedOrder = Deque<JobKey>()
    private var generation = 0
    var inFlight = Deque<InFlight>()
    var questions: [Int: Question] = [:]
    private var nextTicket = 0
    /// Someone follows every job's events (the host says), and whether this connection was told.
    package var followsAllJobs = false
    var followingAll = false
    var linkOpen = false
    var backoff: Backoff
    package private(set) var closing = false
    var closeDeadline: Seconds = .infinity
    var notes = Notes()

    package init(settings: Settings) {
        self.settings = settings
        backoff = Backoff(settings.policy)
    }

    /// What happened since the last call.
    package mutating func takeNotes() -> Notes {
        defer { notes = Notes() }
        return notes
    }

    // MARK: - The program's side

    /// Begins job `id` (again: a new generation, whose followers start afresh). A closed reporter
    /// reports nothing more: the key it returns refuses every report as finished.
    package mutating func begin(
        _ id: String, options: BeginOptions, countdownEnd: Seconds? = nil, follows: Bool, controls: JobControls = [], now: Seconds
    ) -> JobKey {
        generation += 1
        let key = JobKey(id: id, generation: generation)
        if let old = jobs[id] { notes.ended.append((old.key, nil)) }
        guard !closing else { return key }
        jobs[id] = ReportedJob(
            key: key, options: options, startedAt: now - (options.elapsed ?? 0), countdownEnd: countdownEnd, follows: follows, controls: controls)
        return key
    }

    /// Applies a report to a running job of this generation; refused as the job's own model would.
    package mutating func change(_ key: JobKey, _ body: (inout ReportedJob) throws(ProgressError) -> Void) throws(ProgressError) {
        guard var record = jobs[key.id], record.key == key else { throw .alreadyFinished(ended[key] ?? .ended) }
        if let outcome = record.outcome { throw .alreadyFinished(outcome) }
        try body(&record)
        jobs[key.id] = record
    }

    /// Applies a request of the protocol to the running job it names, as a reporter that speaks
    /// in requests (headway-ci's followers, `headway run`) reports: a begin begins it (again),
    /// a report about a job not running here (never begun, over, ended by the service) is dropped;
    /// a pause or resumption is the program's own (a printer paused at its screen), for a job that
    /// takes pauses.
    package mutating func apply(_ request: Request, now: Seconds, follows: Bool = false, controls: JobControls = []) {
        if case .begin(let id, let options) = request {
            _ = begin(id, options: options, follows: follows, controls: controls, now: now)
            return
        }
        guard let id = request.job, let key = jobs[id]?.key else { return }
        try? change(key) { (job: inout ReportedJob) throws(ProgressError) in
            switch request {
            case .update(_, let value, let total, let label, let eta, let unit, let stageEnd):
                try job.update(value: value, total: total, unit: unit, label: label, timeRemaining: eta, stageEnd: stageEnd, now: now)
            case .updatePercent(_, let percent, let label, let eta): try job.update(percent: percent, label: label, timeRemaining: eta, now: now)
            case .label(_, let label): job.setLabel(label)
            case .indeterminate: try job.indeterminate(now: now)
            case .alive: job.alive()
            case .stale: job.markStale()
            case .finish(_, let outcome): job.finish(outcome)
            case .pause: job.setPaused(true)
            case .resume: job.setPaused(false)
            case .begin, .stop, .status, .subscribe: break
            }
        }
    }

    package func record(_ key: JobKey) -> ReportedJob? {
        guard let record = jobs[key.id], record.key == key else { return nil }
        return record
    }

    /// The running job of id `id`, if there is one.
    package func running(_ id: String) -> JobKey? { jobs[id].flatMap { $0.isRunning ? $0.key : nil } }

    /// Whether a report of any job is not yet acknowledged (and could be).
    package var hasUndelivered: Bool { jobs.values.contains { !$0.isDelivered && !$0.beginRefused } }

    /// The requests from a button a running job takes.
    package func controls(of id: String) -> JobControls? { jobs[id].flatMap { $0.isRunning ? $0.controls : nil } }

    /// Asks `request` (a `status`, or a hook's one request) on the next connection; its reply is
    /// a note by the ticket returned. A failure, saying why, when it cannot be asked now.
    package mutating func ask(_ request: Request, now: Seconds) -> Result<Int, QuestionFailure> {
        if case .unavailable(let reason) = connection { return .failure(QuestionFailure(description: reason)) }
        if closing { return .failure(QuestionFailure(description: "the reporter is closed")) }
        nextTicket += 1
        questions[nextTicket] = Question(request: request, deadline: now + settings.timeout)
        return .success(nextTicket)
    }

    /// A question nobody waits for any more is not asked (its reply, if one comes, is dropped).
    package mutating func forget(question ticket: Int) {
        if questions[ticket]?.sent == false { questions[ticket] = nil }
    }

    /// Closes the reporter: jobs still running end as ``/HeadwayCore/Outcome/ended`` (nobody can
    /// report to them any more), what is unsent goes within the timeout, then the link ends.
    package mutating func close(now: Seconds) {
        guard !closing else { return }
        closing = true
        closeDeadline = now + settings.timeout
        for id in jobs.keys where jobs[id]!.isRunning { jobs[id]!.finish(.ended) }
    }

    /// Whether a closed reporter is done: everything delivered, or its time is up, or nobody answers.
    package func closingDone(now: Seconds) -> Bool {
        closing && (now >= closeDeadline || !connection.allowsWaiting || jobs.values.allSatisfy { $0.isRunning || $0.isDelivered || $0.beginRefused })
    }

    /// Lets go of a job that is over and delivered (or never shown).
    mutating func settle(_ id: String) {
        guard let record = jobs[id], !record.isRunning else { return }
        let delivered = record.isDelivered && inFlight.allSatisfy { $0.key != record.key }
        let neverShown = !record.everBegun || record.beginRefused
        guard delivered || (neverShown && !record.begun) || (!linkOpen && neverShown) else { return }
        notes.ended.append((record.key, record.outcome))
        jobs[id] = nil
        ended[record.key] = record.outcome
        endedOrder.append(record.key)
        if endedOrder.count > 256, let oldest = endedOrder.popFirst() { ended[oldest] = nil }
    }

    /// The other end answered.
    mutating func heard() {
        if connection != .connected {
            connection = .connected
            backoff.answered()
        }
    }
}
