import HeadwayCore
import HeadwayProtocol

extension ReporterCore {
    /// Lines the service sent: replies, in the order of the requests, and events.
    package mutating func received(_ lines: [String], now: Seconds) {
        for line in lines {
            if let reply = Reply.parse(line) {
                guard let sent = inFlight.popFirst() else { continue }
                heard()
                answer(sent, with: reply)
            } else if let event = JobEvent.parse(line) {
                deliver(event)
            }
        }
    }

    /// Requests a broker's displays sent a reporter (``BrokerLink``), as the service's events.
    package mutating func received(_ events: [JobEvent]) {
        for event in events { deliver(event) }
    }

    /// The requests in flight were taken (a broker acknowledges publications, not requests).
    package mutating func acknowledgeAll() {
        if !inFlight.isEmpty { heard() }
        while let sent = inFlight.popFirst() { answer(sent, with: .ok) }
    }

    /// What a reply means for the request it answers: decided by its code, never its words.
    private mutating func answer(_ sent: InFlight, with reply: Reply) {
        if let ticket = sent.question {
            if questions.removeValue(forKey: ticket) != nil { notes.answers.append((ticket, .success(reply))) }
            return
        }
        guard let key = sent.key, var record = jobs[key.id], record.key == key else {
            if case .error(let error) = reply, sent.kind != .quiet { refused(Refusal(job: sent.key?.id, error: error)) }
            return
        }
        if case .error(let error) = reply {
            switch sent.kind {
            case .begin:
                record.beginRefused = true
                record.refusal = Refusal(job: key.id, error: error)
                refused(record.refusal!)
            case .report, .subscribe:
                guard !record.beginRefused else { break }
                if error.code == .noSuchJob, record.isRunning {
                    // The service lost the job (it forgot it, or restarted without closing this
                    // connection first): begun again, with its running time.
                    record.forgetConnection()
                } else if error.code == .jobFinished {
                    // The service ended it (a button, a countdown that ran out) while its reporter
                    // goes on: nothing more is said of it until it is begun again.
                    if record.isRunning {
                        record.outcome = .ended
                        record.finishSent = true
                        record.answered = record.version
                        notes.dismissed.append(key.id)
                    }
                } else {
                    record.refusal = Refusal(job: key.id, error: error)
                    refused(record.refusal!)
                }
            case .finish:
                // Already over there (a restart forgot it, a button cancelled it): nothing to say.
                if error.code != .noSuchJob, error.code != .jobFinished, !record.beginRefused {
                    record.refusal = Refusal(job: key.id, error: error)
                    refused(record.refusal!)
                }
            case .quiet:
                break
            }
        }
        if let version = sent.version { record.answered = max(record.answered, version) }
        if record.beginRefused { record.answered = record.version }
        jobs[key.id] = record
        settle(key.id)
    }

    private mutating func refused(_ refusal: Refusal) {
        lastRefusal = refusal
        notes.refusals.append(refusal)
    }

    /// An event: for whoever follows every job, and for the job's program when it takes it.
    private mutating func deliver(_ event: JobEvent) {
        notes.events.append(event)
        guard var record = jobs[event.job], record.isRunning else { return }
        switch event.kind {
        case .paused:
            guard record.controls.contains(.pause) else {
                // A pause the program does not honour is turned down, and the program not told.
                record.resumeOwed = true
                jobs[event.job] = record
                return
            }
            record.pausedByService(true)
        case .resumed:
            record.pausedByService(false)
        case .cancelRequested:
            guard record.controls.contains(.cancel) else { return }
        case .finished, .lost:
            // Ended by the service (a button, a countdown that ran out): nothing more to send.
            record.outcome = event.outcome ?? .ended
            record.finishSent = true
            record.answered = record.version
            notes.jobEvents.append((record.key, event))
            notes.ended.append((record.key, nil))
            jobs[event.job] = record
            settle(event.job)
            return
        case .begun:
            break
        }
        notes.jobEvents.append((record.key, event))
        jobs[event.job] = record
        settle(event.job)
    }
}
