// Every call into the C library that HeadwaySimulator makes is in this file: the terminal, the
// sleep of a driver's wait on a running clock, and the files of snapshots and captures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags | O_CLOEXEC, mode) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }

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

    /// Writes all of `bytes` to `fd`; stops quietly (false) when the terminal went away or the
    /// file takes no more.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// The reason of the last failed call, as strerror words it.
    static var lastError: String { String(cString: strerror(errno)) }

    /// Makes the folder `path` and any missing folders above it.
    static func makeFolders(_ path: String) throws(SnapshotError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            partial += "/" + part
            if mkdir(partial, 0o777) != 0, errno != EEXIST {
                throw SnapshotError(path: path, reason: "cannot create the folder (\(lastError))")
            }
        }
    }

    /// Opens `path` for writing, created or emptied; -1 when it cannot be.
    static func create(_ path: String) -> Int32 { cOpen(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666) }

    static func close(_ fd: Int32) { _ = cClose(fd) }

    /// Writes `bytes` as the whole file at `path`.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(SnapshotError) {
        let fd = create(path)
        guard fd >= 0 else { throw SnapshotError(path: path, reason: "cannot write the file (\(lastError))") }
        defer { close(fd) }
        guard writeAll(fd, bytes) else { throw SnapshotError(path: path, reason: "cannot write the file (\(lastError))") }
    }
}
