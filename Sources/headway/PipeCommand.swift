import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// `headway pipe [--size BYTES]`: copies stdin to stdout, like pv, reporting the bytes that passed
/// (of `--size` when given; otherwise the job stays indeterminate and its label counts the bytes).
/// The bytes move inside the kernel where both ends allow (``Passage``); when the reader goes
/// away it ends as a writer in a pipeline does, with 141.
/// The service watches this process: if it dies, the job fails. With a broker the job's
/// connection's will fails it if it dies (``CommandJob``).
struct PipeCommand {
    let client: Client
    let size: Double?
    let options: BeginOptions

    func run() -> Int32 {
        let job = client.command.job!
        let title = options.label ?? "pipe"
        var begin = options
        begin.total = size
        begin.unit = size == nil ? nil : .bytes
        // It cannot stop what feeds it: it takes no button's requests.
        let reported = CommandJob(client: client, job: job, options: begin, controls: [])
        Signals.ignoreBrokenPipes()
        let standardOutput = Passage(SystemIO.standardOutput)
        var passed = 0.0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var outcome = Outcome.succeeded
        var status: Int32 = 0
        reading: while true {
            // Waits for input, and for the job's link when it must look again.
            let link = reported.prepare()
            let ready = SystemIO.poll([(SystemIO.standardInput, .readable)] + link.watched, timeout: link.timeout)
            _ = reported.service()
            guard !ready[0].isEmpty else { continue }
            switch standardOutput.move(from: SystemIO.standardInput, buffer: &buffer) {
            case .end:
                break reading
            case .moved(let count):
                passed += Double(count)
            case .unreadable(let error):
                printError("headway: reading stdin: \(error)")
                outcome = .failed
                status = 1
                break reading
            case .stopped(.readerGone):
                // As any writer in a pipeline whose reader went away: what feeds it sees the same.
                outcome = .failed
                status = Passage.readerGoneStatus
                break reading
            case .stopped(.failed(let error)):
                printError("headway: writing stdout: \(error)")
                outcome = .failed
                status = 1
                break reading
            }
            reported.report(size.map { .update(job: job, value: min(passed, $0), total: $0, label: nil, unit: .bytes) } ?? .label(job: job, label: "\(title): \(NumberText.bytes(passed))"))
        }
        if let size, outcome == .succeeded { reported.report(.update(job: job, value: min(passed, size), total: size, label: nil, unit: .bytes)) }
        reported.finish(outcome)
        return status
    }
}
