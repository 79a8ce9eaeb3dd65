import HeadwayProtocol
import HeadwaySystem

/// Where a service keeps what it learns (durations of past runs) when its configuration does not
/// say: systemd's `StateDirectory=` (`$STATE_DIRECTORY`), `/var/lib/NAME` for root, else
/// `$XDG_STATE_HOME/NAME` or `~/.local/state/NAME`.
public enum StateDirectory {
    /// The state folder of a service called `name`, nil when nothing says where.
    public static func standard(for name: String) -> String? {
        if let systemd = SystemIO.environment("STATE_DIRECTORY") { return systemd.split(separator: ":").first.map(String.init) }
        if Processes.userID == 0 { return "/var/lib/\(name)" }
        if let state = SystemIO.environment("XDG_STATE_HOME") { return "\(state)/\(name)" }
        return SystemIO.environment("HOME").map { "\($0)/.local/state/\(name)" }
    }
}
