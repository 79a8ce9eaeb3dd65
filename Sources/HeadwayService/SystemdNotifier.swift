import Headway
import HeadwayProtocol
import HeadwaySystem

/// sd_notify without libsystemd: one datagram to `$NOTIFY_SOCKET`. Does nothing when not started
/// by systemd with `Type=notify` or `Type=notify-reload`.
struct SystemdNotifier {
    private let path = SystemIO.environment("NOTIFY_SOCKET")
    /// Half of `$WATCHDOG_USEC`, when systemd asked for keep-alives.
    let watchdogInterval: Double? = SystemIO.environment("WATCHDOG_USEC").flatMap(Double.init).map { $0 / 2_000_000 }

    func notify(_ message: String) {
        guard let path else { return }
        UnixSocket.sendDatagram(message, to: path)
    }

    /// A one-line status for `systemctl status`, made safe to show.
    func status(_ text: String) { notify("STATUS=" + DisplayText.sanitised(text)) }
}
