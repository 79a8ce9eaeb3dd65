import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SystemIO {
    /// What moving bytes from one descriptor to another inside the kernel did.
    package enum SpliceResult: Equatable {
        /// This many bytes went.
        case moved(Int)
        /// The input ended.
        case end
        /// These two descriptors cannot be spliced (neither is a pipe; a terminal; a file opened
        /// for appending): read and write instead.
        case unsupported
        /// It failed (EPIPE: the output's reader is gone).
        case failed(SystemError)
    }

    /// Moves up to `count` bytes from `source` to `destination` without copying them through this
    /// process (splice(2), one of the two a pipe), waiting as a read and a write would.
    package static func splice(from source: Int32, to destination: Int32, count: Int) -> SpliceResult {
        while true {
            let moved = hw_splice(source, destination, UInt(count))
            if moved > 0 { return .moved(moved) }
            if moved == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EINVAL: return .unsupported
            case let code: return .failed(SystemError(code))
            }
        }
    }

    /// Asks for the pipe `fd` to hold `bytes` (F_SETPIPE_SZ; the system allows up to
    /// /proc/sys/fs/pipe-max-size, 1 MiB by default): a fast writer then wakes its reader once a
    /// megabyte rather than every 64 KiB. A refusal leaves the pipe as it was.
    package static func enlargePipe(_ fd: Int32, to bytes: Int) { _ = hw_set_pipe_size(fd, Int32(clamping: bytes)) }

    /// Whether `a` and `b` are the same open file, screen or pipe (`2>&1`, one terminal).
    package static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        guard let first = Files.status(ofDescriptor: a), let second = Files.status(ofDescriptor: b) else { return false }
        return first.device == second.device && first.inode == second.inode
    }
}
