import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem
import HeadwayToolProgress

/// The job of `headway run` and `headway pipe`, reported through the client core for the whole
/// run: to the service's socket (which watches this process: if it dies, the job fails), or with
/// `--broker` over a connection whose will fails the job on every display if this process or its
/// machine dies. The core's rules hold: progress at most every 0.1 s, the latest waiting until it
/// is due so that none is lost; a service or broker that goes away is reached again with back-off,
/// and the job begun again with its running time and latest state. The work never waits for it:
/// a failure is one warning, a refusal another, and the command goes on.
final class CommandJob {
    private let client: Client
    let job: String
    private let reporting: Reporting?
    private let key: JobKey?
    /// The user named the job with `--label`: the tool's labels are left out.
    private let keepsLabel: Bool
    /// The job's own label (the user's, the unit's or the command line), which a finished job
    /// reads again in place of the tool's last step.
    private let ownLabel: String?
    /// A tool's step has stood in for the job's own label.
    private var labelledByStep = false
    private var warnedUnavailable = false
    private var warnedRefusal = false
    /// Writes a warning line (for `headway run`, on a line of its own among the command's output).
    private let say: (String) -> Void

    /// Begins `job` with `options`, taking the button's requests in `controls`, and waits (within
    /// the hook's budget) until the service has it, so that the command starts on a shown job.
    init(client: Client, job: String, options: BeginOptions, controls: JobControls, keepsLabel: Bool = false, say: @escaping (String) -> Void = { printError($0) }) {
        self.client = client
        self.job = job
        self.keepsLabel = keepsLabel
        ownLabel = options.label
        self.say = say
        let source = client.command.source ?? JobPublication.defaultSource
        let link: any ReportLink
        let place: String
        var policy = ConnectionPolicy.socket
        if let url = client.command.broker {
            let settings: BrokerSettings
            do throws(BrokerSettings.Problem) { settings = try BrokerSettings(url: url) } catch {
                say(client.warning(error.description))
                reporting = nil
                key = nil
                return
            }
            link = BrokerLink(settings: settings, sessions: .perJob, role: "run") { (source, $0) }
            place = settings.address
            policy = .broker
        } else {
            link = SocketLink(path: client.socketPath)
            place = "the service at \(client.socketPath)"
        }
        let settings = ReporterCore.Settings(
            timeout: client.command.timeout, progressInterval: 0.1, policy: policy, processID: Processes.id, place: place)
        let reporting = Reporting(settings: settings, link: link)
        key = reporting.withCore { $0.begin(job, options: options, follows: true, controls: controls, now: reporting.now) }
        self.reporting = reporting
        reporting.flush(within: client.command.timeout)
        _ = takeEvents()
    }

    /// What to wait for beside the command's own descriptors, and until when at most.
    func prepare() -> LinkWait { reporting?.prepare() ?? LinkWait(watched: [], timeout: nil) }

    /// After the wait: what came, as the job's events (a cancel request, a pause, a resumption).
    func service() -> [JobEvent] {
        reporting?.service()
        return takeEvents()
    }

    private func takeEvents() -> [JobEvent] {
        guard let reporting else { return [] }
        let notes = reporting.takeNotes()
        switch reporting.core.connection {
        case .unavailable(let reason) where !warnedUnavailable:
            warnedUnavailable = true
            say(client.warning(reason))
        case .connected where warnedUnavailable:
            // The warning said progress was not shown: the service has the job's latest state now.
            warnedUnavailable = false
            say("headway: the service answers again; the job's progress is shown")
        default:
            break
        }
        if let refusal = notes.refusals.first, !warnedRefusal {
            warnedRefusal = true
            say("headway: warning: the service refused an update: \(DisplayText.sanitised(refusal.error.description))")
        }
        return notes.jobEvents.filter { $0.0 == key }.map(\.1)
    }

    /// A tool's progress, as `headway run` read it. The tool's own ETA is not passed on: measured
    /// on the corpus of real runs (docs/performance.md, "Time left on real runs"), the service's
    /// own estimate is as good as curl's, wget's and rclone's and better than rsync's and
    /// restic's, and one figure that does not switch source is one that does not jump.
    func report(_ update: ToolProgress.Update) {
        if let value = update.value, let total = update.total {
            report(.update(job: job, value: value, total: total, label: keepsLabel ? nil : update.label, unit: update.unit, stageEnd: update.stageEnd))
            labelledByStep = labelledByStep || (!keepsLabel && update.label != nil)
        } else if let label = update.label, !keepsLabel {
            report(.label(job: job, label: label))
            labelledByStep = true
        }
    }

    /// A report about the job (an update, a label).
    func report(_ request: Request) {
        guard let reporting else { return }
        reporting.withCore { $0.apply(request, now: reporting.now) }
    }

    /// Ends the job with `outcome`, named by its own label again (a finished job reads what it
    /// was, not the tool's last step), and waits (within the budget) until it is delivered.
    func finish(_ outcome: Outcome) {
        guard let reporting else { return }
        if labelledByStep, let ownLabel { report(.label(job: job, label: ownLabel)) }
        report(.finish(job: job, outcome: outcome))
        reporting.flush(within: client.command.timeout)
        _ = takeEvents()
        reporting.close(within: client.command.timeout)
    }
}
