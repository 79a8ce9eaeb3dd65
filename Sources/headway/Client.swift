import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// Carries out a ``ClientCommand``. Hook commands never fail the job because of the service: when it
/// is absent, slow or refuses, they warn once on stderr and exit 0 (exit 1 with `--strict`).
struct Client {
    let command: ClientCommand

    var socketPath: String { command.socket ?? SocketPath.forClient() }

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
        case .watch:
            return watch()
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

    /// Reports a problem with the service: a warning and success, or failure with --strict.
    func soft(_ message: String) -> Int32 {
        printError("headway: warning: \(DisplayText.sanitised(message))\(command.strict ? "" : " (progress not shown; the job goes on)")")
        return command.strict ? 1 : 0
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
            print(StatusTable.render(jobs, omitted: omitted) + (quiet.map { "\n" + $0.summary } ?? "") + timers.map { "\n" + $0.summary }.joined())
            return 0
        case .success: return soft("unexpected reply to status")
        case .failure(let failure): return soft(failure.description)
        }
    }

    private func watch() -> Int32 {
        do throws(ServiceConnection.Failure) {
            let connection = try ServiceConnection(path: socketPath, budget: 2)
            _ = try connection.send(.subscribe(job: command.job, controls: false))
            while true {
                let line = try connection.readLine(until: nil)
                guard let event = JobEvent.parse(line) else { continue }
                let text = "\(DisplayText.sanitised(event.job)): \(event.kind.rawValue)\(event.outcome.map { " (\($0.rawValue))" } ?? "")\n"
                SystemIO.writeAll(SystemIO.standardOutput, Array(text.utf8)[...])
            }
        } catch {
            printError("headway: \(error.message)")
            return 1
        }
    }
}

/// `headway status` as a table.
enum StatusTable {
    /// The table; every text from the service is made safe for the terminal first.
    static func render(_ jobs: [JobStatus], omitted: Int) -> String {
        guard !jobs.isEmpty else { return "no jobs" }
        var rows = [["JOB", "PHASE", "PROGRESS", "ETA", "LABEL"]]
        for job in jobs {
            var progress = job.percent.map { "\(job.estimate ? "~" : "")\($0)%" } ?? "-"
            if let value = job.value, let total = job.total, total != 1, total != 100 {
                progress += " (\(NumberText.compact(value))/\(NumberText.compact(total)))"
            }
            let eta = job.overdueSeconds.map { "overdue \(DurationText.short($0))" }
                ?? job.etaSeconds.map { "\(job.estimate || job.etaReported ? "~" : "")\(DurationText.short($0, rounding: .up))" } ?? "-"
            let label = [job.label, job.reason.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            rows.append([DisplayText.sanitised(job.job), DisplayText.sanitised(job.phase), progress, eta, DisplayText.sanitised(label)])
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 4 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + (omitted > 0 ? "\n… and \(omitted) older jobs not listed" : "")
    }
}
