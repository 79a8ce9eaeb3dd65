#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// sd_notify without libsystemd: one datagram to `$NOTIFY_SOCKET` (a leading `@` is the abstract
/// namespace). Does nothing when not started by systemd with `Type=notify`.
struct SystemdNotifier {
    private let path: String?
    /// Half of `$WATCHDOG_USEC`, when systemd asked for keep-alives.
    let watchdogInterval: Double?

    init() {
        path = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        let usec = getenv("WATCHDOG_USEC").map { String(cString: $0) }.flatMap(Double.init)
        watchdogInterval = usec.map { $0 / 2_000_000 }
    }

    func notify(_ message: String) {
        guard let path, !path.isEmpty else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = byte }
            if bytes.first == UInt8(ascii: "@") { buffer[0] = 0 }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == UInt8(ascii: "@") ? 0 : 1))
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, text, strlen(text), 0, $0, length) }
            }
        }
    }
}
