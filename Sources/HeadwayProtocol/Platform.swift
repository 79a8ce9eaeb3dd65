// Every call into the C library that HeadwayProtocol makes is in this file (as in
// swift-argument-parser's Platform.swift): the rest of the target is plain Swift.
import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The C functions whose names the types below reuse, reached from file scope (where the names
// still mean the C library's, whichever C library it is).
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cOpenForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
private func cPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: Int, _ timeout: Int32) -> Int32 { poll(fds, nfds_t(count), timeout) }
private func cConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }

/// What `poll` says of a file descriptor.
public struct Readiness: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// There is something to read (or the peer closed).
    public static let readable = Readiness(rawValue: Int16(POLLIN))
    /// There is room to write.
    public static let writable = Readiness(rawValue: Int16(POLLOUT))
    /// The peer hung up.
    public static let hangUp = Readiness(rawValue: Int16(POLLHUP))
    /// An error, or a descriptor that is not open.
    public static let failed = Readiness(rawValue: Int16(POLLERR | POLLNVAL))
}

/// The few system calls every event loop of the project needs — the client's, the service's and
/// the simulator's — with errors as values.
public enum SystemIO {
    /// What a read gave.
    public enum ReadResult: Equatable {
        /// This many bytes were read.
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed: nothing more will come.
        case end
        /// The read failed with this error number.
        case failed(Int32)
    }

    /// What a write did.
    public enum WriteResult: Equatable {
        /// This many bytes were taken.
        case written(Int)
        /// The descriptor is full: try again when it is writable.
        case wouldBlock
        /// The write failed with this error number (EPIPE: the peer is gone).
        case failed(Int32)
    }

    /// Reads up to `buffer.count` bytes.
    public static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }

    /// Writes as much of `bytes` as the descriptor takes now.
    public static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> WriteResult {
        while true {
            let count = bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return .written(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }

    /// Writes all of `bytes`, waiting while the descriptor is full; false when it failed.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            switch write(fd, rest) {
            case .written(let count): rest = rest.dropFirst(count)
            case .wouldBlock: _ = poll([(fd, .writable)], timeout: nil)
            case .failed: return false
            }
        }
        return true
    }

    /// Waits until one of `descriptors` is ready for what is asked of it, or `timeout` seconds
    /// pass (`nil`: no limit). Returns what each is ready for, in order (all empty on a timeout or
    /// an interrupting signal).
    public static func poll(_ descriptors: [(fd: Int32, wanted: Readiness)], timeout: Double?) -> [Readiness] {
        var fds = descriptors.map { pollfd(fd: $0.fd, events: $0.wanted.rawValue, revents: 0) }
        let milliseconds = timeout.map { Int32(min(3_600_000, max(0, ($0 * 1000).rounded(.up)))) } ?? -1
        let ready = fds.withUnsafeMutableBufferPointer { cPoll($0.baseAddress, $0.count, milliseconds) }
        guard ready > 0 else { return Array(repeating: [], count: fds.count) }
        return fds.map { Readiness(rawValue: $0.revents) }
    }

    /// Closes `fd`.
    public static func close(_ fd: Int32) { _ = cClose(fd) }

    /// Makes `fd` non-blocking and not inherited by programs started later.
    public static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// The C library's text for an error number, with the number.
    public static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }

    /// The calling thread's last error number.
    public static var lastError: Int32 { errno }

    /// An environment variable, `nil` when unset or empty.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// Writes `text` to standard error in one call.
    public static func printError(_ text: String) {
        writeAll(STDERR_FILENO, Array(text.utf8)[...])
    }

    static var userID: UInt32 { getuid() }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The whole file at `path`, nil when it cannot be read.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = cOpenForReading(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    // MARK: - Unix sockets

    /// `path` as a `sockaddr_un`, or nil when it is too long for one.
    public static func socketAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }

    /// The longest socket path a `sockaddr_un` holds, in bytes.
    public static var maxSocketPath: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// A non-blocking stream socket connected (or connecting: `EINPROGRESS`) to `address`.
    static func connect(_ address: sockaddr_un) -> (fd: Int32, inProgress: Bool)? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result == 0 { return (fd, false) }
        let code = errno
        if code == EINPROGRESS || code == EAGAIN { return (fd, true) }
        _ = cClose(fd)
        errno = code
        return nil
    }

    // MARK: - Signals

    /// Routes `signals` to the pipe `fd` — two bytes each: the number, and 1 when the kernel sent it
    /// (a terminal's Ctrl-C) rather than a process — unblocking them (a parent may have started us
    /// with them blocked), and ignores SIGPIPE.
    static func routeSignals(_ signals: [Int32], toPipe fd: Int32) {
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in signals {
            // The handler is C: one in Swift instantiated generic metadata under a runtime lock and
            // deadlocked when a signal arrived while that lock (or the allocator's) was held.
            hw_route_signal_to_pipe(number, fd)
            sigaddset(&handled, number)
        }
        signal(SIGPIPE, SIG_IGN)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// A non-blocking, close-on-exec pipe.
    static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { makeNonBlocking(fd) }
        return (fds[0], fds[1])
    }
}

/// Signal numbers, so that no other file needs the C library's names.
public enum SignalNumber {
    /// SIGINT: Ctrl-C.
    public static let interrupt = SIGINT
    /// SIGTERM: asked to end.
    public static let terminate = SIGTERM
    /// SIGHUP: the terminal went away (the service: reload).
    public static let hangUp = SIGHUP
    /// SIGKILL: ended at once.
    public static let kill = SIGKILL
    /// SIGSTOP: stopped until continued.
    public static let stop = SIGSTOP
    /// SIGCONT: continued.
    public static let `continue` = SIGCONT
}
