import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// Who holds a reporter's core for its link: a program's own loop (``Reporting``), or
/// HeadwayClient's callers and reporting thread behind a mutex. A link reaches the core only
/// through its host, so that the host sees every change.
package protocol ReporterHost: AnyObject {
    /// The core's next step, with what the host knows of who waits for what.
    func plan(now: Seconds, canWrite: Bool) -> ReporterCore.Plan
    /// Runs `body` on the core.
    func withCore<Result>(_ body: (inout ReporterCore) -> Result) -> Result
}

/// What a link waits for before its next step: its descriptors, and how long at most (nil:
/// until one of them, or the host, wakes it).
package struct LinkWait {
    package var watched: [(fd: Int32, wanted: Readiness)]
    package var timeout: Seconds?

    package init(watched: [(fd: Int32, wanted: Readiness)], timeout: Seconds?) {
        self.watched = watched
        self.timeout = timeout
    }
}

/// The transport a ``ReporterCore`` speaks over: the service's socket (``SocketLink``) or a
/// broker (``BrokerLink``). Its owner waits on what ``prepare(_:now:)`` returns (beside its own
/// descriptors), then calls ``service(_:now:)``.
package protocol ReportLink: AnyObject {
    /// Carries out what the core plans — connecting, closing, sending what the transport takes
    /// now — and says what to wait for; nil when the reporter is closed and done.
    func prepare(_ host: some ReporterHost, now: Seconds) -> LinkWait?
    /// Reads (and sends) what can be without waiting, after a wait.
    func service(_ host: some ReporterHost, now: Seconds)
    /// Sends what was handed over but not yet sent, until `deadline` at most, and closes: the
    /// program is about to exit. Says what could not be sent, if anything.
    func drain(until deadline: Seconds) -> String?
}

/// A reporter on its program's own loop — the `headway` command, headway-ci: the core and its
/// link on the caller's thread. The loop waits on ``prepare()``'s descriptors beside its own,
/// then calls ``service()`` and reads ``takeNotes()``.
package final class Reporting: ReporterHost {
    package private(set) var core: ReporterCore
    private let link: any ReportLink
    private var urgency = ReporterCore.Urgency()
    private let clock = MonotonicClock()

    package init(settings: ReporterCore.Settings, link: any ReportLink) {
        core = ReporterCore(settings: settings)
        self.link = link
    }

    package var now: Seconds { clock.now }

    package func plan(now: Seconds, canWrite: Bool) -> ReporterCore.Plan { core.plan(now: now, canWrite: canWrite, urgent: urgency) }

    package func withCore<Result>(_ body: (inout ReporterCore) -> Result) -> Result { body(&core) }

    /// Carries out what is due and says what to wait for.
    package func prepare() -> LinkWait { link.prepare(self, now: now) ?? LinkWait(watched: [], timeout: nil) }

    /// After the wait: what the link can read and send now.
    package func service() { link.service(self, now: now) }

    /// What happened since the last call.
    package func takeNotes() -> ReporterCore.Notes { core.takeNotes() }

    /// Drives the link alone while `going` holds, until `deadline` at most.
    private func drive(until deadline: Seconds, while going: () -> Bool) {
        while going() {
            let wait = prepare()
            let left = deadline - now
            guard going(), left > 0, !wait.watched.isEmpty || wait.timeout != nil else { return }
            _ = SystemIO.poll(wait.watched, timeout: min(wait.timeout ?? left, left))
            service()
        }
    }

    /// Waits until everything reported is delivered — at most `timeout`, and not at all while
    /// the other end is unavailable. Progress held back by the interval goes at once.
    package func flush(within timeout: Seconds) {
        urgency.all = true
        defer { urgency.all = false }
        drive(until: now + timeout) { core.connection.allowsWaiting && core.hasUndelivered }
    }

    /// Sends `request` and waits for its answer (within the core's timeout): a hook's one
    /// exchange, made with a ``ConnectionPolicy/oneShot`` policy. Other notes are dropped.
    package func exchange(_ request: Request) -> Result<Reply, ReporterCore.QuestionFailure> {
        let ticket: Int
        switch core.ask(request, now: now) {
        case .failure(let failure): return .failure(failure)
        case .success(let asked): ticket = asked
        }
        var answer: Result<Reply, ReporterCore.QuestionFailure>?
        // The core ends the question at its deadline; this one only guards against a link that never returns.
        drive(until: now + core.settings.timeout + 1) {
            answer = answer ?? core.takeNotes().answers.first { $0.ticket == ticket }?.answer
            return answer == nil
        }
        return answer ?? .failure(ReporterCore.QuestionFailure(description: "\(core.settings.place) did not answer in time"))
    }

    /// Sends what is left, within `timeout`, and closes: the program ends. Says what could not
    /// be sent, if anything.
    @discardableResult
    package func close(within timeout: Seconds) -> String? { link.drain(until: now + timeout) }
}
