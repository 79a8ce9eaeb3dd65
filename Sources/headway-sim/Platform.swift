// Every call into the C library that headway-sim makes itself is in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

enum Platform {
    /// Sleeps `seconds` of real time, through interrupting signals.
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// Gives the terminal's cursor back if the program is interrupted with Ctrl-C.
    static func restoreCursorOnInterrupt() {
        signal(SIGINT) { _ in
            let show: StaticString = "\u{1B}[?25h\n"
            _ = cWrite(STDOUT_FILENO, show.utf8Start, show.utf8CodeUnitCount)
            _exit(130)
        }
    }

    /// Whether `path` itself (a symbolic link is not followed) is a folder, and its owner.
    static func node(_ path: String) -> (isFolder: Bool, owner: UInt32)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_mode & S_IFMT == S_IFDIR, status.st_uid)
    }
}
