#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Creating, adopting and connecting Unix stream sockets.
public enum UnixSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Listens on `path`: refuses if another daemon answers there, removes a stale socket file,
    /// sets the file's mode (and group, when given) so that only its owner and group may connect.
    public static func listen(path: String, mode: mode_t = 0o660, group: String? = nil) throws(Failure) -> Int32 {
        if let fd = try? connect(path: path) {
            close(fd)
            throw Failure(description: "another daemon already listens on \(path); stop it or pass --socket with another path")
        }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot create a socket: \(describe(errno))") }
        var address = try socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            let hint = code == EACCES ? " (is its folder writable? /run/headway is made by systemd's RuntimeDirectory=)" : code == ENOENT ? " (does its folder exist?)" : ""
            throw Failure(description: "cannot listen on \(path): \(describe(code))\(hint)")
        }
        chmod(path, mode)
        if let group {
            guard let entry = getgrnam(group) else {
                close(fd)
                throw Failure(description: "group \"\(group)\" does not exist; create it (groupadd \(group)) or pass another --group")
            }
            if chown(path, uid_t.max, entry.pointee.gr_gid) != 0 {
                let code = errno
                close(fd)
                throw Failure(description: "cannot give \(path) to group \(group): \(describe(code))")
            }
        }
        guard Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "cannot listen on \(path): \(describe(code))")
        }
        return fd
    }

    /// The socket systemd passed (socket activation), if `LISTEN_FDS` says there is one for us.
    public static func activated() -> Int32? {
        guard let pid = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pid) == getpid(),
            let count = getenv("LISTEN_FDS").map({ String(cString: $0) }).flatMap(Int.init), count >= 1
        else { return nil }
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Connects to `path`, giving up after `timeout` seconds.
    public static func connect(path: String, timeout: Double = 1) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "cannot create a socket: \(describe(errno))") }
        var address = try socketAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            let code = errno
            guard code == EINPROGRESS || code == EAGAIN else {
                close(fd)
                throw Failure(description: "cannot connect to \(path): \(describe(code))")
            }
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&pollfd, 1, Int32(timeout * 1000)) == 1 else {
                close(fd)
                throw Failure(description: "timed out connecting to \(path)")
            }
        }
        return fd
    }

    static func socketAddress(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw Failure(description: "socket path \(path) is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }

    public static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
