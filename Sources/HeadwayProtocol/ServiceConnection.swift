import HeadwayCore
import HeadwaySystem

/// A client's connection to the service, with a deadline: every call gives up when the time
/// budget it was opened with runs out, so a hook never hangs on an absent or stuck service.
/// Events that arrive while a reply is awaited are kept for ``nextEvent()``.
public final class ServiceConnection {
    /// Why the connection gave up: the service absent, silent past the deadline, or gone.
    public struct Failure: Error, CustomStringConvertible {
        /// What happened, naming the socket.
        public let message: String
        public var description: String { message }
    }

    /// The connected socket (non-blocking), for a caller's own poll(2).
    public let fd: Int32
    /// The socket's path.
    public let path: String
    private var framer = LineFramer(maxLineBytes: WireProtocol.maxReplyBytes)
    private var deadline: Double
    private var events: [JobEvent] = []
    private let clock = MonotonicClock()

    /// Connects to `path`, giving up after `budget` seconds.
    public init(path: String, budget: Double) throws(Failure) {
        self.path = path
        deadline = clock.now + budget
        guard let address = UnixSocket.address(path) else {
            throw Failure(message: "socket path \(path) is longer than \(UnixSocket.maxPathBytes) bytes")
        }
        let (fd, inProgress): (Int32, Bool)
        do throws(SystemError) { (fd, inProgress) = try UnixSocket.connect(address) } catch {
            throw Failure(message: "cannot connect to \(path): \(error)")
        }
        self.fd = fd
        if inProgress {
            guard !SystemIO.poll([(fd, .writable)], timeout: budget)[0].isEmpty else {
                SystemIO.close(fd)
                throw Failure(message: "timed out connecting to \(path)")
            }
        }
    }

    deinit { SystemIO.close(fd) }

    /// Gives the connection a new budget from now (long-running commands between exchanges).
    public func extend(by budget: Double) { deadline = clock.now + budget }

    /// Sends `request` and waits for its reply (events that arrive first are kept).
    public func send(_ request: Request) throws(Failure) -> Reply {
        try write(request.line + "\n")
        return try awaitReply()
    }

    /// Waits for the next reply line; events that arrive first are kept.
    public func awaitReply() throws(Failure) -> Reply {
        while true {
            let line = try readLine(until: deadline)
            if let reply = Reply.parse(line) { return reply }
            if let event = JobEvent.parse(line) { events.append(event) }
        }
    }

    /// The oldest event received and not yet taken.
    public func nextEvent() -> JobEvent? { events.isEmpty ? nil : events.removeFirst() }

    /// Writes `text` whole, waiting while the socket is full, until the deadline.
    public func write(_ text: String) throws(Failure) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            switch SystemIO.write(fd, bytes) {
            case .written(let count): bytes = bytes.dropFirst(count)
            case .wouldBlock: try wait(for: .writable, until: deadline)
            case .failed(let error): throw Failure(message: "lost the connection to \(path): \(error)")
            }
        }
    }

    /// Reads whatever the service has sent, without waiting, and keeps the events for
    /// ``nextEvent()`` (for a client that waits on its own poll(2) for several descriptors).
    public func receiveEvents() throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            switch framer.next() {
            case .line(let line):
                if let event = JobEvent.parse(line) { events.append(event) }
                continue
            case .overlong(let bytes): throw Failure(message: "the service at \(path) sent a line of more than \(bytes) bytes")
            case nil: break
            }
            switch SystemIO.read(fd, into: &buffer) {
            case .bytes(let count): framer.append(buffer[0..<count])
            case .wouldBlock: return
            case .end: throw Failure(message: "the service at \(path) closed the connection")
            case .failed(let error): throw Failure(message: "lost the connection to \(path): \(error)")
            }
        }
    }

    /// Every complete line the service has sent so far — replies and events alike, in order —
    /// read without waiting (for a client that keeps several requests in flight on its own
    /// poll(2), such as HeadwayClient's reporting thread). Throws when the connection is gone.
    public func availableLines() throws(Failure) -> [String] {
        var lines: [String] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            switch framer.next() {
            case .line(let line):
                lines.append(line)
                continue
            case .overlong(let bytes): throw Failure(message: "the service at \(path) sent a line of more than \(bytes) bytes")
            case nil: break
            }
            switch SystemIO.read(fd, into: &buffer) {
            case .bytes(let count): framer.append(buffer[0..<count])
            case .wouldBlock: return lines
            case .end:
                if lines.isEmpty { throw Failure(message: "the service at \(path) closed the connection") }
                return lines
            case .failed(let error): throw Failure(message: "lost the connection to \(path): \(error)")
            }
        }
    }

    /// Whether a complete line has already been received.
    public var hasBufferedLine: Bool { framer.hasCompleteLine }

    /// The next line from the service, waiting until `limit` (or for ever when `limit` is nil).
    public func readLine(until limit: Double?) throws(Failure) -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            switch framer.next() {
            case .line(let line): return line
            case .overlong(let bytes): throw Failure(message: "the service at \(path) sent a line of more than \(bytes) bytes")
            case nil: break
            }
            switch SystemIO.read(fd, into: &buffer) {
            case .bytes(let count): framer.append(buffer[0..<count])
            case .wouldBlock: try wait(for: .readable, until: limit)
            case .end: throw Failure(message: "the service at \(path) closed the connection")
            case .failed(let error): throw Failure(message: "lost the connection to \(path): \(error)")
            }
        }
    }

    private func wait(for readiness: Readiness, until limit: Double?) throws(Failure) {
        let timeout = limit.map { max(0, $0 - clock.now) }
        if SystemIO.poll([(fd, readiness)], timeout: timeout)[0].isEmpty, timeout != nil, let limit, clock.now >= limit {
            throw Failure(message: "the service at \(path) did not answer in time")
        }
    }
}
