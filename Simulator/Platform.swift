// Every call into the C library that HeadwaySimulator makes is in this file: the terminal, and the
// sleep of a driver's wait on a running clock.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

enum Platform {
    static let standardOutput = STDOUT_FILENO

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Sleeps at least `seconds`.
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// An environment variable, `nil` when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

    /// The terminal's width in columns, when `fd` is a terminal that says.
    static func terminalColumns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes all of `bytes` to `fd`; stops quietly when the terminal went away.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
