import HeadwayProtocol
import HeadwaySystem

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

/// The socket the service listens on: made at a path, or passed by systemd.
enum ServiceSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Listens on `path`, a socket file created with `mode` (and given to `group`, when named).
    ///
    /// Whatever else is at `path` is left alone: a socket is replaced only when no service answers
    /// on it (a stale one), and a file of any other kind is an error. The mode is applied as the
    /// file is created (through the umask) and the group without following symlinks, so nothing
    /// swapped in at `path` afterwards is touched. The socket is made under a name of its own and
    /// linked to `path` once it listens (never over anything there): whoever finds the file can
    /// connect, and always to a socket that has its group.
    static func listen(path: String, mode: UInt32, group: String?) throws(Failure) -> Int32 {
        guard let address = UnixSocket.address(path) else {
            throw Failure(description: "socket path \(path) is longer than \(UnixSocket.maxPathBytes) bytes; choose a shorter --socket")
        }
        if let status = Files.status(of: path, followingLinks: false) {
            guard status.kind == .socket else {
                throw Failure(description: "\(path) exists and is not a socket; remove it yourself or choose another --socket (it is never deleted for you)")
            }
            if let connection = try? ServiceConnection(path: path, budget: 0.5) {
                _ = connection
                throw Failure(description: "another service already listens on \(path); stop it or pass --socket with another path")
            }
            Files.remove(path)  // a socket nobody answers on: left over from a service that died
        }
        var groupID: UInt32?
        if let group {
            guard let id = Groups.id(named: group) else {
                throw Failure(description: "group \"\(group)\" does not exist; create it (groupadd \(group)) or name another with --group or socket-group")
            }
            groupID = id
        }
        let fd: Int32
        do throws(SystemError) { fd = try UnixSocket.stream() } catch {
            throw Failure(description: "cannot create a socket: \(error)")
        }
        // A name of its own beside `path` (or `path` itself when that one would be too long).
        let staging = path + ".\(Processes.id).new"
        let stagingAddress = UnixSocket.address(staging)
        let bindPath = stagingAddress == nil ? path : staging
        if stagingAddress != nil { Files.remove(staging) }
        do throws(SystemError) { try UnixSocket.bind(fd, to: stagingAddress ?? address, mode: mode) } catch {
            SystemIO.close(fd)
            let hint = error.code == Errno.permissionDenied ? " (is its folder writable? /run/headway is made by systemd's RuntimeDirectory=)" : error.code == Errno.noSuchFile ? " (does its folder exist?)" : ""
            throw Failure(description: "cannot listen on \(path): \(error)\(hint)")
        }
        if let groupID {
            do throws(SystemError) { try Groups.give(bindPath, to: groupID) } catch {
                SystemIO.close(fd)
                Files.remove(bindPath)
                throw Failure(description: "cannot give \(path) to group \(group ?? ""): \(error)")
            }
        }
        do throws(SystemError) { try UnixSocket.listen(fd, backlog: 128) } catch {
            SystemIO.close(fd)
            Files.remove(bindPath)
            throw Failure(description: "cannot listen on \(path): \(error)")
        }
        if bindPath != path {
            // link(2) never replaces: something that appeared at `path` meanwhile stays, and wins.
            defer { Files.remove(bindPath) }
            do throws(SystemError) { try Files.link(bindPath, as: path) } catch {
                SystemIO.close(fd)
                throw Failure(description: "cannot listen on \(path): \(error)")
            }
        }
        return fd
    }

    /// The socket systemd passed (socket activation), if `LISTEN_FDS` says there is one for us.
    static func activated() -> Int32? {
        guard let pid = SystemIO.environment("LISTEN_PID").flatMap(Int32.init), pid == Processes.id,
            let count = SystemIO.environment("LISTEN_FDS").flatMap(Int.init), count >= 1
        else { return nil }
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        SystemIO.makeNonBlocking(fd)
        return fd
    }
}
