#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Processes {
    /// Starts `arguments` (looked up on PATH) with its stdout and stderr on the given descriptors,
    /// `adding` to its environment (replacing a variable of the same name) and, with `extra`, the
    /// descriptor `extra.fd` as its number `extra.number` (a tool's progress descriptor). It gets
    /// the default handling of the signals a terminal or a runner sends, nothing blocked, and stays
    /// in this process's group, so that a CI runner stopping the job's group stops it too.
    package static func spawn(_ arguments: [String], output: Int32, errors: Int32, adding variables: [(String, String)] = [], extra: (fd: Int32, number: Int32)? = nil) throws(SystemError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        if let extra { posix_spawn_file_actions_adddup2(&actions, extra.fd, extra.number) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
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
        guard result == 0 else { throw SystemError(result) }
        return pid
    }
}
