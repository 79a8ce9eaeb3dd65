import HeadwayCore
import HeadwayProtocol

/// One job of a client, generation included: beginning a job id again makes a new generation, and
/// the handles of the old one stop reporting.
struct JobKey: Hashable, Sendable {
    var id: String
    var generation: Int
}

/// What a client knows of one of its jobs: the state its program last reported (which always
/// wins: reports coalesce into it), and what the current connection has been told of it.
struct JobRecord {
    /// The job's progress as last reported.
    enum Progress: Equatable {
        case indeterminate
        case value(Double, timeRemaining: Double?)
    }

    let key: JobKey
    /// How it was begun; `label` and `total` follow later reports, so that a begin sent again
    /// after a restart carries what is true now.
    var options: BeginOptions
    /// When it began, on the monotonic clock: a begin sent again says how long ago (`elapsed`).
    let startedAt: Seconds
    /// When a countdown ends, on the monotonic clock.
    let countdownEnd: Seconds?
    let controls: JobControls

    // What the program reported; each change counts up `version`.
    var version = 1
    var labelVersion = 0
    var progress: Progress?
    var progressVersion = 0
    var outcome: Outcome?
    /// Paused by a person (and honoured by the program), as the service's events said.
    var paused = false
    /// A `resume` to send: a pause the program does not honour, turned down.
    var resumeOwed = false

    // What the current connection knows.
    var begun = false
    var subscribed = false
    var sentLabelVersion = 0
    var sentProgressVersion = 0
    var finishSent = false
    var lastProgressSentAt = -Double.infinity
    /// The service refused the begin on this connection: nothing more is sent for the job until
    /// the next connection.
    var beginRefused = false
    /// Whether any connection ever began it (a job begun and ended while the service was away is
    /// never shown late).
    var everBegun = false
    /// The newest `version` whose state the service has acknowledged.
    var answered = 0

    var refusal: Refusal?
    var watchers: [Int: AsyncStream<JobEvent>.Continuation] = [:]

    init(key: JobKey, options: BeginOptions, startedAt: Seconds, countdownEnd: Seconds?, controls: JobControls) {
        self.key = key
        self.options = options
        self.startedAt = startedAt
        self.countdownEnd = countdownEnd
        self.controls = controls
    }

    /// Whether the program still reports to the job.
    var isRunning: Bool { outcome == nil }

    /// Whether everything the program reported has been acknowledged.
    var isDelivered: Bool { answered >= version }

    /// The connection was lost: a new one starts knowing nothing of the job.
    mutating func forgetConnection() {
        begun = false
        subscribed = false
        sentLabelVersion = 0
        sentProgressVersion = 0
        finishSent = false
        beginRefused = false
        resumeOwed = false
        lastProgressSentAt = -.infinity
    }

    /// Checks a report's numbers as the service would, so a wrong one is refused before sending.
    static func check(value: Double, total: Double?, timeRemaining: Double?) throws(ProgressError) {
        guard value.isFinite, value >= 0 else { throw .invalidValue(value) }
        if let total, !(total.isFinite && total > 0) { throw .invalidTotal(total) }
        if let timeRemaining, !(timeRemaining.isFinite && timeRemaining >= 0 && timeRemaining <= WireProtocol.maxSeconds) {
            throw .invalidTimeRemaining(timeRemaining)
        }
    }

    /// The requests that bring the service from what this connection told it to what the program
    /// reported, in the order they must go; empty when there is nothing to send (or it must wait:
    /// progress goes at most every `interval` seconds unless `urgent`).
    mutating func nextRequests(now: Seconds, interval: Seconds, urgent: Bool, processID: Int32) -> [(Request, SentKind)] {
        guard !beginRefused else { return [] }
        var requests: [(Request, SentKind)] = []
        let id = key.id
        if !begun {
            if outcome != nil {
                // Over before this connection: only a job the service may still hold is told.
                guard everBegun, !finishSent else { return [] }
                finishSent = true
                return [(.finish(job: id, outcome: outcome!), .finish)]
            }
            var begin = options
            begin.pid = processID
            // Begun again (a restart), or late (the service was away): with the time it has run.
            let elapsed = now - startedAt
            if everBegun || elapsed >= 1 { begin.elapsed = min((elapsed * 1000).rounded() / 1000, WireProtocol.maxSeconds) }
            if let countdownEnd {
                // The service's countdown runs from the begin: what is left of it.
                begin.countdown = max(0.001, countdownEnd - now)
            }
            requests.append((.begin(job: id, begin), .begin))
            begun = true
            everBegun = true
            sentLabelVersion = labelVersion
            if progress == nil { sentProgressVersion = progressVersion }
        }
        if !subscribed {
            requests.append((.subscribe(job: id, controls: !controls.isEmpty), .subscribe))
            subscribed = true
            if paused, controls.contains(.pause) { requests.append((.pause(job: id), .quiet)) }
        }
        if resumeOwed {
            requests.append((.resume(job: id), .quiet))
            resumeOwed = false
        }
        let progressDue = progressVersion > sentProgressVersion && (urgent || outcome != nil || now - lastProgressSentAt >= interval)
        var labelSent = false
        if progressDue, let progress {
            switch progress {
            case .value(let value, let eta):
                let label = labelVersion > sentLabelVersion ? options.label : nil
                requests.append((.update(job: id, value: value, total: options.total, label: label, eta: eta), .report))
                labelSent = label != nil
            case .indeterminate:
                requests.append((.indeterminate(job: id), .report))
            }
            sentProgressVersion = progressVersion
            lastProgressSentAt = now
        }
        if labelVersion > sentLabelVersion, !labelSent, let label = options.label {
            requests.append((.label(job: id, label: label), .report))
        }
        sentLabelVersion = labelVersion
        if let outcome, !finishSent, progressVersion <= sentProgressVersion {
            requests.append((.finish(job: id, outcome: outcome), .finish))
            finishSent = true
        }
        return requests
    }
}

/// What a request in flight was, so its reply is read for what it means.
enum SentKind: Equatable {
    case begin, subscribe, report, finish
    /// A request whose refusal means nothing to the program (a pause sent again after a restart,
    /// a resume of a turned-down pause).
    case quiet
}
