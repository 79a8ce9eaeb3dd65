import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// Carries out a ``ClientCommand``. The job's commands never fail the job because of the service:
/// when it is absent, slow or refuses, they warn once on stderr and exit 0 (with `--strict`, 1
/// when it cannot be reached and 2 for a wrong value). The commands that ask — `status`, `watch`,
/// `press` — exit 1 when they get no answer, saying where they looked.
struct Client {
    let command: ClientCommand
    /// The service's socket: `--socket`, else the one rule's (``SocketPath/forClient()``, which
    /// looks whether the user's own simulator answers: once).
    let socketPath: String

    init(command: ClientCommand) {
        self.command = command
        socketPath = command.socket ?? SocketPath.forClient()
    }

    func run() -> Int32 {
        switch command.action {
        case .help:
            print(ClientCommand.usage)
            return 0
        case .version:
            print("headway \(Version.current) (protocol version \(WireProtocol.version))")
            return 0
        case .status:
            return status()
        case .watch(let json):
            return WatchCommand(client: self, json: json).run()
        case .press(let long):
            return press(long: long)
        case .run(let arguments, let reading, let options):
            return RunCommand(client: self, arguments: arguments, reading: reading, options: options).run()
        case .pipe(let size, let options):
            return PipeCommand(client: self, size: size, options: options).run()
        case .begin(let options):
            return send(.begin(job: job, options))
        case .set(.value(let value, let total), let label):
            return send(.update(job: job, value: value, total: total, label: label))
        case .set(.percent(let percent), let label):
            return send(.updatePercent(job: job, percent: percent, label: label))
        case .label(let text):
            return send(.label(job: job, label: text))
        case .indeterminate:
            return send(.indeterminate(job: job))
        case .alive:
            return send(.alive(job: job))
        case .pause:
            return send(.pause(job: job))
        case .resume:
            return send(.resume(job: job))
        case .finish(let outcome):
            return send(.finish(job: job, outcome: outcome))
        case .end:
            // Only when nothing said how the job went: an outcome reported before stands.
            return send(.finish(job: job, outcome: .ended), quietWhenFinished: true)
        }
    }

    private var job: String { command.job! }

    /// Reports a problem with a report: a warning and success, saying that the job goes on; with
    /// --strict a failure — 2 when what was sent was `refused` as wrong, 1 when the service could
    /// not be reached.
    func soft(_ message: String, refused: Bool = false) -> Int32 {
        printError(warning(message, refused: refused))
        return command.strict ? (refused ? 2 : 1) : 0
    }

    /// The line ``soft(_:refused:)`` writes.
    func warning(_ message: String, refused: Bool = false) -> String {
        let rule = refused ? "the job keeps its last value and goes on" : "progress not shown; the job goes on"
        let tail = command.strict ? "" : " (\(rule): a report never fails it unless --strict)"
        return "headway: \(command.strict ? "" : "warning: ")\(DisplayText.sanitised(message))\(tail)"
    }

    /// A command that asks (status, watch, press) got no answer: it says why and fails.
    func unanswered(_ message: String) -> Int32 {
        printError("headway: \(DisplayText.sanitised(message))")
        return 1
    }

    private func send(_ request: Request, quietWhenFinished: Bool = false) -> Int32 {
        if let broker = command.broker, case .begin(let job, let options) = request, options.pid != nil {
            return BrokerKeeper(client: self, url: broker, job: job, options: options).start()
        }
        return HookReport(client: self).send(request, quietWhenFinished: quietWhenFinished)
    }

    private func status() -> Int32 {
        if let broker = command.broker { return BrokerStatus(client: self, url: broker).run() }
        switch HookReport(client: self).exchange(.status, budget: 2) {
        case .success(.jobs(let jobs, let omitted, let quiet, let timers)):
            // On a terminal each line fits its width; piped, lines are whole.
            let width = Terminal.isTerminal(SystemIO.standardOutput) ? Terminal.size(SystemIO.standardOutput)?.columns : nil
            print(StatusTable.render(jobs, omitted: omitted, width: width) + (quiet.map { "\n" + $0.summary } ?? "") + timers.map { "\n" + $0.summary }.joined())
            return 0
        case .success(.error(let error)): return unanswered("the service at \(socketPath) refused status: \(error)")
        case .success: return unanswered("unexpected reply to status from \(socketPath)")
        case .failure(let failure): return unanswered(failure.description)
        }
    }

    /// Presses the simulator's virtual button (headway-sim serve's own operation).
    private func press(long: Bool) -> Int32 {
        let path = socketPath
        do throws(ServiceConnection.Failure) {
            let connection = try ServiceConnection(path: path, budget: 2)
            try connection.write(#"{"v":1,"op":"press","long":\#(long)}"# + "\n")
            switch try connection.awaitReply() {
            case .error(let error) where error.code == .unknownOperation:
                return unanswered("the service at \(path) has no virtual button: press reaches headway-sim serve's rig (a board's button is pressed by hand)")
            case .error(let error) where error.code == .unsupported:
                return unanswered("the simulator at \(path) has no button on its rig: configure one (buttons: in its configuration)")
            case .error(let error):
                return unanswered("the service at \(path) refused the press: \(error)")
            default:
                print(long ? "held the simulator's button (a long press: cancel)" : "pressed the simulator's button (a short press: pause or resume)")
                return 0
            }
        } catch {
            return unanswered(error.message)
        }
    }
}
