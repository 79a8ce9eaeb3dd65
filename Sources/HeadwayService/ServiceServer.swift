import Headway
import HeadwayProtocol
import HeadwaySystem

/// The service's event loop: accepts clients on the socket, reads request lines, answers them,
/// sends events to subscribers, and ticks the core when a frame is due — and only then: with no
/// visible job, no pending phase change and no client, it sleeps in `poll` without a timeout.
///
/// It stays fair under load. Each round reads at most ``Limits/readChunk`` bytes from a connection
/// and answers at most ``Limits/linesPerRound`` of its lines before the others, the frame clock and
/// the systemd watchdog get their turn. A connection is read from again only once what was read
/// from it is answered and its replies are being taken (back-pressure both ways: neither its input
/// nor its output grows without bound), and one silent for ``Limits/idleTimeout`` without following
/// any job is closed. At most ``Limits/connectionLimit`` clients are connected, and
/// ``Limits/connectionsPerUser`` of one user; one more is told so and closed. The reply to a
/// request that began or ended a job is held until the journal has it on disk (and what follows
/// it on that connection behind it), so that "ok" means the job survives a crash — for at most
/// ``Limits/durableWait``: a disk slower than that (an SD card that stalls) must not make a
/// hook give up on the service, whose budget is 200 ms; the entry is on disk a moment later.
/// When the process runs out of file descriptors, accepting pauses briefly instead of spinning.
public final class ServiceServer {
    /// The limits of docs/protocol.md.
    public enum Limits {
        /// Clients connected at once.
        public static let connectionLimit = 128
        /// Connections one user (by the kernel's credentials) may hold at once.
        public static let connectionsPerUser = 64
        /// Bytes read from one connection in one round of the loop.
        public static let readChunk = 64 * 1024
        /// Lines answered for one connection in one round.
        public static let linesPerRound = 256
        /// Unsent replies beyond which a connection is not read from.
        public static let backlogLimit = 256 * 1024
        /// How long a connection following no job may stay silent, in seconds.
        public static let idleTimeout: Seconds = 60
        /// The longest a reply waits for the journal to be on disk, in seconds.
        public static let durableWait: Seconds = 0.1
    }

    struct Connection {
        let fd: Int32
        let peer: Peer
        var framer = LineFramer(maxLineBytes: WireProtocol.maxLineBytes)
        var output = OutputQueue()
        /// Lines waiting for the journal entry numbered with them (0: behind one that does), and
        /// since when.
        var held: [(entry: Int, line: String, since: Seconds)] = []
        var heldBytes = 0
        var lastProgress: Seconds
        var pending: Int { output.pending + heldBytes }
    }

    /// Another descriptor the loop watches (a button's events, a watched process, the system bus):
    /// `ready` is called when it is ready for what is wanted, or its deadline has come. A source
    /// with no descriptor (-1) is called at its deadline only.
    public struct Source {
        /// The descriptor.
        public let fd: Int32
        /// What it is watched for.
        public let wanted: Readiness
        /// When it is called even if not ready (nil: only when ready).
        public let deadline: Seconds?
        /// Called when it is ready, or at its deadline.
        public let ready: () -> Void

        /// A source of `fd` (-1: none) watched for `wanted`, handled by `ready`.
        public init(fd: Int32, wanted: Readiness = .readable, deadline: Seconds? = nil, ready: @escaping () -> Void) {
            self.fd = fd
            self.wanted = wanted
            self.deadline = deadline
            self.ready = ready
        }
    }

    /// What answers request lines.
    public var handler: LineHandler
    /// The core it serves.
    public let core: ServiceCore
    private let listener: Int32
    private let logger: ServiceLogger
    private let clock: any ProgressClock
    private var connections: [Int32: Connection] = [:]
    private var acceptPausedUntil: Seconds?
    /// Warnings that repeat while a condition lasts (no descriptor left, clients that do not
    /// read) are written once a minute at most, with how many more there were.
    private var repeats = LogLimiter()
    private var readBuffer = [UInt8](repeating: 0, count: Limits.readChunk)
    private let notifier = SystemdNotifier()
    /// Called after every tick (the simulator redraws its terminal here).
    public var afterTick: () -> Void = {}
    /// Called on SIGHUP (reload); the loop goes on.
    public var onReload: () -> Void = {}
    /// Extra descriptors to watch, asked for on every round.
    public var sources: () -> [Source] = { [] }
    /// The service runs in a terminal: a SIGHUP after its terminal is gone (closed, hung up) stops
    /// it; while the terminal is there, SIGHUP reloads as it does for the daemon.
    public var runsInTerminal = false

    /// A server of `core` on the listening socket `listener`.
    public init(core: ServiceCore, listener: Int32, logger: ServiceLogger, handler: LineHandler? = nil) {
        self.core = core
        self.handler = handler ?? core
        self.listener = listener
        self.logger = logger
        clock = core.clock
        SystemIO.makeNonBlocking(listener)
    }

    /// Tells systemd the service is running, with `status` for `systemctl status`.
    public func ready(status: String) {
        notifier.notify("READY=1\nSTATUS=" + DisplayText.sanitised(status))
    }

    /// Shows `text` in `systemctl status` (a reload that failed, say).
    public func status(_ text: String) { notifier.status(text) }

    /// Tells systemd a reload has begun (it is over at the next ``ready(status:)``).
    public func reloading() {
        let microseconds = UInt64(MonotonicClock().now * 1_000_000)
        notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }

    /// Runs until SIGTERM or SIGINT; SIGHUP calls ``onReload`` and goes on.
    public func run() {
        let signals = SignalPipe([SignalNumber.terminate, SignalNumber.interrupt, SignalNumber.hangUp])
        defer { signals.close() }
        var nextWatchdog = notifier.watchdogInterval.map { clock.now + $0 }
        tickAndReport()
        while true {
            let now = clock.now
            let accepting = acceptPausedUntil.map { now >= $0 } ?? true
            if accepting { acceptPausedUntil = nil }
            let processes = core.processDescriptors.map { process in
                Source(fd: process.fd) { [unowned self] in deliver(core.processEnded(process.pid)) }
            }
            let extra = sources() + processes
            let order = Array(connections.keys)
            var watched: [(fd: Int32, wanted: Readiness)] = [(listener, accepting ? .readable : []), (signals.readEnd, .readable)]
            watched += extra.map { ($0.fd, $0.wanted) }
            var buffered = false
            for fd in order {
                let connection = connections[fd]!
                // Read more only when what was read is answered and the replies are being taken.
                var wanted: Readiness = connection.pending < Limits.backlogLimit && connection.framer.buffered < Limits.readChunk ? .readable : []
                if connection.pending > 0 { wanted.insert(.writable) }
                watched.append((fd, wanted))
                if connection.framer.hasCompleteLine, connection.pending < Limits.backlogLimit { buffered = true }
            }
            let journal = core.journalWake
            if let journal { watched.append((journal, .readable)) }
            var deadlines = [core.nextWakeup(), nextWatchdog, acceptPausedUntil, idleDeadline(), heldDeadline()].compactMap { $0 } + extra.compactMap(\.deadline)
            if buffered { deadlines.append(now) }  // lines read but not answered yet: no sleeping
            let ready = SystemIO.poll(watched, timeout: deadlines.min().map { max(0, $0 - now) })
            if !ready[1].isEmpty {
                var stop = false
                for signal in signals.drain() {
                    if signal.number == SignalNumber.hangUp, !runsInTerminal || Terminal.hasControllingTerminal { onReload() } else { stop = true }
                }
                if stop { return }
            }
            if ready[0].contains(.readable) { acceptClients() }
            let afterPoll = clock.now
            var ended: [Source] = []
            for (index, source) in extra.enumerated() where !ready[2 + index].isEmpty || source.deadline.map({ afterPoll >= $0 }) == true {
                if index >= extra.count - processes.count { ended.append(source) } else { source.ready() }
            }
            for (index, fd) in order.enumerated() {
                let readiness = ready[2 + extra.count + index]
                if !readiness.isDisjoint(with: [.readable, .hangUp, .failed]) { readOnce(fd) }
                if readiness.contains(.writable) { flush(fd) }
            }
            if journal != nil, ready.last?.isEmpty == false { core.journalWoken() }
            if heldDeadline() != nil { releaseHeldReplies() }
            // Clients accepted this round are read at once: what they sent may be there already.
            for fd in connections.keys where !order.contains(fd) { readOnce(fd) }
            for fd in Array(connections.keys) { answer(fd) }
            // A process's end is taken after what was sent before it ended: `headway run` sends its
            // outcome and exits, a hook's `done` comes just before its runner ends, and the service
            // may find both in one poll. Taken first, the end would fail a job that reported how
            // it went.
            for source in ended { source.ready() }
            if let due = core.nextWakeup(), due <= clock.now + 0.001 { tickAndReport() }
            if let watchdog = nextWatchdog, clock.now >= watchdog {
                notifier.notify("WATCHDOG=1")
                nextWatchdog = clock.now + (notifier.watchdogInterval ?? 10)
            }
            closeIdleConnections()
        }
    }

    /// Ticks the core now: its events delivered, then `afterTick`.
    func tickAndReport() {
        let (events, failures) = core.tick()
        for failure in failures { logger.warning("\(failure)") }
        deliver(events)
        afterTick()
    }

    /// Delivers events to their subscribers (for sources outside the socket, like buttons).
    public func deliver(_ events: [JobEvent]) {
        for event in events {
            for connection in core.subscribers(for: event.job) { send(event.line, to: Int32(connection)) }
        }
    }

    // MARK: - Connections

    private func acceptClients() {
        for _ in 0..<64 {
            switch UnixSocket.accept(listener) {
            case .none:
                return
            case .outOfDescriptors:
                // Nothing can be accepted until a descriptor is freed: stop asking for a moment
                // instead of waking up for the same full queue again and again.
                if acceptPausedUntil == nil { warnRepeated("out of file descriptors; not accepting clients for 0.25 s", kind: "descriptors") }
                acceptPausedUntil = clock.now + 0.25
                return
            case .failed(let error):
                warnRepeated("accepting a client failed: \(error)", kind: "accept")
                return
            case .connection(let fd, let peer):
                let credentials = peer.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
                // One user may hold half of the connections (subscribers included): no local user
                // can refuse another's hooks by holding them all, and a CI runner's user still runs
                // dozens of jobs side by side under `headway run`.
                let users = connections.values.count(where: { $0.peer.credentials?.uid == credentials?.uid })
                let refusal = users >= Limits.connectionsPerUser
                    ? "too many connections from your user (\(Limits.connectionsPerUser)), the service's limit per user; close some or try again shortly"
                    : connections.count >= Limits.connectionLimit ? "too many connections (\(Limits.connectionLimit)), the service's limit; try again shortly" : nil
                if let refusal {
                    _ = SystemIO.write(fd, Array((Reply.error(ProtocolError(.busy, field: nil, refusal)).line + "\n").utf8)[...])
                    SystemIO.close(fd)
                    continue
                }
                connections[fd] = Connection(fd: fd, peer: Peer(connection: ConnectionID(fd), credentials: credentials), lastProgress: clock.now)
            }
        }
    }

    /// Reads what one read gives (at most ``Limits/readChunk`` bytes).
    private func readOnce(_ fd: Int32) {
        guard var connection = connections[fd] else { return }
        switch SystemIO.read(fd, into: &readBuffer) {
        case .bytes(let count):
            connection.framer.append(readBuffer[0..<count])
            connection.lastProgress = clock.now
            connections[fd] = connection
        case .wouldBlock:
            break
        case .end, .failed:
            // Answer what arrived before the end, then close.
            connections[fd] = connection
            answer(fd)
            flush(fd)
            disconnect(fd)
        }
    }

    /// Answers up to ``Limits/linesPerRound`` complete lines of connection `fd`, one reply each.
    private func answer(_ fd: Int32) {
        var answered = 0
        while answered < Limits.linesPerRound, let connection = connections[fd], connection.pending < Limits.backlogLimit {
            guard let item = connections[fd]?.framer.next() else { break }
            answered += 1
            switch item {
            case .overlong(let bytes):
                let error = ProtocolError(.lineTooLong, field: nil, "the line is longer than \(WireProtocol.maxLineBytes) bytes (at least \(bytes)); it was skipped")
                queue(Reply.error(error).line, to: fd)
            case .line(let line):
                let journaled = core.journalAppended
                let (reply, events) = handler.handle(line: line, from: connection.peer)
                let entry = core.journalAppended
                queue(reply, to: fd, after: entry > journaled ? entry : 0)
                deliver(events)
            }
        }
        if answered > 0 {
            flush(fd)
            if let due = core.nextWakeup(), due <= clock.now + 0.001 { tickAndReport() }
        }
    }

    private func warnRepeated(_ text: String, kind: String) {
        if let line = repeats.admit(text, kind: kind, at: clock.now) { logger.warning(line) }
    }

    /// Queues `line` for `fd`, held until journal entry `entry` is durable and behind any line
    /// held before it.
    private func queue(_ line: String, to fd: Int32, after entry: Int = 0) {
        guard var connection = connections[fd] else { return }
        if !connection.held.isEmpty || entry > core.journalDurable {
            connection.held.append((entry, line, clock.now))
            connection.heldBytes += line.utf8.count + 1
            connections[fd] = connection
        } else {
            connections[fd]?.output.append(line)
        }
        // Events keep coming to a subscriber that never reads: past this, it is let go.
        if let pending = connections[fd]?.pending, pending > 16 * Limits.backlogLimit {
            warnRepeated("dropping a client (pid \(connections[fd]?.peer.credentials.map { String($0.pid) } ?? "?")) that does not read what it is sent", kind: "unread")
            disconnect(fd)
        }
    }

    /// Queues the held lines whose journal entries are now durable, or that have waited
    /// ``Limits/durableWait``, in order.
    private func releaseHeldReplies() {
        let durable = core.journalDurable, now = clock.now
        for fd in Array(connections.keys) where connections[fd]?.held.isEmpty == false {
            guard var connection = connections[fd] else { continue }
            let ready = connection.held.prefix { $0.entry <= durable || now - $0.since >= Limits.durableWait }.count
            guard ready > 0 else { continue }
            for (_, line, _) in connection.held.prefix(ready) {
                connection.output.append(line)
                connection.heldBytes -= line.utf8.count + 1
            }
            connection.held.removeFirst(ready)
            connections[fd] = connection
            flush(fd)
        }
    }

    private func send(_ line: String, to fd: Int32) {
        guard connections[fd] != nil else { return }
        queue(line, to: fd)
        flush(fd)
    }

    private func flush(_ fd: Int32) {
        guard var connection = connections[fd], connection.pending > 0 else { return }
        // Taken out while it is written to, so that the queue is not copied.
        connections[fd] = nil
        let result = connection.output.write(to: fd)
        connections[fd] = connection
        switch result {
        case .written(let count):
            if count > 0 { connection.lastProgress = clock.now }
            connections[fd] = connection
        case .wouldBlock:
            break
        case .failed:
            disconnect(fd)
        }
    }

    private func disconnect(_ fd: Int32) {
        guard connections.removeValue(forKey: fd) != nil else { return }
        SystemIO.close(fd)
        deliver(core.disconnected(ConnectionID(fd)))
    }

    /// When the first reply held for the journal goes whether or not it is on disk.
    private func heldDeadline() -> Seconds? {
        connections.values.compactMap { $0.held.first.map { $0.since + Limits.durableWait } }.min()
    }

    /// When the first connection that follows no job will have been silent too long.
    private func idleDeadline() -> Seconds? {
        connections.values.filter { !core.isSubscribed($0.peer.connection) }.map { $0.lastProgress + Limits.idleTimeout }.min()
    }

    private func closeIdleConnections() {
        let now = clock.now
        for (fd, connection) in connections where now - connection.lastProgress >= Limits.idleTimeout && !core.isSubscribed(connection.peer.connection) {
            disconnect(fd)
        }
    }

    /// Closes every client; the listener stays open.
    public func disconnectClients() {
        notifier.notify("STOPPING=1")
        for fd in Array(connections.keys) { disconnect(fd) }
    }
}
