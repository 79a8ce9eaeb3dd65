// Every call into the C library the client makes beyond HeadwayProtocol's SystemIO is in this
// file: starting, signalling and waiting for the command of `headway run`, the keeper of
// `begin --pid` over a broker, and local time.
import CPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cExit(_ code: Int32) -> Never { exit(code) }
private func cPipe(_ fds: inout [Int32]) -> Int32 { pipe(&fds) }
private func cKill(_ pid: pid_t, _ number: Int32) -> Int32 { kill(pid, number) }

enum Platform {
    static let standardInput: Int32 = STDIN_FILENO
    static let standardOutput: Int32 = STDOUT_FILENO
    static let standardError: Int32 = STDERR_FILENO

    static let stop = SIGSTOP
    static let `continue` = SIGCONT
    static let terminate = SIGTERM
    static let kill = SIGKILL
    static let interrupt = SIGINT
    static let hangUp = SIGHUP

    /// This process's id.
    static var processID: Int32 { getpid() }

    /// A pipe whose ends are closed when a program is started (the child gets copies through
    /// `spawn`'s redirections only).
    static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard cPipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Starts `arguments` (looked up on PATH) with its stdout and stderr on the given descriptors,
    /// `adding` to its environment (replacing a variable of the same name) and, with `extra`, the
    /// descriptor `extra.fd` as its number `extra.number` (a tool's progress descriptor).
    /// It stays in our process group, so that a CI runner stopping the job's group stops it too.
    /// `nil` with `errno` set on failure.
    static func spawn(_ arguments: [String], output: Int32, errors: Int32, adding variables: [(String, String)] = [], extra: (fd: Int32, number: Int32)? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        if let extra { posix_spawn_file_actions_adddup2(&actions, extra.fd, extra.number) }
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
        var environment: [UnsafeMutablePointer<CChar>?] = []
        if !variables.isEmpty {
            let names = Set(variables.map { $0.0 + "=" })
            var index = 0
            while let entry = environ[index] {
                let text = String(cString: entry)
                if !names.contains(where: { text.hasPrefix($0) }) { environment.append(strdup(entry)) }
                index += 1
            }
            environment += variables.map { strdup($0.0 + "=" + $0.1) }
            environment.append(nil)
        }
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let result = variables.isEmpty
            ? posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
            : posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &environment)
        guard result == 0 else {
            errno = result
            return nil
        }
        return pid
    }

    /// The lowest descriptor number from 3 that a started command would not inherit (closed, or
    /// closed on exec): a tool's progress descriptor there leaves every descriptor the command is
    /// given by whoever started `headway run` as it was.
    static func descriptorFreeInChildren() -> Int32 {
        var fd: Int32 = 3
        while fd < 1024 {
            let flags = fcntl(fd, F_GETFD)
            if flags < 0 || flags & FD_CLOEXEC != 0 { return fd }
            fd += 1
        }
        return fd
    }

    /// The size of `path` when it is a regular file.
    static func regularFileSize(_ path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Double(info.st_size)
    }

    /// Lets writes to a closed pipe fail with EPIPE instead of ending the process.
    static func ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Sends `number` to process `pid`.
    static func send(_ number: Int32, to pid: pid_t) { _ = cKill(pid, number) }

    /// `pid` and every process descended from it, parents first (read from /proc): what pausing a
    /// command must stop, since a shell script's work is done by its children.
    static func processTree(of pid: pid_t) -> [pid_t] {
        var parents: [pid_t: [pid_t]] = [:]
        guard let proc = opendir("/proc") else { return [pid] }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let child = pid_t(name), let parent = parentProcess(of: child) else { continue }
            parents[parent, default: []].append(child)
        }
        var tree = [pid]
        var index = 0
        while index < tree.count {
            tree += parents[tree[index]] ?? []
            index += 1
        }
        return tree
    }

    /// The parent of `pid` (field 4 of /proc/PID/stat, after the command name in parentheses).
    private static func parentProcess(of pid: pid_t) -> pid_t? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Forks a process of its own that outlives this one: a new session (no terminal, out of the
    /// hook's process group) with standard input, output and error on /dev/null and no other
    /// descriptor but `keeping`, so that a CI runner that waits for its hook's output (or any
    /// descriptor it gave the hook) to close does not wait for it. 0 in the child, the child's id
    /// in the parent, nil (errno set) when it cannot.
    static func detach(keeping: Int32) -> pid_t? {
        let pid = fork()
        guard pid == 0 else { return pid < 0 ? nil : pid }
        _ = setsid()
        _ = hw_close_descriptors_except(keeping)
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { _ = dup2(null, fd) }
            if null > STDERR_FILENO { _ = close(null) }
        }
        return 0
    }

    /// A descriptor that becomes readable when process `pid` ends (pidfd_open(2)); nil (errno set)
    /// when there is no such process.
    static func watchProcess(_ pid: pid_t) -> Int32? {
        let fd = hw_pidfd_open(pid)
        return fd < 0 ? nil : fd
    }

    /// Ends this process now.
    static func exit(_ code: Int32) -> Never { cExit(code) }

    static var noSuchFile: Int32 { ENOENT }
}

/// Times of day as people write them, in the local time zone, as seconds since 1970 (UTC).
struct TimeOfDayParser {
    /// Seconds since 1970 now.
    var now: () -> Double = { Double(time(nil)) }

    /// `14:30` or `14:30:15` (today, or tomorrow when that has passed), or ISO 8601
    /// `2026-11-22T14:30:00Z` / `…+01:00` / `2026-11-22 14:30` (local).
    func parse(_ text: String) throws(ClientCommand.UsageError) -> Double {
        let wrong = ClientCommand.UsageError(message: "--until \"\(text)\" is not a time like 14:30, 14:30:15 or 2026-11-22T14:30:00Z")
        let current = now()
        var parts = tm()
        var clock = time_t(current)
        localtime_r(&clock, &parts)
        var zone: Int?  // seconds east of UTC, when the text gives one
        var body = Substring(text)
        if body.hasSuffix("Z") {
            zone = 0
            body = body.dropLast()
        } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-", let hours = Int(body.suffix(5).prefix(2)), let minutes = Int(body.suffix(2)) {
            zone = (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
            body = body.dropLast(6)
        }
        let halves = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard (1...2).contains(halves.count) else { throw wrong }
        if halves.count == 2 {
            let date = halves[0].split(separator: "-").compactMap { Int32($0) }
            guard date.count == 3 else { throw wrong }
            (parts.tm_year, parts.tm_mon, parts.tm_mday) = (date[0] - 1900, date[1] - 1, date[2])
        }
        let clockParts = halves.last!.split(separator: ":").map { Int32($0) }
        guard (2...3).contains(clockParts.count), clockParts.allSatisfy({ $0 != nil }) else { throw wrong }
        let (hour, minute, second) = (clockParts[0]!, clockParts[1]!, clockParts.count == 3 ? clockParts[2]! : 0)
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { throw wrong }
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (hour, minute, second)
        parts.tm_isdst = -1
        var seconds: Double
        if let zone {
            seconds = Double(timegm(&parts)) - Double(zone)
        } else {
            seconds = Double(mktime(&parts))
        }
        if halves.count == 1, seconds <= current { seconds += 86_400 }  // a time of day already past: tomorrow
        return seconds
    }
}
