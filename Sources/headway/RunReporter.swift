import HeadwayCore
import HeadwayProtocol
import HeadwayToolProgress

/// Sends what `headway run` read of its command's progress to the service (or the broker): at most
/// one update every 0.1 s, the newest one waiting until it is due so that none is lost, a change
/// of label alone as a label. A label the user gave (`--label`) stays: the tool's steps are not
/// sent. A connection that fails is given up with one warning; the command goes on.
struct RunReporter {
    let client: Client
    let job: String
    var connection: ServiceConnection?
    let remote: BrokerRun?
    /// The user named the job with `--label`: the tool's labels are left out.
    let keepsLabel: Bool
    private var waiting: ToolProgress.Update?
    private var lastSent: (time: Double, update: ToolProgress.Update)?

    static let interval = 0.1

    init(client: Client, job: String, connection: ServiceConnection?, remote: BrokerRun?, keepsLabel: Bool) {
        self.client = client
        self.job = job
        self.connection = connection
        self.remote = remote
        self.keepsLabel = keepsLabel
    }

    /// When the waiting update is due, if one waits.
    var dueAt: Double? { waiting == nil ? nil : (lastSent?.time ?? 0) + Self.interval }

    mutating func report(_ update: ToolProgress.Update, now: Double) {
        var update = update
        if keepsLabel { update.label = nil }
        guard update.value != nil || update.label != nil else { return }
        guard update != lastSent?.update else {
            waiting = nil
            return
        }
        waiting = update
        sendDue(now: now)
    }

    /// Sends the waiting update if it is due (`now` = infinity: whatever waits, before the end).
    mutating func sendDue(now: Double) {
        guard let update = waiting else { return }
        let finished = update.value != nil && update.value == update.total
        if let last = lastSent, now - last.time < Self.interval, !finished { return }
        waiting = nil
        lastSent = (now.isFinite ? now : 0, update)
        let request: Request
        if let value = update.value, let total = update.total {
            // The tool's own ETA, shown as its estimate; one it cannot mean (negative, past a
            // year) is left out rather than refused with the update.
            let eta = update.eta.flatMap { $0.isFinite && $0 >= 0 && $0 <= WireProtocol.maxSeconds ? $0 : nil }
            request = .update(job: job, value: value, total: total, label: update.label, eta: eta)
        } else if let label = update.label {
            request = .label(job: job, label: label)
        } else {
            return
        }
        remote?.report(request)
        guard let live = connection else { return }
        live.extend(by: client.command.timeout / 4)
        do throws(ServiceConnection.Failure) {
            try live.write(request.line + "\n")
        } catch {
            _ = client.soft(error.message)
            connection = nil
        }
    }
}
