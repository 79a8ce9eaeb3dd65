import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// `headway pipe [--size BYTES]`: copies stdin to stdout, like pv, reporting the bytes that passed
/// (of `--size` when given; otherwise the job stays indeterminate and its label counts the bytes).
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
        // It cannot stop what feeds it: it takes no button's requests.
        let reported = CommandJob(client: client, job: job, options: begin, controls: [])
        Signals.ignoreBrokenPipes()
        var passed = 0.0
        var buffer = [UInt8](repeating: 0, count: 65536)
        var outcome = Outcome.succeeded
        reading: while true {
            // Waits for input, and for the job's link when it must look again.
            let link = reported.prepare()
            let ready = SystemIO.poll([(SystemIO.standardInput, .readable)] + link.watched, timeout: link.timeout)
            _ = reported.service()
            guard !ready[0].isEmpty else { continue }
            switch SystemIO.read(SystemIO.standardInput, into: &buffer) {
            case .end:
                break reading
            case .wouldBlock:
                continue
            case .failed(let error):
                printError("headway: reading stdin: \(error)")
                outcome = .failed
                break reading
            case .bytes(let count):
                guard SystemIO.writeAll(SystemIO.standardOutput, buffer[0..<count]) else {
                    printError("headway: writing stdout: \(SystemError.last)")
                    outcome = .failed
                    break reading
                }
                passed += Double(count)
            }
            reported.report(size.map { .update(job: job, value: min(passed, $0), total: $0, label: nil) } ?? .label(job: job, label: "\(title): \(NumberText.bytes(passed))"))
        }
        if let size, outcome == .succeeded { reported.report(.update(job: job, value: min(passed, size), total: size, label: nil)) }
        reported.finish(outcome)
        return outcome == .succeeded ? 0 : 1
    }
}
