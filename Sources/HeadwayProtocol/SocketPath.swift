import HeadwaySystem

/// Where the service's socket is: one rule for every program, whoever runs it (root or not) and
/// whether or not `XDG_RUNTIME_DIR` is set — ``rule``, as docs/protocol.md and each program's
/// `--help` state it.
///
/// The board's service and a person's simulator never share a socket: `headwayd` is the system's
/// (systemd's `headway.socket` makes its socket, mode 0660 for the `headway` group), the simulator
/// is its user's. A client tries its user's first, so a simulator started to try something out is
/// reached even where the package's service runs.
public enum SocketPath {
    /// The system service's socket (headwayd's).
    public static let system = "/run/headway/headway.sock"

    /// The rule, in the words each program's `--help` and docs/protocol.md use.
    public static let rule = """
        $HEADWAY_SOCKET (or --socket) names the socket for every program. Otherwise headwayd, the \
        board's service, listens on /run/headway/headway.sock (systemd's headway.socket makes it), \
        and headway-sim serve on its user's own socket: $XDG_RUNTIME_DIR/headway.sock, or \
        /tmp/headway-UID/headway.sock where XDG_RUNTIME_DIR is not set. Clients (headway, \
        headway-ci, headway-mqtt, HeadwayClient) use their user's own socket when a service \
        answers there, else /run/headway/headway.sock. Root follows the same rule.
        """

    /// `$HEADWAY_SOCKET`, when set (and not empty).
    public static var named: String? { SystemIO.environment("HEADWAY_SOCKET").flatMap { $0.isEmpty ? nil : $0 } }

    /// The folder of this user's own socket: `$XDG_RUNTIME_DIR` (made by the login manager, the
    /// user's alone), else `/tmp/headway-UID`, which the simulator makes for its user alone.
    public static var userFolder: String {
        if let runtime = SystemIO.environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") { return runtime }
        return "/tmp/headway-\(Processes.userID)"
    }

    /// This user's own socket (where headway-sim serve listens).
    public static var user: String { userFolder + "/headway.sock" }

    /// Where headwayd listens: `$HEADWAY_SOCKET`, else the system's socket.
    public static func forService() -> String { named ?? system }

    /// Where headway-sim serve listens: `$HEADWAY_SOCKET`, else this user's own socket, its folder
    /// in /tmp made for the user alone (mode 0700) when that is where it is. A folder there that
    /// is not the user's alone is refused, never used: another user could read the reports or
    /// stand in for the simulator.
    public static func forSimulator() throws(Problem) -> String {
        if let named { return named }
        let folder = userFolder
        if folder.hasPrefix("/tmp/") {
            do throws(SystemError) { try Folders.make(folder, mode: 0o700) } catch {
                throw Problem(description: "cannot make \(folder) for the socket: \(error); set XDG_RUNTIME_DIR, or HEADWAY_SOCKET to a socket path in a folder of your own")
            }
            if let problem = foreignFolder(folder) { throw Problem(description: problem) }
        }
        return folder + "/headway.sock"
    }

    /// Where a client connects: `$HEADWAY_SOCKET`, else this user's own socket when a service
    /// answers there, else the system's.
    public static func forClient() -> String {
        if let named { return named }
        let own = user
        guard !userFolder.hasPrefix("/tmp/") || foreignFolder(userFolder) == nil, answers(own) else { return system }
        return own
    }

    /// Why a socket path cannot be used.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong, and how to put it right.
        public let description: String
    }

    /// Whether a service listens at `path`: a connection is taken or waits in its backlog.
    static func answers(_ path: String) -> Bool {
        guard let address = UnixSocket.address(path), Files.status(of: path, followingLinks: false)?.kind == .socket else { return false }
        guard let (fd, _) = try? UnixSocket.connect(address) else { return false }
        SystemIO.close(fd)
        return true
    }

    /// What is wrong with `folder` as this user's own (a folder in /tmp anyone may make first).
    static func foreignFolder(_ folder: String) -> String? {
        guard let status = Files.status(of: folder, followingLinks: false) else { return "\(folder) does not exist" }
        let user = Processes.userID
        guard status.kind == .folder, status.owner == user, status.permissions & 0o077 == 0 else {
            let what = status.kind == .folder ? "a folder of user \(status.owner) with mode \(String(status.permissions, radix: 8))" : "not a folder"
            return "\(folder) is \(what), not this user's (\(user)) alone: remove it, or set XDG_RUNTIME_DIR, or HEADWAY_SOCKET to a socket path in a folder of your own"
        }
        return nil
    }

    /// What to do when connecting to `path` failed with `error`: start a service, or set
    /// `HEADWAY_SOCKET`; for a socket this user may not use, whose it is and how to reach a
    /// simulator of one's own.
    public static func advice(connecting path: String, failedWith code: Int32) -> String {
        switch code {
        case Errno.noSuchFile, Errno.connectionRefused:
            // A client looked at its user's own socket first (the rule): it says so.
            let own = path == system && named == nil ? " (nor on this user's own socket, \(user))" : ""
            return "no service listens there\(own); start one (headway-sim serve, or sudo systemctl start headway) or set HEADWAY_SOCKET to where one listens"
        case Errno.permissionDenied:
            var whose = ""
            if let status = Files.status(of: path, followingLinks: true) {
                let owner = Groups.userName(of: status.owner) ?? "\(status.owner)"
                let group = Groups.name(of: status.group) ?? "\(status.group)"
                whose = "the socket is user \(owner)'s and group \(group)'s, not this user's (\(Groups.userName(of: Processes.userID) ?? "\(Processes.userID)"))"
                whose += Groups.isMember(status.group) ? "; " : " and this user is not in group \(group) (sudo usermod -aG \(group) USER, then log in again); "
            } else {
                whose = "this user may not reach it; "
            }
            return whose + "a headway-sim serve of this user's own listens on \(user), where clients look first (or set HEADWAY_SOCKET to its socket)"
        default:
            return "set HEADWAY_SOCKET to the socket a service listens on"
        }
    }
}
