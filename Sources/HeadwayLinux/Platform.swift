// Every call into the C library that HeadwayLinux makes outside the C shim is in this file, and
// the error numbers the rest of the target reasons about are named here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags | O_CLOEXEC) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }

enum Platform {
    static let readWrite = O_RDWR
    static let writeOnly = O_WRONLY

    /// Opens a device node; -1 with ``lastError`` set on failure.
    static func open(_ path: String, _ flags: Int32) -> Int32 { cOpen(path, flags) }

    static func close(_ fd: Int32) { _ = cClose(fd) }

    /// One `write()` of all of `bytes`: the count written, or -1 with ``lastError`` set.
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress, $0.count) }
    }

    static var lastError: Int32 { errno }

    /// Sleeps at least `seconds` (nanosleep, resumed when a signal cuts it short).
    static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.towardZero)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// The C library's text for an error number, with the number.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }

    /// The names in a folder (nothing when it cannot be read).
    static func directoryEntries(_ path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may write `path`.
    static func writable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// The first line of a small text file (a sysfs or module parameter), if it can be read.
    static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 0x0A }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The error numbers Headway gives advice for.
enum Errno {
    static let notPermitted = EPERM
    static let noSuchFile = ENOENT
    static let ioError = EIO
    static let noSuchDeviceOrAddress = ENXIO
    static let tryAgain = EAGAIN
    static let permissionDenied = EACCES
    static let busy = EBUSY
    static let noDevice = ENODEV
    static let invalid = EINVAL
    static let notATerminal = ENOTTY
    static let messageTooLong = EMSGSIZE
    static let notSupported = EOPNOTSUPP
    static let shutDown = ESHUTDOWN
    static let timedOut = ETIMEDOUT
    static let remoteIO = EREMOTEIO
}
