// Every call into the C library that HeadwayService makes beyond HeadwayProtocol's SystemIO is in
// this file: the listening socket, peers' credentials, systemd's notify socket, descriptor limits,
// and the files it reads and writes (presets, learned durations, what doctor looks at).
import CPlatform
import HeadwayCore
import HeadwayProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { bind(fd, address, length) }
private func cListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func cAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
private func cUnlink(_ path: String) -> Int32 { unlink(path) }
private func cLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags | O_CLOEXEC, mode) }
private func cRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// Who is at the other end of a connection (SO_PEERCRED), as the kernel vouches for it.
public struct PeerCredentials: Sendable, Equatable {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's user id.
    public var uid: UInt32
    /// The peer's group id.
    public var gid: UInt32

    /// Credentials of each id given.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

enum Platform {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Accepted {
        case connection(Int32, PeerCredentials?)
        case none
        /// The process (EMFILE) or the system (ENFILE) has no descriptor left.
        case outOfDescriptors
        case failed(Int32)
    }

    /// Listens on `path`, a socket file created with `mode` (and given to `group`, when named).
    ///
    /// Whatever else is at `path` is left alone: a socket is replaced only when no service answers
    /// on it (a stale one), and a file of any other kind is an error. The mode is applied as the
    /// file is created (through the umask) and the group without following symlinks, so nothing
    /// swapped in at `path` afterwards is touched. The socket is made under a name of its own and
    /// linked to `path` once it listens (never over anything there): whoever finds the file can
    /// connect, and always to a socket that has its group.
    static func listen(path: String, mode: mode_t, group: String?) throws(Failure) -> Int32 {
        guard let address = SystemIO.socketAddress(path) else {
            throw Failure(description: "socket path \(path) is longer than \(SystemIO.maxSocketPath) bytes; choose a shorter --socket")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw Failure(description: "\(path) exists and is not a socket; remove it yourself or choose another --socket (it is never deleted for you)")
            }
            if let connection = try? ServiceConnection(path: path, budget: 0.5) {
                _ = connection
                throw Failure(description: "another service already listens on \(path); stop it or pass --socket with another path")
            }
            _ = cUnlink(path)  // a socket nobody answers on: left over from a service that died
        }
        var groupID: gid_t?
        if let group {
            guard let entry = getgrnam(group) else {
                throw Failure(description: "group \"\(group)\" does not exist; create it (groupadd \(group)) or name another with --group or socket-group")
            }
            groupID = entry.pointee.gr_gid
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot create a socket: \(SystemIO.describe(errno))") }
        // A name of its own beside `path` (or `path` itself when that one would be too long).
        let staging = path + ".\(getpid()).new"
        let stagingAddress = SystemIO.socketAddress(staging)
        let bindPath = stagingAddress == nil ? path : staging
        if stagingAddress != nil { _ = cUnlink(staging) }
        var bindable = stagingAddress ?? address
        let previousMask = umask(0o777 & ~mode)
        let bound = withUnsafePointer(to: &bindable) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cBind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindError = errno
        umask(previousMask)
        guard bound == 0 else {
            SystemIO.close(fd)
            let hint = bindError == EACCES ? " (is its folder writable? /run/headway is made by systemd's RuntimeDirectory=)" : bindError == ENOENT ? " (does its folder exist?)" : ""
            throw Failure(description: "cannot listen on \(path): \(SystemIO.describe(bindError))\(hint)")
        }
        if let groupID, fchownat(AT_FDCWD, bindPath, uid_t.max, groupID, AT_SYMLINK_NOFOLLOW) != 0 {
            let code = errno
            SystemIO.close(fd)
            _ = cUnlink(bindPath)
            throw Failure(description: "cannot give \(path) to group \(group ?? ""): \(SystemIO.describe(code))")
        }
        guard cListen(fd, 128) == 0 else {
            let code = errno
            SystemIO.close(fd)
            _ = cUnlink(bindPath)
            throw Failure(description: "cannot listen on \(path): \(SystemIO.describe(code))")
        }
        if bindPath != path {
            // link(2) never replaces: something that appeared at `path` meanwhile stays, and wins.
            let linked = cLink(bindPath, path)
            let code = errno
            _ = cUnlink(bindPath)
            guard linked == 0 else {
                SystemIO.close(fd)
                throw Failure(description: "cannot listen on \(path): \(SystemIO.describe(code))")
            }
        }
        return fd
    }

    /// The socket systemd passed (socket activation), if `LISTEN_FDS` says there is one for us.
    static func activatedListener() -> Int32? {
        guard let pid = SystemIO.environment("LISTEN_PID").flatMap(Int32.init), pid == getpid(),
            let count = SystemIO.environment("LISTEN_FDS").flatMap(Int.init), count >= 1
        else { return nil }
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        SystemIO.makeNonBlocking(fd)
        return fd
    }

    /// The group that owns the file at `path`, by name, if it can be told.
    static func groupName(ofFileAt path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, let entry = getgrgid(status.st_gid) else { return nil }
        return String(cString: entry.pointee.gr_name)
    }

    /// Takes one waiting connection, non-blocking, with its peer's credentials.
    static func accept(_ listener: Int32) -> Accepted {
        let fd = cAccept(listener)
        guard fd >= 0 else {
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return .none
            case EMFILE, ENFILE: return .outOfDescriptors
            case let code: return .failed(code)
            }
        }
        SystemIO.makeNonBlocking(fd)
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        let credentials = hw_peer_credentials(fd, &pid, &uid, &gid) == 0 ? PeerCredentials(pid: pid, uid: uid, gid: gid) : nil
        return .connection(fd, credentials)
    }

    static func removeFile(_ path: String) { _ = cUnlink(path) }

    /// Seconds since 1970 (UTC), from the system's real-time clock.
    @Sendable static func wallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// `seconds` since 1970 in the system's time zone (`TZ`, else /etc/localtime), daylight saving
    /// included: localtime_r reads the zone's rules for that very moment.
    @Sendable static func localTime(_ seconds: Double) -> LocalTime {
        var clock = time_t(seconds.rounded(.down))
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return LocalTime(hour: 0, minute: 0) }
        return LocalTime(hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// This process's user id.
    static var userID: UInt32 { getuid() }

    /// Raises the soft limit on open descriptors to the hard limit (at most `cap`): systemd starts
    /// services with a soft limit of 1024.
    static func raiseDescriptorLimit(to cap: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = min(UInt64(limit.rlim_max), cap)
        guard UInt64(limit.rlim_cur) < wanted else { return }
        limit.rlim_cur = rlim_t(wanted)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Sends `message` as one datagram to the Unix socket `path` (a leading `@` is the abstract
    /// namespace), without waiting and ignoring failures: sd_notify's contract.
    static func sendDatagram(_ message: String, to path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { SystemIO.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        let abstract = bytes.first == UInt8(ascii: "@")
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
            if abstract { buffer[0] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let payload = Array(message.utf8)
        _ = payload.withUnsafeBytes { body in
            withUnsafePointer(to: &address) {
                // Never wait: a notify socket nobody reads must not stop the service's loop.
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, body.baseAddress, body.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, length) }
            }
        }
    }

    /// Whether standard error is the journal's stream (`$JOURNAL_STREAM` names its device and inode).
    static var standardErrorIsJournal: Bool {
        guard let stream = SystemIO.environment("JOURNAL_STREAM") else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return stream == "\(status.st_dev):\(status.st_ino)"
    }

    /// A descriptor that becomes readable when process `pid` ends, or nil (with the reason) when
    /// it cannot be watched.
    static func watchProcess(_ pid: Int32) -> Result<Int32, Failure> {
        let fd = hw_pidfd_open(pid)
        guard fd >= 0 else {
            let code = errno
            return .failure(Failure(description: code == ESRCH ? "no process \(pid)" : "cannot watch process \(pid): \(SystemIO.describe(code))"))
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return .success(fd)
    }
}

// Files.
extension Platform {
    /// Replaces the file at `path` with `bytes` (through a new file renamed over it: a crash
    /// leaves the old file or the new one, never half of it).
    static func writeFileAtomically(_ path: String, _ bytes: [UInt8]) throws(Failure) {
        let staging = path + ".\(getpid()).new"
        let fd = cOpen(staging, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(description: "cannot write \(staging): \(SystemIO.describe(errno))") }
        let written = SystemIO.writeAll(fd, bytes[...]) && fsync(fd) == 0
        let code = errno
        SystemIO.close(fd)
        guard written, cRename(staging, path) == 0 else {
            let reason = written ? errno : code
            removeFile(staging)
            throw Failure(description: "cannot write \(path): \(SystemIO.describe(reason))")
        }
    }

    /// Makes the folder `path` and any missing folders above it.
    static func makeFolders(_ path: String) throws(Failure) {
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o755) != 0, errno != EEXIST {
                throw Failure(description: "cannot create \(partial): \(SystemIO.describe(errno))")
            }
        }
    }

    /// Whether something is at `path` (a symbolic link counts by what it points to).
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may open `path` for reading and writing.
    static func readableAndWritable(_ path: String) -> Bool { access(path, R_OK | W_OK) == 0 }

    /// The owner, group and permission bits of `path` itself (a symbolic link is not followed).
    static func owner(_ path: String) -> (uid: UInt32, gid: UInt32, mode: Int)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_uid, status.st_gid, Int(status.st_mode & 0o7777))
    }

    /// The names in the folder `path` (without `.` and `..`), nil when it cannot be read.
    static func folderEntries(_ path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Where the symbolic link at `path` points, nil when it is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// The memory page size of this process.
    static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
}
