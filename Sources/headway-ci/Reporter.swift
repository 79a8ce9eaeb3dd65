import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem

/// Where the jobs go — the local service's socket, or the fleet's broker (docs/mqtt.md, each run
/// published under its CI source as `headway --broker` publishes a job) — through the client core
/// every reporter runs (``ReporterCore``): requests are taken at once and sent as the link takes
/// them, a service or broker that went away is reached again with back-off and told every run
/// still followed again (begun with its running time, its latest step and progress), a run the
/// service forgot is begun again, and one the service ended while it goes on (a long press) is
/// not told again until a run begins under that id again.
final class JobReporter {
    private let reporting: Reporting
    private var complained = false
    private var reached = false
    /// A run the service refuses is said once (it is told again at every look).
    private var refusals = LogLimiter(interval: nil, capacity: 1024)

    private init(settings: ReporterCore.Settings, link: any ReportLink) {
        reporting = Reporting(settings: settings, link: link)
    }

    /// The service's socket at `path`.
    static func service(path: String) -> JobReporter {
        JobReporter(settings: settings(timeout: 2, policy: .socket, place: "the service at \(path)"), link: SocketLink(path: path))
    }

    /// The broker of `settings`; a job `PREFIX/RUN` of a source whose prefix is one of
    /// `prefixes` is published as the run RUN of the source PREFIX.
    static func broker(_ broker: BrokerSettings, prefixes: [String]) -> JobReporter {
        let link = BrokerLink(settings: broker, sessions: .shared, role: "ci") { id in
            prefixes.first { id.hasPrefix($0 + "/") }.map { ($0, String(id.dropFirst($0.count + 1))) }
        }
        return JobReporter(settings: settings(timeout: 5, policy: .broker, place: broker.address), link: link)
    }

    /// Its runs are followed elsewhere: no process here is theirs.
    private static func settings(timeout: Double, policy: ConnectionPolicy, place: String) -> ReporterCore.Settings {
        ReporterCore.Settings(timeout: timeout, progressInterval: 0.02, policy: policy, processID: nil, place: place)
    }

    /// Takes what a follower says of its runs. A job in `controlled` is begun taking the button's
    /// pause and cancel: the service sends those requests here (``service()``) for its server.
    func tell(_ requests: [Request], controlled: Set<String> = []) {
        let now = reporting.now
        reporting.withCore { core in
            for request in requests {
                if case .begin(let id, _) = request, controlled.contains(id) {
                    core.apply(request, now: now, follows: true, controls: .all)
                } else {
                    core.apply(request, now: now)
                }
            }
        }
    }

    /// Sends what is due; what to wait for (readable) and until when at most.
    func prepare() -> (descriptors: [Int32], timeout: Double?) {
        let wait = reporting.prepare()
        // A connection that does not take what waits is looked at again soon (the loop waits for readable only).
        let writing = wait.watched.contains { $0.wanted.contains(.writable) }
        return (wait.watched.map(\.fd), writing ? min(wait.timeout ?? 0.05, 0.05) : wait.timeout)
    }

    /// Reads and sends what can be now, and says what happened; the requests people made of
    /// controlled jobs (pause, resume, cancel), for their followers.
    func service() -> [JobEvent] {
        reporting.service()
        return note()
    }

    /// Delivers what is left, within `timeout` (the follower stops).
    func stop(within timeout: Double) {
        reporting.flush(within: timeout)
        note()
        reporting.close(within: 0.5)
    }

    @discardableResult
    private func note() -> [JobEvent] {
        let notes = reporting.takeNotes()
        let place = reporting.core.settings.place
        switch reporting.core.connection {
        case .unavailable(let reason) where !complained:
            log("cannot reach \(place): \(reason); its jobs are told again when it is back")
            complained = true
        case .connected where complained || !reached:
            log(complained ? "\(place) answers again" : "reporting to \(place)")
            complained = false
            reached = true
        default:
            break
        }
        for refusal in notes.refusals {
            let line = "the service refused \(refusal.job ?? "a request"): \(refusal.error)"
            if let admitted = refusals.admit(line, kind: "\(refusal.job ?? "")\u{0}\(refusal.error.code)", at: reporting.now) { log(admitted) }
        }
        for job in notes.dismissed { log("\(job) was ended on this display while its run goes on; it is shown again when the run is begun again") }
        return notes.jobEvents.map(\.1)
    }
}

func log(_ text: String) {
    SystemIO.printError("headway-ci: \(DisplayText.sanitised(text))\n")
}
