import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cExit(_ code: Int32) -> Never { exit(code) }
private func cKill(_ pid: pid_t, _ number: Int32) -> Int32 { kill(pid, number) }

/// This process and others: ids, signals sent, waiting for an end, the process tree, detaching,
/// and ending.
package enum Processes {
    /// This process's id.
    package static var id: Int32 { getpid() }

    /// This process's user id.
    package static var userID: UInt32 { getuid() }

    /// Sends `number` to process `pid`.
    package static func send(_ number: Int32, to pid: Int32) { _ = cKill(pid, number) }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    package static func waitForExit(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// A descriptor that becomes readable when process `pid` ends (pidfd_open(2), close-on-exec);
    /// ESRCH when there is no such process.
    package static func watch(_ pid: Int32) throws(SystemError) -> Int32 {
        let fd = hw_pidfd_open(pid)
        guard fd >= 0 else { throw SystemError.last }
        return fd
    }

    /// `pid` and every process descended from it, parents first (read from /proc): what pausing a
    /// command must stop, since a shell script's work is done by its children.
    package static func tree(of pid: Int32) -> [Int32] {
        guard let names = Folders.entries("/proc") else { return [pid] }
        var children: [Int32: [Int32]] = [:]
        for name in names {
            guard let child = Int32(name), let parent = parent(of: child) else { continue }
            children[parent, default: []].append(child)
        }
        var tree = [pid]
        var index = 0
        while index < tree.count {
            tree += children[tree[index]] ?? []
            index += 1
        }
        return tree
    }

    /// The parent of `pid` (field 4 of /proc/PID/stat, after the command name in parentheses,
    /// which may hold any character but NUL).
    private static func parent(of pid: Int32) -> Int32? {
        guard let bytes = Files.read("/proc/\(pid)/stat", limit: 1024) else { return nil }
        let line = String(decoding: bytes, as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// The lowest descriptor number from 3 that a started program would not inherit (closed, or
    /// closed on exec): a descriptor given to it there leaves every descriptor this process was
    /// given by whoever started it as it was.
    package static func descriptorFreeInChildren() -> Int32 {
        var fd: Int32 = 3
        while fd < 1024 {
            let flags = fcntl(fd, F_GETFD)
            if flags < 0 || flags & FD_CLOEXEC != 0 { return fd }
            fd += 1
        }
        return fd
    }

    /// Raises the soft limit on open descriptors to the hard limit (at most `cap`): systemd starts
    /// services with a soft limit of 1024.
    package static func raiseDescriptorLimit(to cap: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = min(UInt64(limit.rlim_max), cap)
        guard UInt64(limit.rlim_cur) < wanted else { return }
        limit.rlim_cur = rlim_t(wanted)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Forks a process of its own that outlives this one: a new session (no terminal, out of the
    /// caller's process group) with standard input, output and error on /dev/null and no other
    /// descriptor but `keeping`, so that whoever waits for this process's output (or any
    /// descriptor it gave it) to close does not wait for it. 0 in the child, the child's id in the
    /// parent.
    package static func detach(keeping: Int32) throws(SystemError) -> Int32 {
        let pid = fork()
        guard pid == 0 else {
            if pid < 0 { throw SystemError.last }
            return pid
        }
        _ = setsid()
        _ = hw_close_descriptors_except(keeping)
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { _ = dup2(null, fd) }
            if null > STDERR_FILENO { _ = close(null) }
        }
        return 0
    }

    /// Ends this process now.
    package static func exit(_ code: Int32) -> Never { cExit(code) }

    /// After `seconds`, writes `message` to standard error and ends this process with `status`,
    /// whatever it is doing then (a connect(2) to an unreachable host included). One at a time:
    /// the latest call of this or ``exit(on:writing:to:status:)`` says what is written.
    package static func exit(after seconds: Double, writing message: String, status: Int32) {
        _ = hw_exit_after(UInt32(seconds * 1000), message, status)
    }

    /// When signal `number` arrives, writes `message` to `fd` and ends this process with `status`
    /// (from a handler in C that calls only write(2) and _exit(2)).
    package static func exit(on number: Int32, writing message: String, to fd: Int32, status: Int32) {
        _ = hw_exit_on_signal(number, fd, message, status)
    }
}
