// Every call into the C library that HeadwaySimulator makes is in this file: the terminal (its size,
// the signals that say it changed, writes), the sleep of a driver's wait on a running clock, and the
// files of snapshots and captures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags | O_CLOEXEC, mode) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }

/// Where the screen signals' handler writes (see ``Platform/routeScreenSignals()``).
nonisolated(unsafe) private var screenSignalPipe: Int32 = -1

enum Platform {
    static let standardOutput = STDOUT_FILENO

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Sleeps at least `seconds`.
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// An environment variable, `nil` when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// The terminal's size, when `fd` is a terminal that says.
    static func terminalSize(_ fd: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }

    /// Makes SIGWINCH (the terminal was resized) and SIGCONT (the program is back in the
    /// foreground, after the shell wrote on the screen) each write a byte to a pipe, and returns
    /// the pipe's read end for ``waitForScreenSignal(_:)``, unblocking both in the calling thread
    /// (a parent, tmux started from a test runner's worker thread, may have started us with them
    /// blocked, and then no resize ever redrew). Once per process.
    static func routeScreenSignals() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        // Set before the handlers exist, which only read it: write(2) and errno are all they touch.
        screenSignalPipe = fds[1]
        for number in [SIGWINCH, SIGCONT] {
            signal(number) { _ in
                let saved = errno
                var byte: UInt8 = 1
                _ = cWrite(screenSignalPipe, &byte, 1)
                errno = saved
            }
        }
        var screen = sigset_t()
        sigemptyset(&screen)
        sigaddset(&screen, SIGWINCH)
        sigaddset(&screen, SIGCONT)
        pthread_sigmask(SIG_UNBLOCK, &screen, nil)
        return fds[0]
    }

    /// Runs `body` on a detached thread of its own (as long as the process lives, for a loop that
    /// waits on a descriptor).
    static func detachThread(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { pointer in
            Unmanaged<ThreadBody>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, box)
        if started == 0 { pthread_detach(thread) } else { Unmanaged<ThreadBody>.fromOpaque(box).release() }
    }

    /// Blocks until a screen signal arrived on `fd` (from ``routeScreenSignals()``), and takes
    /// every one that did: several in a row (a window dragged wider) make one redraw.
    static func waitForScreenSignal(_ fd: Int32) {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, -1) != 1 {}
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    /// Writes all of `bytes` to `fd`; stops quietly (false) when the terminal went away or the
    /// file takes no more.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// The reason of the last failed call, as strerror words it.
    static var lastError: String { String(cString: strerror(errno)) }

    /// Makes the folder `path` and any missing folders above it.
    static func makeFolders(_ path: String) throws(SnapshotError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o777) != 0, errno != EEXIST {
                throw SnapshotError(path: path, reason: "cannot create the folder (\(lastError))")
            }
        }
    }

    /// Opens `path` for writing, created or emptied; -1 when it cannot be.
    static func create(_ path: String) -> Int32 { cOpen(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666) }

    static func close(_ fd: Int32) { _ = cClose(fd) }

    /// Writes `bytes` as the whole file at `path`.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SnapshotError) {
        let fd = create(path)
        guard fd >= 0 else { throw SnapshotError(path: path, reason: "cannot write the file (\(lastError))") }
        defer { close(fd) }
        guard writeAll(fd, bytes) else { throw SnapshotError(path: path, reason: "cannot write the file (\(lastError))") }
    }
}

/// A thread's work, carried through pthread_create's one pointer.
private final class ThreadBody {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
