import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The service's event loop: accepts clients on the socket, reads request lines, answers them,
/// sends events to subscribers, and ticks the core when a frame is due — and only then: with no
/// visible job and no pending phase change the loop sleeps in `poll` without a timeout.
/// SIGTERM and SIGINT stop it, SIGHUP asks for a reload; both arrive through a self-pipe.
public final class ServiceServer {
    public enum StopReason: Sendable { case terminate, reload }

    struct Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var discarding = false  // skipping the rest of an over-long line
    }

    private let core: ServiceCore
    private let listener: Int32
    private let log: (String) -> Void
    private var connections: [Int32: Connection] = [:]
    private var sources: [(fd: Int32, readable: () -> Void)] = []
    private var signals: SignalPipe?
    private let notifier = SystemdNotifier()
    /// Called after every tick (the simulator redraws its terminal here).
    public var afterTick: () -> Void = {}

    public init(core: ServiceCore, listener: Int32, log: @escaping (String) -> Void) {
        self.core = core
        self.listener = listener
        self.log = log
        _ = fcntl(listener, F_SETFL, O_NONBLOCK)
    }

    /// Also watches `fd` (a button's event pipe, say) and calls `readable` when it has data.
    public func watch(_ fd: Int32, readable: @escaping () -> Void) { sources.append((fd, readable)) }

    /// Delivers events to their subscribers (for sources outside the socket, like buttons).
    public func deliver(_ events: [JobEvent]) {
        for event in events {
            for connection in core.subscribers(for: event.job) { send(event.line, to: connection) }
        }
    }

    /// Runs until a signal says stop or reload.
    public func run() -> StopReason {
        let signals = SignalPipe([SIGTERM, SIGINT, SIGHUP])
        self.signals = signals
        notifier.notify("READY=1\nSTATUS=listening")
        var nextWatchdog = notifier.watchdogInterval.map { monotonic() + $0 }
        tickAndReport()
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0)]
            fds += sources.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let order = Array(connections.keys)
            fds += order.map { fd in pollfd(fd: fd, events: Int16(POLLIN) | (connections[fd]!.output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0) }
            var timeout: Double? = core.nextWakeup().map { max(0, $0 - core.clock.now) }
            if let watchdog = nextWatchdog { timeout = min(timeout ?? .infinity, max(0, watchdog - monotonic())) }
            let milliseconds = timeout.map { Int32(min(60_000, ($0 * 1000).rounded(.up))) } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0, errno != EINTR { log("poll failed: \(UnixSocket.describe(errno))") }
            if fds[1].revents != 0, let reason = drainSignals() { return reason }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptClients() }
            for (index, source) in sources.enumerated() where fds[2 + index].revents != 0 { source.readable() }
            for (index, fd) in order.enumerated() {
                let revents = fds[2 + sources.count + index].revents
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readFrom(fd) }
                if revents & Int16(POLLOUT) != 0 { flush(fd) }
            }
            if let due = core.nextWakeup(), due <= core.clock.now + 0.001 { tickAndReport() }
            if let watchdog = nextWatchdog, monotonic() >= watchdog {
                notifier.notify("WATCHDOG=1")
                nextWatchdog = monotonic() + (notifier.watchdogInterval ?? 10)
            }
        }
    }

    private func tickAndReport() {
        let (events, failures) = core.tick()
        for failure in failures { log(failure) }
        deliver(events)
        afterTick()
    }

    private func drainSignals() -> StopReason? {
        var reason: StopReason?
        for number in signals?.drain() ?? [] {
            if number == SIGHUP { reason = reason ?? .reload } else { reason = .terminate }
        }
        return reason
    }

    private func acceptClients() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            connections[fd] = Connection(fd: fd)
        }
    }

    private func readFrom(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while connections[fd] != nil {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                connections[fd]?.input.append(contentsOf: buffer[0..<count])
                processLines(fd)
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EINTR) { disconnect(fd) }
            return
        }
    }

    private func processLines(_ fd: Int32) {
        while let connection = connections[fd] {
            guard let newline = connection.input.firstIndex(of: 0x0A) else {
                if connection.input.count > WireProtocol.maxLineBytes {
                    // Too long to be a request: answer once, drop it up to its newline.
                    if !connection.discarding {
                        queue(Reply.error(ProtocolError(field: nil, "the line is longer than \(WireProtocol.maxLineBytes) bytes")).line, to: fd)
                    }
                    connections[fd]?.discarding = true
                    connections[fd]?.input.removeAll()
                }
                break
            }
            let line = String(decoding: connection.input[..<newline], as: UTF8.self)
            connections[fd]?.input.removeSubrange(...newline)
            if connection.discarding {
                connections[fd]?.discarding = false
                continue
            }
            if line.allSatisfy({ $0 == " " || $0 == "\r" }) { continue }
            let (reply, events) = core.handle(line: line, from: Int(fd))
            queue(reply, to: fd)
            deliver(events)
        }
        flush(fd)
        if let due = core.nextWakeup(), due <= core.clock.now + 0.001 { tickAndReport() }
    }

    private func queue(_ line: String, to fd: Int32) {
        connections[fd]?.output.append(contentsOf: Array((line + "\n").utf8))
    }

    private func send(_ line: String, to connection: Int) {
        let fd = Int32(connection)
        guard connections[fd] != nil else { return }
        queue(line, to: fd)
        flush(fd)
    }

    private func flush(_ fd: Int32) {
        guard var connection = connections[fd], !connection.output.isEmpty else { return }
        let written = connection.output.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written > 0 { connection.output.removeFirst(written) }
        if written < 0, errno != EAGAIN, errno != EINTR {
            disconnect(fd)
            return
        }
        // A client that never reads must not make the daemon grow: drop it past 1 MB of backlog.
        if connection.output.count > 1 << 20 {
            log("dropping a client that does not read its replies")
            disconnect(fd)
            return
        }
        connections[fd] = connection
    }

    private func disconnect(_ fd: Int32) {
        close(fd)
        connections[fd] = nil
        core.disconnected(Int(fd))
    }

    private func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Closes every client; the listener stays open (a reload keeps it).
    public func disconnectClients() {
        notifier.notify("STOPPING=1")
        for fd in Array(connections.keys) { disconnect(fd) }
        signals?.close()
        signals = nil
    }
}
