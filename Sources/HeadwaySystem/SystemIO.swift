#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The C functions whose names the members below reuse, reached from file scope (where the names
// still mean the C library's, whichever C library it is).
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func cSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { send(fd, buffer, count, Int32(MSG_NOSIGNAL)) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags | O_CLOEXEC) }
private func cPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: Int, _ timeout: Int32) -> Int32 { poll(fds, nfds_t(count), timeout) }
private func cPipe(_ fds: inout [Int32]) -> Int32 { pipe(&fds) }

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

/// How a file is opened, or what access to it is asked about.
package enum FileAccess: Sendable {
    case read, write, readWrite
}

/// The system calls on file descriptors every event loop of the project needs — the client's, the
/// service's, the simulator's and the buses' — with errors as values, and the process's
/// environment.
public enum SystemIO {
    /// What a read gave.
    package enum ReadResult: Equatable {
        /// This many bytes were read.
        case bytes(Int)
        /// Nothing to read now.
        case wouldBlock
        /// The peer closed: nothing more will come.
        case end
        /// The read failed.
        case failed(SystemError)
    }

    /// What a write did.
    package enum WriteResult: Equatable {
        /// This many bytes were taken.
        case written(Int)
        /// The descriptor is full: try again when it is writable.
        case wouldBlock
        /// The write failed (EPIPE: the peer is gone).
        case failed(SystemError)
    }

    package static let standardInput: Int32 = STDIN_FILENO
    package static let standardOutput: Int32 = STDOUT_FILENO
    package static let standardError: Int32 = STDERR_FILENO

    /// Opens `path` (a device node, a file) for `access`, not inherited by programs started later;
    /// -1 with ``SystemError/last`` set on failure.
    package static func open(_ path: String, for access: FileAccess) -> Int32 {
        switch access {
        case .read: cOpen(path, O_RDONLY)
        case .write: cOpen(path, O_WRONLY)
        case .readWrite: cOpen(path, O_RDWR)
        }
    }

    /// Reads up to `buffer.count` bytes.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(SystemError(code))
            }
        }
    }

    /// Writes as much of `bytes` as the descriptor takes now.
    package static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> WriteResult {
        written { bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress, $0.count) } }
    }

    /// Writes as much of `bytes` to a socket as it takes now. A peer that went away is an error
    /// (EPIPE), never a SIGPIPE: a library may not kill its program for a closed socket, nor
    /// change how the program handles that signal.
    package static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> WriteResult {
        written { bytes.withUnsafeBytes { cSend(fd, $0.baseAddress, $0.count) } }
    }

    private static func written(_ call: () -> Int) -> WriteResult {
        while true {
            let count = call()
            if count >= 0 { return .written(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(SystemError(code))
            }
        }
    }

    /// Writes all of `bytes`, waiting while the descriptor is full; false when it failed (the
    /// reason in ``SystemError/last``): a terminal that went away, a file that takes no more.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
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

    /// Writes `text` to standard error in one call.
    package static func printError(_ text: String) {
        writeAll(standardError, Array(text.utf8)[...])
    }

    /// Waits until one of `descriptors` is ready for what is asked of it, or `timeout` seconds
    /// pass (`nil`: no limit). Returns what each is ready for, in order (all empty on a timeout or
    /// an interrupting signal).
    package static func poll(_ descriptors: [(fd: Int32, wanted: Readiness)], timeout: Double?) -> [Readiness] {
        var fds = descriptors.map { pollfd(fd: $0.fd, events: $0.wanted.rawValue, revents: 0) }
        let milliseconds = timeout.map { Int32(min(3_600_000, max(0, ($0 * 1000).rounded(.up)))) } ?? -1
        let ready = fds.withUnsafeMutableBufferPointer { cPoll($0.baseAddress, $0.count, milliseconds) }
        guard ready > 0 else { return Array(repeating: [], count: fds.count) }
        return fds.map { Readiness(rawValue: $0.revents) }
    }

    /// Closes `fd`.
    package static func close(_ fd: Int32) { _ = cClose(fd) }

    /// Makes `fd` non-blocking and not inherited by programs started later.
    package static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// A pipe whose ends are not inherited by programs started later (a child gets copies through
    /// a spawn's redirections only); non-blocking when asked, for an event loop's wake-ups.
    package static func makePipe(nonBlocking: Bool) throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard cPipe(&fds) == 0 else { throw SystemError.last }
        for fd in fds {
            if nonBlocking { makeNonBlocking(fd) } else { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        return (fds[0], fds[1])
    }

    /// Writes one byte to a wake-up pipe (a full pipe already wakes its reader: nothing is lost).
    package static func poke(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = cWrite(fd, &byte, 1)
    }

    /// Empties the read end of a non-blocking wake-up pipe: wake-ups that came in a row are one.
    package static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ cRead(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// An environment variable, `nil` when unset or empty.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
