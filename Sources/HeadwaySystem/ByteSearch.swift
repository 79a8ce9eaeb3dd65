import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's search for a byte (memchr(3), memrchr(3)): vectorised by the C library, so as
/// fast in a debug build as in a release one, at many gigabytes a second.
package enum ByteSearch {
    /// The first `byte` in `bytes[from..<to]`.
    package static func first(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        return memchr(base + from, Int32(byte), to - from).map { UnsafeRawPointer($0) - base }
    }

    /// The last `byte` in `bytes[from..<to]`.
    package static func last(_ byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        return hw_memrchr(base + from, Int32(byte), UInt(to - from)).map { $0 - base }
    }
}
