#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The write end of the signal pipe, for the handler (a C signal handler can capture nothing).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signals delivered as bytes on a pipe, so an event loop can `poll` for them with its other file
/// descriptors instead of doing work inside a signal handler.
public struct SignalPipe {
    /// The end to poll and read signal numbers (one byte each) from.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Routes `signals` to the pipe (unblocking them: a parent may have started us with them
    /// blocked) and ignores SIGPIPE. One pipe per process.
    public init(_ signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
        signalPipeWriteEnd = fds[1]
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in signals {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigaddset(&handled, number)
        }
        signal(SIGPIPE, SIG_IGN)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// The signals that arrived since the last call.
    public func drain() -> [Int32] {
        var byte: UInt8 = 0
        var numbers: [Int32] = []
        while read(readEnd, &byte, 1) == 1 { numbers.append(Int32(byte)) }
        return numbers
    }

    public func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
