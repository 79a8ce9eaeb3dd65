// Every call into the C library that HeadwayClient makes beyond HeadwayProtocol's SystemIO is in
// this file: the reporting thread, the pipe that wakes it, and this process's id.
import HeadwayProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cPipe(_ fds: inout [Int32]) -> Int32 { pipe(&fds) }
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func cSend(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { send(fd, buffer, count, Int32(MSG_NOSIGNAL)) }

enum Platform {
    /// This process's id: the service watches it, so a job fails when its program dies.
    static var processID: Int32 { getpid() }

    /// Runs `body` on a thread of its own (a detached POSIX thread), outside Swift's concurrency
    /// pool: the reporting thread waits in poll(2), which must never hold up a pool thread.
    static func startThread(_ body: @escaping @Sendable () -> Void) {
        let started = startedThread(body)
        precondition(started == 0, "cannot start HeadwayClient's reporting thread (pthread_create: \(started))")
    }

    /// Runs `body` on a detached thread of its own; pthread_create's answer (0: started).
    static func startedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<AnyObject>.fromOpaque(context).release()
            return started
        }
        pthread_detach(thread)
        return 0
    }

    /// A non-blocking, close-on-exec pipe: writing a byte wakes the thread polling its read end.
    static func wakePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(cPipe(&fds) == 0, "cannot make HeadwayClient's wake-up pipe (errno \(errno))")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// Writes one byte to a wake-up pipe (a full pipe already wakes its reader: nothing is lost).
    static func poke(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = cWrite(fd, &byte, 1)
    }

    /// Writes as much of `bytes` to a socket as it takes now. A peer that went away is an error
    /// (EPIPE), never a SIGPIPE: a library may not kill its program for a closed socket, nor
    /// change how the program handles that signal.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> SystemIO.WriteResult {
        while true {
            let count = bytes.withUnsafeBytes { cSend(fd, $0.baseAddress, $0.count) }
            if count >= 0 { return .written(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let code: return .failed(code)
            }
        }
    }

    /// Empties a wake-up pipe's read end.
    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ cRead(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// A value behind a POSIX mutex: the state a client's callers and its reporting thread share.
/// Not `Synchronization.Mutex`, which waits on a futex of its own that ThreadSanitizer does not
/// see as a lock: under TSan every access through it was reported as a race (Scripts/test-sanitized
/// runs the client's suites under TSan), while pthread_mutex_lock is one it follows.
final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.state = state
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
