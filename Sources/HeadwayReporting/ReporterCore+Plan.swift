import HeadwayCore
import HeadwayProtocol

extension ReporterCore {
    /// What the link does next.
    package struct Plan {
        /// Open a connection (the last one is closed, or none was open).
        package var connect = false
        /// Close the connection.
        package var disconnect = false
        /// Requests to send, in order.
        package var requests: [Request] = []
        /// How long the link may wait for something to happen (nil: until woken).
        package var timeout: Seconds?
        /// The reporter is closed and done: the link ends.
        package var exit = false
    }

    /// Jobs whose progress goes now, whatever the interval: someone waits for their delivery.
    package struct Urgency {
        package var keys: Set<JobKey> = []
        /// Every job's.
        package var all = false

        package init(keys: Set<JobKey> = [], all: Bool = false) {
            self.keys = keys
            self.all = all
        }
    }

    /// Whether anything needs the other end: a job, a question, someone following every job.
    var needsLink: Bool { !jobs.isEmpty || !questions.isEmpty || followsAllJobs }

    /// Whether a lost connection had anything to do (else the service closed an idle one).
    package var linkWasBusy: Bool { !inFlight.isEmpty || needsLink }

    /// Requests sent and not yet answered (bounded: a service that is behind is sent nothing more).
    package var inFlightCount: Int { inFlight.count }

    /// The next step, with the link open or not and room in its output buffer or not.
    package mutating func plan(now: Seconds, canWrite: Bool, urgent: Urgency = Urgency()) -> Plan {
        var plan = Plan()
        expireQuestions(now: now)
        if closingDone(now: now) {
            plan.exit = true
            plan.disconnect = linkOpen
            linkOpen = false
            failQuestions("the reporter is closed")
            return plan
        }
        var deadlines = questions.values.map(\.deadline)
        if !linkOpen {
            guard needsLink else { return plan }
            if backoff.allows(at: now) {
                plan.connect = true
                return plan
            }
            if backoff.retryAt.isFinite { deadlines.append(backoff.retryAt) }
            plan.timeout = deadlines.min().map { max(0, $0 - now) }
            return plan
        }
        if let oldest = inFlight.first {
            if now - oldest.sentAt >= settings.patience {
                plan.disconnect = true
                lost("\(settings.place) did not answer for \(DurationText.short(settings.patience))", now: now, quietly: false)
                return plan
            }
            if now - oldest.sentAt >= settings.timeout, connection.allowsWaiting { becomeUnavailable() }
            deadlines.append(oldest.sentAt + (connection.allowsWaiting ? settings.timeout : settings.patience))
        }
        // A service that is behind gets nothing more until it answers: reports are kept, not queued.
        if canWrite, connection.allowsWaiting || inFlight.isEmpty, inFlight.count < settings.maxInFlight {
            if followsAllJobs, !followingAll {
                plan.requests.append(.subscribe(job: nil))
                inFlight.append(InFlight(key: nil, kind: .quiet, sentAt: now))
                followingAll = true
            }
            for ticket in questions.keys.sorted() where !questions[ticket]!.sent {
                questions[ticket]!.sent = true
                plan.requests.append(questions[ticket]!.request)
                inFlight.append(InFlight(key: nil, kind: .report, question: ticket, sentAt: now))
            }
            for id in jobs.keys {
                var record = jobs[id]!
                let urgent = urgent.all || closing || urgent.keys.contains(record.key)
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
                settle(id)
            }
        }
        if closing { deadlines.append(closeDeadline) }
        plan.timeout = deadlines.min().map { max(0, $0 - now) }
        return plan
    }

    /// The connection opened (the other end is not known to answer until it does).
    package mutating func linkOpened() {
        linkOpen = true
        followingAll = false
        for id in jobs.keys { jobs[id]!.forgetConnection() }
    }

    /// Connecting failed, or the connection broke: what was in flight is forgotten (each job's
    /// latest state is kept, to be sent again) and the next attempt waits. `quietly`: the service
    /// closed a connection that had nothing to do — no fault, no waiting.
    package mutating func lost(_ reason: String, now: Seconds, quietly: Bool) {
        linkOpen = false
        inFlight.removeAll()
        followingAll = false
        for id in jobs.keys { jobs[id]!.forgetConnection() }
        if quietly {
            connection = .notConnected
            backoff.closedQuietly(at: now)
        } else {
            connection = .unavailable(reason: reason)
            backoff.failed(at: now)
        }
        failQuestions(reason)
        // Jobs that ended while the other end was away and were never shown are let go.
        for id in Array(jobs.keys) { settle(id) }
    }

    /// Someone waited the whole timeout for what is in flight to be answered: the other end is
    /// unavailable from now on, as it becomes a moment later when the oldest report's own timeout
    /// (counted from its sending, after the wait began) runs out — no later wait costs it again.
    package mutating func waitedInVain() {
        guard linkOpen, !inFlight.isEmpty, connection.allowsWaiting else { return }
        becomeUnavailable()
    }

    private mutating func becomeUnavailable() {
        connection = .unavailable(reason: "\(settings.place) did not answer within \(milliseconds(settings.timeout)) ms")
    }

    /// Questions whose time ran out.
    private mutating func expireQuestions(now: Seconds) {
        for (ticket, question) in questions where now >= question.deadline {
            let failure = QuestionFailure(description: "\(settings.place) did not answer in time (within \(milliseconds(settings.timeout)) ms)")
            notes.answers.append((ticket, .failure(failure)))
            questions[ticket] = nil
        }
    }

    private mutating func failQuestions(_ reason: String) {
        for ticket in questions.keys.sorted() { notes.answers.append((ticket, .failure(QuestionFailure(description: reason)))) }
        questions = [:]
    }

    private func milliseconds(_ seconds: Seconds) -> Int { Int((seconds * 1000).rounded()) }
}
