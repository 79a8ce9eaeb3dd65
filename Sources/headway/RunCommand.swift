import HeadwayCore
import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `headway run -- CMD ARGS...`: runs CMD with its output passed through unchanged, shows the job
/// as indeterminate until the output contains progress (`42%`, `[3/10]`, `3 of 10` or `--pattern`),
/// forwards SIGINT, SIGTERM and SIGHUP to CMD, stops CMD when the job's button asks for a cancel,
/// and exits with CMD's status. Without a daemon CMD still runs; only the display is missing.
struct RunCommand {
    let client: Client
    let arguments: [String]
    let pattern: String?
    let label: String?

    func run() -> Int32 {
        let job = client.command.job!
        let parser = (try? ProgressParser(pattern: pattern)) ?? (try! ProgressParser())
        var connection = client.connect()
        let title = label ?? String(arguments.joined(separator: " ").prefix(60))
        if let live = connection {
            do throws(DaemonConnection.Failure) {
                _ = try live.send(.begin(job: job, label: title, total: nil))
                _ = try live.send(.subscribe(job: job))
            } catch {
                _ = client.soft(error.message)
                connection = nil
            }
        }

        var output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard pipe(&output) == 0, pipe(&errors) == 0 else {
            printError("headway: cannot create pipes: \(UnixSocket.describe(errno))")
            return 125
        }
        // Signals for us are forwarded to CMD.
        let signals = SignalPipe([SIGINT, SIGTERM, SIGHUP])

        guard let pid = spawn(output: output[1], errors: errors[1]) else {
            let code = errno
            printError("headway: cannot run \(arguments[0]): \(UnixSocket.describe(code))")
            _ = try? connection?.send(.finish(job: job, outcome: .failed))
            return code == ENOENT ? 127 : 126
        }
        close(output[1])
        close(errors[1])

        var streams: [(fd: Int32, to: Int32, pending: [UInt8])] = [(output[0], STDOUT_FILENO, []), (errors[0], STDERR_FILENO, [])]
        var lastSent: (time: Double, value: Double, total: Double)?
        var cancelRequested = false
        var killAt: Double?
        var warnedRefusal = false

        while !streams.isEmpty {
            var fds = streams.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            fds.append(pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0))
            if let connection { fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
            let timeout: Int32 = killAt.map { Int32(max(0, ($0 - DaemonConnection.now()) * 1000)) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno == EINTR { continue }
            if let deadline = killAt, DaemonConnection.now() >= deadline {
                kill(pid, SIGKILL)
                killAt = nil
            }
            if fds[streams.count].revents != 0 {
                for number in signals.drain() { kill(pid, number) }
            }
            // Events and replies from the daemon.
            if let live = connection, fds.count > streams.count + 1, fds[streams.count + 1].revents != 0 {
                do throws(DaemonConnection.Failure) {
                    repeat {
                        let line = try live.readLine(until: DaemonConnection.now() + 0.05)
                        if let event = JobEvent.parse(line), event.kind == .cancelRequested, !cancelRequested {
                            cancelRequested = true
                            printError("headway: cancel requested for \(job); stopping \(arguments[0])")
                            kill(pid, SIGTERM)
                            killAt = DaemonConnection.now() + 5
                        } else if case .error(let error)? = Reply.parse(line), !warnedRefusal {
                            warnedRefusal = true
                            printError("headway: warning: the daemon refused an update: \(error)")
                        }
                    } while live.hasBufferedLine
                } catch {
                    _ = client.soft(error.message)
                    connection = nil
                }
            }
            // CMD's output: passed through, scanned for progress.
            var index = 0
            while index < streams.count {
                guard fds[index].revents != 0 else {
                    index += 1
                    continue
                }
                var chunk = [UInt8](repeating: 0, count: 16384)
                let count = read(streams[index].fd, &chunk, chunk.count)
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { index += 1; continue }
                    close(streams[index].fd)
                    streams.remove(at: index)
                    fds.remove(at: index)
                    continue
                }
                writeAll(streams[index].to, chunk[0..<count])
                streams[index].pending.append(contentsOf: chunk[0..<count])
                // Lines end with \n, or \r for progress bars that redraw in place.
                while let end = streams[index].pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                    let line = String(decoding: streams[index].pending[..<end], as: UTF8.self)
                    streams[index].pending.removeSubrange(...end)
                    guard let (value, total) = parser.progress(in: line[...]) else { continue }
                    let now = DaemonConnection.now()
                    let changed = lastSent.map { $0.value != value || $0.total != total } ?? true
                    let due = lastSent.map { now - $0.time >= 0.1 || value >= total } ?? true
                    if changed, due, let live = connection {
                        live.extend(by: 0.05)
                        do throws(DaemonConnection.Failure) {
                            try live.write(Request.update(job: job, value: min(value, total), total: total, label: nil).line + "\n")
                            lastSent = (now, value, total)
                        } catch {
                            _ = client.soft(error.message)
                            connection = nil
                        }
                    }
                }
                if streams[index].pending.count > 65536 { streams[index].pending.removeAll() }
                index += 1
            }
        }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitCode: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let outcome: Outcome = cancelRequested ? .cancelled : exitCode == 0 ? .succeeded : .failed
        if let live = connection {
            live.extend(by: client.command.timeout)
            do throws(DaemonConnection.Failure) { _ = try live.send(.finish(job: job, outcome: outcome)) } catch { _ = client.soft(error.message) }
        }
        return exitCode
    }

    /// Starts CMD with its stdout and stderr on the given pipe ends; `nil` with errno set on failure.
    private func spawn(output: Int32, errors: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // CMD gets the default signal handling, not ours.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard result == 0 else {
            errno = result
            return nil
        }
        return pid
    }
}

/// Writes all of `bytes` to `fd` (output passed through must not be lost to short writes).
func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) {
    var rest = bytes
    while !rest.isEmpty {
        let written = rest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written > 0 { rest = rest.dropFirst(written) } else if errno != EINTR && errno != EAGAIN { return }
    }
}
