import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem

/// A hook's one request (`begin`, `set`, `done` …, and `status`) through the client core with a
/// one-shot policy: one connection within the budget — to the socket, or to the broker with
/// `--broker` — no second attempt, the answer read by its code. The hook's promise holds: whatever
/// goes wrong (no service, a silent one, no libmosquitto, a broker that is down or refuses the
/// login) it warns once and exits 0 (1 with --strict) within its budget.
struct HookReport {
    let client: Client

    /// Sends `request`; a `finish` the service says was already made is quiet when `quietWhenFinished`.
    func send(_ request: Request, quietWhenFinished: Bool = false) -> Int32 {
        switch exchange(request) {
        case .failure(let problem):
            return client.soft(problem.description)
        case .success(.error(let error)):
            if quietWhenFinished, error.code == .jobFinished { return 0 }
            return client.soft(Self.refusal(of: request, error), refused: Self.wrongValue.contains(error.code))
        case .success:
            return 0
        }
    }

    /// The codes of a refusal of what was sent (a number, a member, a name): with --strict, exit 2.
    static let wrongValue: Set<ProtocolErrorCode> = [.outOfRange, .invalidMember, .invalidIdentifier, .alreadyDeterminate]

    /// What the service refused, and the fix on this command line: a value above the job's total
    /// was meant as a percentage, or the job needs a total.
    static func refusal(of request: Request, _ error: ProtocolError) -> String {
        let asked: String = switch request {
        case .begin: "begin"
        case .update(_, let value, let total, _, _, _, _): "set \(NumberText.compact(value))\(total.map { "/\(NumberText.compact($0))" } ?? "")"
        case .updatePercent(_, let percent, _, _): "set \(NumberText.compact(percent))%"
        case .label: "label"
        case .indeterminate: "indeterminate"
        case .alive: "alive"
        case .pause: "pause"
        case .resume: "resume"
        case .finish(_, let outcome): "finish \(outcome.rawValue)"
        case .stale, .stop, .status, .subscribe: "the request"
        }
        var text = "the service refused \(asked): \(error.message)"
        if error.code == .outOfRange, error.field == "value", case .update(_, let value, nil, _, _, _, _) = request {
            let number = NumberText.compact(value)
            text += " — did you mean \(number)%, or to begin the job with --total (at least \(number))?"
        }
        return text
    }

    /// The exchange itself, within `budget` (default: the hook's).
    func exchange(_ request: Request, budget: Double? = nil) -> Result<Reply, ReporterCore.QuestionFailure> {
        let budget = budget ?? client.command.timeout
        guard let url = client.command.broker else {
            let path = client.socketPath
            let reporting = Reporting(settings: Self.settings(budget, place: "the service at \(path)"), link: SocketLink(path: path))
            return reporting.exchange(request)
        }
        return publish(request, to: url, budget: budget)
    }

    private func publish(_ request: Request, to url: String, budget: Double) -> Result<Reply, ReporterCore.QuestionFailure> {
        let local = switch request {
        case .pause, .resume: true
        default: false
        }
        let source = client.command.source ?? JobPublication.defaultSource
        guard !local, JobPublication.messages(for: request, source: source) != nil else {
            return .failure(.init(description: "this command acts on a job of this machine and needs the local socket, not a broker"))
        }
        let settings: BrokerSettings
        do throws(BrokerSettings.Problem) { settings = try BrokerSettings(url: url) } catch { return .failure(.init(description: error.description)) }
        // connect(2) to an unreachable host may block far past any budget: the timer ends it.
        let note = "headway: warning: \(DisplayText.sanitised(String(url.prefix(120)))) did not answer within \(Int(budget * 1000)) ms\(client.command.strict ? "" : " (progress not shown; the job goes on)")"
        Processes.exit(after: budget, writing: note + "\n", status: client.command.strict ? 1 : 0)
        let link = BrokerLink(settings: settings, sessions: .shared, role: "report") { (source, $0) }
        let reporting = Reporting(settings: Self.settings(budget, place: settings.address), link: link)
        let started = reporting.now
        let answer = reporting.exchange(request)
        // Published is not yet acknowledged: the hook waits for the broker's word, within its budget.
        if case .success = answer, let problem = reporting.close(within: max(0, started + budget - reporting.now)) {
            return .failure(.init(description: problem))
        }
        return answer
    }

    private static func settings(_ budget: Double, place: String) -> ReporterCore.Settings {
        ReporterCore.Settings(timeout: budget, progressInterval: 0, policy: .oneShot, processID: nil, place: place)
    }
}
