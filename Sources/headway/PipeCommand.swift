import HeadwayCore
import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `headway pipe [--size BYTES]`: copies stdin to stdout, like pv, reporting the bytes that passed
/// (of `--size` when given; otherwise the job stays indeterminate and its label counts the bytes).
struct PipeCommand {
    let client: Client
    let size: Double?
    let label: String?

    func run() -> Int32 {
        let job = client.command.job!
        var connection = client.connect()
        let title = label ?? "pipe"
        do throws(DaemonConnection.Failure) {
            _ = try connection?.send(.begin(job: job, label: title, total: size))
        } catch {
            _ = client.soft(error.message)
            connection = nil
        }
        signal(SIGPIPE, SIG_IGN)
        var passed = 0.0
        var lastSent = -Double.infinity
        var buffer = [UInt8](repeating: 0, count: 65536)
        var outcome = Outcome.succeeded
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                printError("headway: reading stdin: \(UnixSocket.describe(errno))")
                outcome = .failed
                break
            }
            if count == 0 { break }
            var rest = buffer[0..<count]
            var failed = false
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                if written > 0 { rest = rest.dropFirst(written) } else if errno != EINTR { failed = true; break }
            }
            if failed {
                printError("headway: writing stdout: \(UnixSocket.describe(errno))")
                outcome = .failed
                break
            }
            passed += Double(count)
            let now = DaemonConnection.now()
            if now - lastSent >= 0.1, let live = connection {
                lastSent = now
                live.extend(by: 0.05)
                let request: Request = size.map { .update(job: job, value: min(passed, $0), total: $0, label: nil) }
                    ?? .label(job: job, label: "\(title): \(Self.bytes(passed))")
                do throws(DaemonConnection.Failure) { _ = try live.send(request) } catch {
                    _ = client.soft(error.message)
                    connection = nil
                }
            }
        }
        if let live = connection {
            live.extend(by: client.command.timeout)
            if let size, outcome == .succeeded { _ = try? live.send(.update(job: job, value: min(passed, size), total: size, label: nil)) }
            do throws(DaemonConnection.Failure) { _ = try live.send(.finish(job: job, outcome: outcome)) } catch { _ = client.soft(error.message) }
        }
        return outcome == .succeeded ? 0 : 1
    }

    static func bytes(_ count: Double) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = count
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return "\(NumberText.compact((value * 10).rounded() / 10)) \(units[unit])"
    }
}
