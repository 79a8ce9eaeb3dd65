import HeadwayCore
import HeadwayMQTT
import HeadwayProtocol
import HeadwayReporting
import HeadwaySystem

/// `headway begin --pid PID --broker URL`: a job reported by separate hook calls, whose life is a
/// process's on the runner. The hook leaves behind a small process of its own (detached: it holds
/// none of the hook's output) that publishes the begin over a connection with a will and keeps
/// that connection while PID lives:
/// - a later `headway done`/`fail`/`end` publishes the job's end: the keeper sees it and leaves
///   cleanly;
/// - PID ends first: the keeper ends the job as failed on every display, as the local service does
///   for a watched process;
/// - the keeper itself or the runner's machine dies: the broker publishes the will, and the job
///   ends as failed everywhere.
/// The hook waits only until the begin is acknowledged (its budget, as ever), then exits 0.
struct BrokerKeeper {
    let client: Client
    let url: String
    let job: String
    let options: BeginOptions

    private var pid: Int32 { options.pid! }
    private var source: String { client.command.source ?? JobPublication.defaultSource }

    func start() -> Int32 {
        let report: (read: Int32, write: Int32), child: Int32
        do throws(SystemError) { report = try SystemIO.makePipe(nonBlocking: false) } catch {
            return client.soft("cannot make a pipe: \(error)")
        }
        do throws(SystemError) { child = try Processes.detach(keeping: report.write) } catch {
            return client.soft("cannot start the process that watches \(pid): \(error)")
        }
        if child == 0 {
            SystemIO.close(report.read)
            Processes.exit(keep(reportingTo: report.write))
        }
        SystemIO.close(report.write)
        // The keeper says "ok" once the broker acknowledged the begin, or why not.
        var said: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        let deadline = JobPublication.now + client.command.timeout
        while JobPublication.now < deadline, !said.contains(0x0A) {
            guard !SystemIO.poll([(report.read, .readable)], timeout: deadline - JobPublication.now)[0].isEmpty,
                  case .bytes(let count) = SystemIO.read(report.read, into: &chunk) else { break }
            said += chunk[0..<count]
        }
        SystemIO.close(report.read)
        let line = String(decoding: said.prefix { $0 != 0x0A }, as: UTF8.self)
        if line == "ok" { return 0 }
        return client.soft(line.isEmpty ? "\(DisplayText.sanitised(String(url.prefix(120)))) did not answer within \(Int(client.command.timeout * 1000)) ms" : line)
    }

    /// The keeper's life; its exit status.
    private func keep(reportingTo report: Int32) -> Int32 {
        func tell(_ text: String) {
            _ = SystemIO.writeAll(report, Array((text + "\n").utf8)[...])
            SystemIO.close(report)
        }
        guard let process = try? Processes.watch(pid) else {
            tell("process \(pid) is not running (pass the process of the runner that runs the job, e.g. $PPID in a hook)")
            return 0
        }
        let end = JobTopics.topic(source: source, job: job, .end)
        let session: MQTTSession
        do {
            session = try MQTTSession(try BrokerSettings(url: url), clientID: JobPublication.clientID("keeper"), will: JobPublication.will(source: source, job: job))
            try session.connect(keepAlive: 30, until: JobPublication.now + client.command.timeout)
            try session.subscribe(end)
            for message in JobPublication.messages(for: .begin(job: job, options), source: source) ?? [] {
                try session.publish(message.topic, message.payload, retained: message.retained)
            }
            try session.flush(until: JobPublication.now + client.command.timeout)
        } catch {
            tell("\(error)")
            return 0
        }
        tell("ok")
        var connected = true
        // The reporters' one policy for a broker: the wait doubles with each failure in a row.
        var backoff = Backoff(.broker)
        while true {
            var watched: [(fd: Int32, wanted: Readiness)] = [(process, .readable)]
            if connected, let broker = session.readiness { watched.append(broker) }
            let ready = SystemIO.poll(watched, timeout: connected ? 15 : max(0, backoff.retryAt - JobPublication.now))
            if !ready[0].isEmpty {
                // The job's process ended and nothing reported the job's end: it failed.
                if !connected { connected = (try? session.reconnect(until: JobPublication.now + 5)) != nil }
                for message in JobPublication.messages(for: .finish(job: job, outcome: .failed), source: source) ?? [] {
                    try? session.publish(message.topic, message.payload, retained: message.retained)
                }
                try? session.flush(until: JobPublication.now + 5)
                session.disconnect()
                return 0
            }
            do throws(MQTTSession.Failure) {
                if !connected {
                    guard backoff.allows(at: JobPublication.now) else { continue }
                    try session.reconnect(until: JobPublication.now + 5)
                    try session.subscribe(end)
                    connected = true
                    backoff.answered()
                }
                try session.service()
                if session.received().contains(where: { $0.topic == end && !$0.payload.isEmpty }) {
                    session.disconnect()
                    return 0
                }
            } catch {
                // The broker went away: try again, more slowly each time, while the process lives.
                connected = false
                backoff.failed(at: JobPublication.now)
            }
        }
    }
}
