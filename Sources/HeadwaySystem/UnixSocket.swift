import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
private func cBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { bind(fd, address, length) }
private func cListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func cAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }

/// Unix domain sockets: stream sockets connected, bound, listened and accepted on (with the peer's
/// credentials), and datagrams sent.
package enum UnixSocket {
    /// What ``accept(_:)`` took.
    package enum Accepted {
        /// A connection (non-blocking), with its peer's process, user and group as the kernel
        /// vouches for them (SO_PEERCRED), when it says.
        case connection(Int32, peer: (pid: Int32, uid: UInt32, gid: UInt32)?)
        /// Nothing waits.
        case none
        /// The process (EMFILE) or the system (ENFILE) has no descriptor left.
        case outOfDescriptors
        case failed(SystemError)
    }

    /// `path` as a `sockaddr_un`, or nil when it is too long for one.
    package static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
            buffer[bytes.count] = 0
        }
        return address
    }

    /// The longest socket path a `sockaddr_un` holds, in bytes.
    package static var maxPathBytes: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// A new non-blocking stream socket, not inherited by programs started later.
    package static func stream() throws(SystemError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last }
        return fd
    }

    /// A non-blocking stream socket connected (or connecting: `inProgress`, EINPROGRESS) to `address`.
    package static func connect(_ address: sockaddr_un) throws(SystemError) -> (fd: Int32, inProgress: Bool) {
        let fd = try stream()
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result == 0 { return (fd, false) }
        let code = errno
        if code == EINPROGRESS || code == EAGAIN { return (fd, true) }
        SystemIO.close(fd)
        throw SystemError(code)
    }

    /// Binds `fd` to `address`, the socket file created with `mode` (applied through the umask as
    /// the file is made, so it never exists with wider permissions).
    package static func bind(_ fd: Int32, to address: sockaddr_un, mode: UInt32) throws(SystemError) {
        var address = address
        let previousMask = umask(mode_t(0o777 & ~mode))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cBind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let code = errno
        umask(previousMask)
        guard bound == 0 else { throw SystemError(code) }
    }

    /// Starts listening on the bound `fd`.
    package static func listen(_ fd: Int32, backlog: Int32) throws(SystemError) {
        guard cListen(fd, backlog) == 0 else { throw SystemError.last }
    }

    /// Takes one waiting connection, non-blocking, with its peer's credentials.
    package static func accept(_ listener: Int32) -> Accepted {
        let fd = cAccept(listener)
        guard fd >= 0 else {
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED: return .none
            case EMFILE, ENFILE: return .outOfDescriptors
            case let code: return .failed(SystemError(code))
            }
        }
        SystemIO.makeNonBlocking(fd)
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        return .connection(fd, peer: hw_peer_credentials(fd, &pid, &uid, &gid) == 0 ? (pid, uid, gid) : nil)
    }

    /// Sends `message` as one datagram to the Unix socket `path` (a leading `@` is the abstract
    /// namespace), without waiting and ignoring failures: sd_notify's contract.
    package static func sendDatagram(_ message: String, to path: String) {
        guard var address = address(path) else { return }
        let abstract = path.hasPrefix("@")
        if abstract { withUnsafeMutableBytes(of: &address.sun_path) { $0[0] = 0 } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.utf8.count + (abstract ? 0 : 1))
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { SystemIO.close(fd) }
        let payload = Array(message.utf8)
        _ = payload.withUnsafeBytes { body in
            withUnsafePointer(to: &address) {
                // Never wait: a notify socket nobody reads must not stop the service's loop.
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, body.baseAddress, body.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, length) }
            }
        }
    }
}
