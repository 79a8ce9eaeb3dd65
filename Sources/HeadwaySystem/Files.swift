#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags | O_CLOEXEC, mode) }
private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func cLink(_ from: String, _ to: String) -> Int32 { link(from, to) }

/// Files by path: read whole or in part, written whole or replaced, asked about, linked and removed.
package enum Files {
    /// The file at `path`, at most its first `limit` bytes; nil when it cannot be read.
    package static func read(_ path: String, limit: Int = .max) -> [UInt8]? {
        let fd = SystemIO.open(path, for: .read)
        guard fd >= 0 else { return nil }
        defer { SystemIO.close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: min(65536, max(1, limit)))
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }

    /// What a bounded read of a file that must be a regular one found.
    package enum RegularRead: Sendable, Equatable {
        /// Its bytes: all of them, or the first `limit` (more than `limit - 1` means it is larger).
        case bytes([UInt8])
        /// The path names something else: a folder, a FIFO, a device, a socket.
        case notRegular(FileStatus.Kind)
        /// It could not be opened or read.
        case failed(SystemError)
    }

    /// The regular file at `path`, at most `limit` bytes of it: its bytes, or what is wrong in
    /// words (that it is missing, unreadable, a folder, a FIFO, a device, larger than the limit).
    package static func readBounded(_ path: String, limit: Int) -> Result<[UInt8], BoundedReadProblem> {
        switch readRegular(path, limit: limit + 1) {
        case .bytes(let bytes) where bytes.count > limit: .failure(.tooLarge(limit: limit))
        case .bytes(let bytes): .success(bytes)
        case .notRegular(let kind): .failure(.notRegular(kind))
        case .failed(let error) where error.code == ENOENT: .failure(.missing)
        case .failed(let error) where error.code == EACCES: .failure(.notPermitted)
        case .failed(let error): .failure(.failed(error))
        }
    }

    /// The regular file at `path`, at most its first `limit` bytes. The file is opened without
    /// blocking and looked at before anything is read, so a FIFO, `/dev/zero` or a terminal is
    /// refused at once instead of blocking or reading for ever.
    package static func readRegular(_ path: String, limit: Int) -> RegularRead {
        let fd = cOpen(path, O_RDONLY | O_NONBLOCK, 0)
        guard fd >= 0 else { return .failed(SystemError.last) }
        guard let status = status(ofDescriptor: fd) else {
            let error = SystemError.last
            SystemIO.close(fd)
            return .failed(error)
        }
        guard status.kind == .regularFile else {
            SystemIO.close(fd)
            return .notRegular(status.kind)
        }
        defer { SystemIO.close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: min(65536, max(1, limit)))
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .failed(SystemError.last) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return .bytes(bytes)
    }

    /// The first line of a small file (a password file, a sysfs or module parameter) within its
    /// first 1024 bytes, without its line break (CR or LF); "" for an empty file, nil when it
    /// cannot be read.
    package static func firstLine(of path: String) -> String? {
        guard let bytes = read(path, limit: 1024) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }

    /// Opens `path` for writing, created (0666 less the umask) or emptied; -1 with
    /// ``SystemError/last`` set when it cannot be.
    package static func create(_ path: String) -> Int32 { cOpen(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666) }

    /// Writes `bytes` as the whole file at `path`, created or emptied in place.
    package static func write(_ path: String, _ bytes: [UInt8]) throws(SystemError) {
        let fd = create(path)
        guard fd >= 0 else { throw SystemError.last }
        defer { SystemIO.close(fd) }
        guard SystemIO.writeAll(fd, bytes[...]) else { throw SystemError.last }
    }

    /// Replaces the file at `path` with `bytes` (0644), through a new file renamed over it: a crash
    /// leaves the old file or the new one, never half of it.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(SystemError) {
        let staging = path + ".\(getpid()).new"
        let fd = cOpen(staging, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw SystemError.last("cannot write \(staging)") }
        let written = SystemIO.writeAll(fd, bytes[...]) && fsync(fd) == 0
        let code = errno
        SystemIO.close(fd)
        guard written, rename(staging, path) == 0 else {
            let reason = written ? errno : code
            remove(staging)
            throw SystemError(reason, context: "cannot write \(path)")
        }
        // The rename itself is durable once the folder is: a power cut then keeps the new file.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let directory = cOpen(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY, 0)
        if directory >= 0 {
            _ = fsync(directory)
            SystemIO.close(directory)
        }
    }

    /// Opens `path` for appending, created (0644) when missing; -1 with ``SystemError/last`` set
    /// when it cannot be.
    package static func openAppending(_ path: String) -> Int32 { cOpen(path, O_WRONLY | O_CREAT | O_APPEND, 0o644) }

    /// Makes what was written to `fd` durable (its data, and its size): false when the disk refused.
    package static func syncData(_ fd: Int32) -> Bool { fdatasync(fd) == 0 }

    /// Cuts the file open as `fd` to `length` bytes.
    package static func truncate(_ fd: Int32, to length: Int) -> Bool { ftruncate(fd, off_t(length)) == 0 }

    /// Removes the name `path` (a file, a socket, a link); nothing when there is none.
    package static func remove(_ path: String) { _ = unlink(path) }

    /// Makes `link` a second name of the file `path`. Never replaces: when something is at `link`
    /// already, that stays and this fails (EEXIST).
    package static func link(_ path: String, as link: String) throws(SystemError) {
        guard cLink(path, link) == 0 else { throw SystemError.last }
    }

    /// Whether something is at `path` (a symbolic link counts by what it points to).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may open `path` for `wanted`.
    package static func mayOpen(_ path: String, for wanted: FileAccess) -> Bool {
        switch wanted {
        case .read: access(path, R_OK) == 0
        case .write: access(path, W_OK) == 0
        case .readWrite: access(path, R_OK | W_OK) == 0
        }
    }

    /// Where the symbolic link at `path` points, nil when it is not one.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

/// Why a file could not be read within its bound.
package enum BoundedReadProblem: Error, Sendable, Equatable {
    case missing
    case notPermitted
    case notRegular(FileStatus.Kind)
    case tooLarge(limit: Int)
    case failed(SystemError)

    /// In words that follow "cannot read FILE: ".
    package var reason: String {
        switch self {
        case .missing: "there is no such file"
        case .notPermitted: "this user may not read it (check its permissions and owner)"
        case .notRegular(let kind): "it is \(kind.described), not a regular file"
        case .tooLarge(let limit): "it is larger than \(limit) bytes"
        case .failed(let error): "it cannot be read: \(error.text)"
        }
    }
}
