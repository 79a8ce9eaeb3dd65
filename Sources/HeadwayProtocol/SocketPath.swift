#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the daemon's socket is. `$HEADWAY_SOCKET` always wins. A daemon run by a user listens on
/// `$XDG_RUNTIME_DIR/headway.sock`, the system daemon on `/run/headway/headway.sock`; a client
/// talks to the system daemon when its socket exists, else to the user's.
public enum SocketPath {
    public static let system = "/run/headway/headway.sock"

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    private static var user: String? { environment("XDG_RUNTIME_DIR").map { $0 + "/headway.sock" } }

    /// Where a daemon started by hand listens.
    public static func forServer() -> String {
        environment("HEADWAY_SOCKET") ?? (getuid() == 0 ? system : user ?? system)
    }

    /// Where a client connects.
    public static func forClient() -> String {
        if let path = environment("HEADWAY_SOCKET") { return path }
        if access(system, F_OK) == 0 { return system }
        return user ?? system
    }
}
