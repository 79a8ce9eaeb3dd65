import HeadwaySystem

/// Where the service's socket is. `$HEADWAY_SOCKET` always wins. A service run by a user listens
/// on `$XDG_RUNTIME_DIR/headway.sock`, the system service on `/run/headway/headway.sock`; a client
/// talks to the system service when its socket exists, else to the user's.
public enum SocketPath {
    /// The system service's socket.
    public static let system = "/run/headway/headway.sock"

    private static var user: String? { SystemIO.environment("XDG_RUNTIME_DIR").map { $0 + "/headway.sock" } }

    /// Where a service started by hand listens.
    public static func forServer() -> String {
        SystemIO.environment("HEADWAY_SOCKET") ?? (Processes.userID == 0 ? system : user ?? system)
    }

    /// Where a client connects.
    public static func forClient() -> String {
        if let path = SystemIO.environment("HEADWAY_SOCKET") { return path }
        if Files.exists(system) { return system }
        return user ?? system
    }
}
