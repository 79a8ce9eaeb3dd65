// Every call into the C library the client makes beyond HeadwayProtocol's SystemIO is in this
// file: starting, signalling and waiting for the command of `headway run`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cExit(_ code: Int32) -> Never { exit(code) }
private func cPipe(_ fds: inout [Int32]) -> Int32 { pipe(&fds) }

enum Platform {
    static let standardInput: Int32 = STDIN_FILENO
    static let standardOutput: Int32 = STDOUT_FILENO
    static let standardError: Int32 = STDERR_FILENO

    /// A pipe whose ends are closed when a program is started (the child gets copies through
    /// `spawn`'s redirections only).
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard cPipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Starts `arguments` (looked up on PATH) with its stdout and stderr on the given descriptors.
    /// It stays in our process group, so that a CI runner stopping the job's group stops it too.
    /// `nil` with `errno` set on failure.
    static func spawn(_ arguments: [String], output: Int32, errors: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The command gets the default signal handling, not ours, and nothing blocked.
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

    /// Lets writes to a closed pipe fail with EPIPE instead of ending the process.
    static func ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Sends `number` to process `pid`.
    static func send(_ number: Int32, to pid: pid_t) { _ = kill(pid, number) }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Ends this process now.
    static func exit(_ code: Int32) -> Never { cExit(code) }

    static var noSuchFile: Int32 { ENOENT }
}
