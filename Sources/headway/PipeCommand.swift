import HeadwayCore
import HeadwayProtocol
import HeadwaySystem

/// `headway pipe [--size BYTES]`: copies stdin to stdout, like pv, reporting the bytes that passed
/// (of `--size` when given; otherwise the job stays indeterminate and its label counts the bytes).
/// The service watches this process: if it dies, the job fails. With a broker (``BrokerRun``) it
/// reports there, and its will fails the job if it dies.
struct PipeCommand {
    let client: Client
    let size: Double?
    let options: BeginOptions

    func run() -> Int32 {
        let job = client.command.job!
        let title = options.label ?? "pipe"
        var begin = options
        begin.total = size
        let remote = client.command.broker.map { BrokerRun(client: client, url: $0, job: job, options: begin, takesCommands: false) }
        var connection = remote == nil ? client.connect() : nil
        begin.pid = Processes.id
        do throws(ServiceConnection.Failure) {
            _ = try connection?.send(.begin(job: job, begin))
        } catch {
            _ = client.soft(error.message)
            connection = nil
        }
        Signals.ignoreBrokenPipes()
        let clock = MonotonicClock()
        var passed = 0.0
        var lastSent = -Double.infinity
        var buffer = [UInt8](repeating: 0, count: 65536)
        var outcome = Outcome.succeeded
        reading: while true {
            switch SystemIO.read(SystemIO.standardInput, into: &buffer) {
            case .end:
                break reading
            case .wouldBlock:
                // With a broker, it wakes for the keep-alive at least every 10 s.
                _ = SystemIO.poll([(SystemIO.standardInput, .readable)], timeout: remote == nil ? nil : 10)
                _ = remote?.tick()
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
            let now = clock.now
            guard now - lastSent >= 0.1 else { continue }
            let request: Request = size.map { .update(job: job, value: min(passed, $0), total: $0, label: nil) }
                ?? .label(job: job, label: "\(title): \(NumberText.bytes(passed))")
            if let remote {
                lastSent = now
                remote.report(request)
            }
            if let live = connection {
                lastSent = now
                // A quarter of the budget per update: 50 ms by default, more where HEADWAY_TIMEOUT_MS was raised.
                live.extend(by: client.command.timeout / 4)
                do throws(ServiceConnection.Failure) { _ = try live.send(request) } catch {
                    _ = client.soft(error.message)
                    connection = nil
                }
            }
        }
        if let remote {
            if let size, outcome == .succeeded { remote.update(value: min(passed, size), total: size) }
            remote.finish(outcome)
        }
        if let live = connection {
            live.extend(by: client.command.timeout)
            if let size, outcome == .succeeded { _ = try? live.send(.update(job: job, value: min(passed, size), total: size, label: nil)) }
            do throws(ServiceConnection.Failure) { _ = try live.send(.finish(job: job, outcome: outcome)) } catch { _ = client.soft(error.message) }
        }
        return outcome == .succeeded ? 0 : 1
    }
}
