import HeadwayCore
import HeadwayProtocol
import HeadwayToolProgress
import HeadwaySystem

/// `headway run -- CMD ARGS...`: runs CMD with its output passed through unchanged and exits with
/// CMD's status. Its output passes at the speed of a pipe: each piece is passed on before it is
/// read, only the lines that can carry progress are decoded (``ToolProgress``), and a stream no
/// format reads moves inside the kernel (``Passage``). When the reader of its output goes away,
/// CMD's end of that pipe is closed: CMD sees it as it would without Headway (SIGPIPE, or EPIPE
/// where whoever started Headway had SIGPIPE ignored), and `headway run` exits with its status (141,
/// as a shell shows, for a CMD that SIGPIPE ends). The job shows indeterminate until the output contains progress: a known tool's
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

    /// The command's pipes hold this much (the system's default limit for F_SETPIPE_SZ), and it is
    /// read this much at a time: a fast command wakes Headway once a megabyte.
    static let pipeBytes = 1 << 20

    /// One of the command's outputs: where it goes, and whether it is read at all.
    struct Stream {
        let fd: Int32
        /// Where it passes on (stdout, stderr); nil for the progress descriptor, which is only read.
        let to: Passage?
        let stream: ToolStream
        /// Nothing on it is read or withheld: it moves straight on (splice(2) where it can).
        let unread: Bool
    }

    func run() -> Int32 {
        // As CMD would have it without Headway, which ignores SIGPIPE itself from here on.
        let brokenPipesIgnored = Signals.brokenPipesIgnored
        let job = client.command.job!
        let parser = (try? LineProgressParser(pattern: reading.pattern)) ?? LineProgressParser.standard
        let descriptor = Processes.descriptorFreeInChildren()
        let context = ToolContext(
            arguments: arguments, size: reading.size, total: options.total, environment: { SystemIO.environment($0) },
            fileSize: { path in Files.status(of: path, followingLinks: true).flatMap { $0.kind == .regularFile ? Double($0.size) : nil } }, descriptor: descriptor)
        guard var progress = try? ToolProgress(context: context, format: reading.format, pattern: parser) else { return 2 }
        let invocation = progress.invocation
        let meter = TerminalProgressLine.make(withheld: !invocation.withholds.isEmpty)
        let standardOutput = Passage(SystemIO.standardOutput), standardError = Passage(SystemIO.standardError)
        if let meter {
            // The command's output and Headway's own lines pass below a cleared meter line.
            standardOutput.beforeWriting = meter.clear
            standardError.beforeWriting = meter.clear
        }
        let notices = Notices(output: standardOutput, errors: standardError)
        let reported = CommandJob(client: client, job: job, options: options, controls: .all, keepsLabel: reading.labelGiven, say: notices.say)

        let output: (read: Int32, write: Int32), errors: (read: Int32, write: Int32), status: (read: Int32, write: Int32)
        do throws(SystemError) {
            output = try SystemIO.makePipe(nonBlocking: false)
            errors = try SystemIO.makePipe(nonBlocking: false)
            status = invocation.usesDescriptor ? try SystemIO.makePipe(nonBlocking: false) : (-1, -1)
        } catch {
            notices.say("headway: cannot create pipes: \(error)")
            return 125
        }
        SystemIO.enlargePipe(output.read, to: Self.pipeBytes)
        SystemIO.enlargePipe(errors.read, to: Self.pipeBytes)
        let signals = SignalPipe([SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.hangUp])
        let extra = invocation.usesDescriptor ? (fd: status.write, number: descriptor) : nil
        let pid: Int32
        do throws(SystemError) {
            pid = try Processes.spawn(
                invocation.arguments, output: output.write, errors: errors.write, adding: invocation.environment, extra: extra, ignoringBrokenPipes: brokenPipesIgnored)
        } catch {
            notices.say("headway: cannot run \(arguments[0]): \(error)")
            reported.finish(.failed)
            return error.code == Errno.noSuchFile ? 127 : 126
        }
        SystemIO.close(output.write)
        SystemIO.close(errors.write)
        if invocation.usesDescriptor { SystemIO.close(status.write) }

        let clock = MonotonicClock()
        let started = clock.now
        let recording = reading.record.map {
            RunRecording(path: $0, arguments: arguments, format: reading.format, pattern: reading.pattern, size: reading.size, total: options.total, name: options.name)
        }
        func stream(_ fd: Int32, _ to: Passage?, _ stream: ToolStream) -> Stream {
            Stream(fd: fd, to: to, stream: stream, unread: to != nil && progress.passesUntouched(stream) && !progress.reads(stream))
        }
        var streams = [stream(output.read, standardOutput, .output), stream(errors.read, standardError, .errors)]
        if invocation.usesDescriptor { streams.append(stream(status.read, nil, .progress)) }
        /// Since when a line that may be the meter has waited unshown (a prompt must not wait long).
        var waitingSince: Double?
        var stop: Stop?
        var paused: [Int32] = []
        var killAt: Double?
        var warnedWriting = false
        var chunk = [UInt8](repeating: 0, count: Self.pipeBytes)

        /// Stopped processes get no SIGTERM: they are continued first, so they can end.
        func continueCommand() {
            for process in paused.reversed() { Processes.send(SignalNumber.continue, to: process) }
            paused = []
        }

        func handle(_ event: JobEvent) {
            switch event.kind {
            case .cancelRequested where stop == nil:
                stop = .cancelRequested
                notices.say("headway: cancel requested for \(DisplayText.sanitised(job)); stopping \(DisplayText.sanitised(arguments[0]))")
                continueCommand()
                Processes.send(SignalNumber.terminate, to: pid)
                killAt = clock.now + 5
            case .paused where paused.isEmpty && stop == nil:
                // Parents first, so that none starts a new child while its children are stopped.
                paused = Processes.tree(of: pid)
                for process in paused { Processes.send(SignalNumber.stop, to: process) }
                let children = paused.count - 1
                let stopped = children == 0 ? "" : children == 1 ? " and its child" : " and its \(children) children"
                notices.say("headway: \(DisplayText.sanitised(job)) paused: \(DisplayText.sanitised(arguments[0]))\(stopped) stopped")
            case .resumed where !paused.isEmpty:
                continueCommand()
                notices.say("headway: \(DisplayText.sanitised(job)) resumed")
            default:
                break
            }
        }

        /// Nothing more passes where `item` goes: the command's end of it is closed, so that it
        /// sees what it would see writing there itself — SIGPIPE, or EPIPE — and Headway ends
        /// with its status (141 when SIGPIPE ended it).
        func stopPassing(_ reason: Passage.Stop) {
            if case .failed(let error) = reason, !warnedWriting {
                warnedWriting = true
                notices.say("headway: cannot pass \(arguments[0])'s output on: \(error); its output is closed")
            }
        }

        while !streams.isEmpty {
            var watched: [(fd: Int32, wanted: Readiness)] = streams.map { ($0.fd, .readable) }
            watched.append((signals.readEnd, .readable))
            // The job's link says when it must look again (a held-back update, a reconnection, a
            // broker's keep-alive); a waiting line is shown after 0.2 s.
            let link = reported.prepare()
            let wakes = [killAt, waitingSince.map { $0 + 0.2 }, link.timeout.map { clock.now + $0 }, meter?.due].compactMap { $0 }
            let ready = SystemIO.poll(watched + link.watched, timeout: wakes.min().map { max(0, $0 - clock.now) })
            if let since = waitingSince, clock.now - since >= 0.2 {
                for item in streams { item.to?.write(progress.release(item.stream)[...]) }
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
                var updates: [ToolProgress.Update] = []
                var ended = false
                if item.unread, let to = item.to {
                    switch to.move(from: item.fd, buffer: &chunk) {
                    case .moved: break
                    case .end, .unreadable: ended = true
                    case .stopped(let reason):
                        stopPassing(reason)
                        ended = true
                    }
                } else if case .bytes(let count) = SystemIO.read(item.fd, into: &chunk) {
                    recording?.output(item.stream, chunk[0..<count], at: clock.now - started)
                    if progress.passesUntouched(item.stream) {
                        // Passed on before it is read: reading for progress never holds it back.
                        if let to = item.to, !to.write(chunk[0..<count]) {
                            stopPassing(to.stopped!)
                            ended = true
                        } else {
                            updates = progress.observe(item.stream, chunk[0..<count])
                        }
                    } else {
                        let result = progress.feed(item.stream, chunk[0..<count])
                        if let to = item.to, !to.write(result.passed[...]) {
                            stopPassing(to.stopped!)
                            ended = true
                        }
                        updates = result.updates
                        if progress.isWaiting(item.stream) { waitingSince = waitingSince ?? clock.now }
                    }
                } else {
                    let result = progress.end(item.stream)
                    item.to?.write(result.passed[...])
                    updates = result.updates
                    ended = true
                }
                if ended {
                    SystemIO.close(item.fd)
                    streams.remove(at: index)
                } else {
                    index += 1
                }
                for update in updates {
                    reported.report(update)
                    meter?.show(update)
                }
                if let problem = progress.takeProblem() {
                    notices.say("headway: warning: cannot read \(progress.name)'s progress: \(DisplayText.sanitised(problem)); its output passes as it was")
                }
            }
            if !streams.contains(where: { progress.isWaiting($0.stream) }) { waitingSince = nil }
            meter?.draw()
        }
        meter?.clear()

        let exitCode = Processes.waitForExit(pid)
        recording?.end(status: exitCode, at: clock.now - started, say: notices.say)
        let outcome: Outcome = stop != nil ? .cancelled : exitCode == 0 ? .succeeded : .failed
        reported.finish(outcome)
        return exitCode
    }
}
