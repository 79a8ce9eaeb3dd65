import HeadwayCore
import HeadwayProtocol
import HeadwayToolProgress
import HeadwaySystem

/// `headway run -- CMD ARGS...`: runs CMD with its output passed through unchanged and exits with
/// CMD's status. The job shows indeterminate until the output contains progress: a known tool's
/// own (``ToolProgress``: restic, borg, apt … by CMD's name or `--format`, asked for where the tool
/// needs a flag, a variable or a descriptor, its meter withheld), else `42%`, `3/10`, `[3/10]`,
/// `3 of 10` or `--pattern`. It controls its job: a pause (a short press of the board's
/// button, or `headway pause`) stops CMD and everything it started, a resume continues them, a
/// cancel (a long press) ends CMD. SIGINT, SIGTERM and SIGHUP — Ctrl-C, or a CI runner cancelling —
/// reach CMD and end the job as cancelled. The service watches this process: if it dies, the job
/// fails. Without a service CMD still runs; only the display is missing. With a broker it reports
/// there instead, and its will fails the job if it dies (``CommandJob``).
struct RunCommand {
    let client: Client
    let arguments: [String]
    let reading: ClientCommand.RunReading
    let options: BeginOptions

    /// What ended the command, when it was not its own doing.
    enum Stop { case cancelRequested, interrupted }

    func run() -> Int32 {
        let job = client.command.job!
        let parser = (try? LineProgressParser(pattern: reading.pattern)) ?? LineProgressParser.standard
        let descriptor = Processes.descriptorFreeInChildren()
        let context = ToolContext(
            arguments: arguments, size: reading.size, total: options.total, environment: { SystemIO.environment($0) },
            fileSize: { path in Files.status(of: path, followingLinks: true).flatMap { $0.kind == .regularFile ? Double($0.size) : nil } }, descriptor: descriptor)
        guard var progress = try? ToolProgress(context: context, format: reading.format, pattern: parser) else { return 2 }
        let invocation = progress.invocation
        let reported = CommandJob(client: client, job: job, options: options, controls: .all, keepsLabel: reading.labelGiven)

        let output: (read: Int32, write: Int32), errors: (read: Int32, write: Int32), status: (read: Int32, write: Int32)
        do throws(SystemError) {
            output = try SystemIO.makePipe(nonBlocking: false)
            errors = try SystemIO.makePipe(nonBlocking: false)
            status = invocation.usesDescriptor ? try SystemIO.makePipe(nonBlocking: false) : (-1, -1)
        } catch {
            printError("headway: cannot create pipes: \(error)")
            return 125
        }
        let signals = SignalPipe([SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp])
        let extra = invocation.usesDescriptor ? (fd: status.write, number: descriptor) : nil
        let pid: Int32
        do throws(SystemError) {
            pid = try Processes.spawn(invocation.arguments, output: output.write, errors: errors.write, adding: invocation.environment, extra: extra)
        } catch {
            printError("headway: cannot run \(arguments[0]): \(error)")
            reported.finish(.failed)
            return error.code == Errno.noSuchFile ? 127 : 126
        }
        SystemIO.close(output.write)
        SystemIO.close(errors.write)
        if invocation.usesDescriptor { SystemIO.close(status.write) }

        let clock = MonotonicClock()
        var streams: [(fd: Int32, to: Int32?, stream: ToolStream)] = [(output.read, SystemIO.standardOutput, .output), (errors.read, SystemIO.standardError, .errors)]
        if invocation.usesDescriptor { streams.append((status.read, nil, .progress)) }
        /// Since when a line that may be the meter has waited unshown (a prompt must not wait long).
        var waitingSince: Double?
        var stop: Stop?
        var paused: [Int32] = []
        var killAt: Double?
        var chunk = [UInt8](repeating: 0, count: 16384)

        /// Stopped processes get no SIGTERM: they are continued first, so they can end.
        func continueCommand() {
            for process in paused.reversed() { Processes.send(SignalNumber.continue, to: process) }
            paused = []
        }

        func handle(_ event: JobEvent) {
            switch event.kind {
            case .cancelRequested where stop == nil:
                stop = .cancelRequested
                printError("headway: cancel requested for \(DisplayText.sanitised(job)); stopping \(arguments[0])")
                continueCommand()
                Processes.send(SignalNumber.terminate, to: pid)
                killAt = clock.now + 5
            case .paused where paused.isEmpty && stop == nil:
                // Parents first, so that none starts a new child while its children are stopped.
                paused = Processes.tree(of: pid)
                for process in paused { Processes.send(SignalNumber.stop, to: process) }
                printError("headway: \(DisplayText.sanitised(job)) paused: \(arguments[0]) and its \(paused.count - 1) children stopped")
            case .resumed where !paused.isEmpty:
                continueCommand()
                printError("headway: \(DisplayText.sanitised(job)) resumed")
            default:
                break
            }
        }

        while !streams.isEmpty {
            var watched: [(fd: Int32, wanted: Readiness)] = streams.map { ($0.fd, .readable) }
            watched.append((signals.readEnd, .readable))
            // The job's link says when it must look again (a held-back update, a reconnection, a
            // broker's keep-alive); a waiting line is shown after 0.2 s.
            let link = reported.prepare()
            let wakes = [killAt, waitingSince.map { $0 + 0.2 }, link.timeout.map { clock.now + $0 }].compactMap { $0 }
            let ready = SystemIO.poll(watched + link.watched, timeout: wakes.min().map { max(0, $0 - clock.now) })
            if let since = waitingSince, clock.now - since >= 0.2 {
                for item in streams { if let to = item.to { SystemIO.writeAll(to, progress.release(item.stream)[...]) } }
                waitingSince = nil
            }
            for event in reported.service() { handle(event) }
            if let deadline = killAt, clock.now >= deadline {
                Processes.send(SignalNumber.kill, to: pid)
                killAt = nil
            }
            if !ready[streams.count].isEmpty {
                for signal in signals.drain() {
                    stop = stop ?? .interrupted
                    continueCommand()
                    // A terminal's Ctrl-C reached the whole foreground group, CMD too; anything
                    // sent to this process alone is passed on.
                    if !signal.fromTerminal { Processes.send(signal.number, to: pid) }
                }
            }
            // CMD's output: passed through (less the meter Headway asked for), read for progress.
            var index = 0
            while index < streams.count {
                guard !ready[index].isEmpty else {
                    index += 1
                    continue
                }
                let item = streams[index]
                let result: ToolProgress.Result
                if case .bytes(let count) = SystemIO.read(item.fd, into: &chunk) {
                    result = progress.feed(item.stream, chunk[0..<count])
                    if invocation.withholds.contains(item.stream), progress.isWaiting(item.stream) {
                        waitingSince = waitingSince ?? clock.now
                    }
                    index += 1
                } else {
                    result = progress.end(item.stream)
                    SystemIO.close(item.fd)
                    streams.remove(at: index)
                }
                if let to = item.to { SystemIO.writeAll(to, result.passed[...]) }
                for update in result.updates { reported.report(update) }
                if let problem = progress.takeProblem() {
                    printError("headway: warning: cannot read \(progress.name)'s progress: \(DisplayText.sanitised(problem)); its output passes as it was")
                }
            }
            if !streams.contains(where: { progress.isWaiting($0.stream) }) { waitingSince = nil }
        }

        let exitCode = Processes.waitForExit(pid)
        let outcome: Outcome = stop != nil ? .cancelled : exitCode == 0 ? .succeeded : .failed
        reported.finish(outcome)
        return exitCode
    }
}
