import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Searches for bytes in C: the C library's memchr(3) and memrchr(3) for one byte, and a small
/// vector loop of our own for any of a few (one pass, where a memchr a byte would make several) —
/// as fast in a debug build as in a release one, at gigabytes a second.
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

    /// The first place in `bytes[from..<to]` holding one of `set` (1…8 bytes), in one pass.
    package static func first(of set: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        let place = set.withUnsafeBufferPointer { hw_first_of_any(base.assumingMemoryBound(to: UInt8.self) + from, UInt(to - from), $0.baseAddress, Int32($0.count)) }
        return place < 0 ? nil : from + place
    }

    /// The last place in `bytes[from..<to]` holding one of `set` (1…8 bytes), in one pass.
    package static func last(of set: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        let place = set.withUnsafeBufferPointer { hw_last_of_any(base.assumingMemoryBound(to: UInt8.self) + from, UInt(to - from), $0.baseAddress, Int32($0.count)) }
        return place < 0 ? nil : from + place
    }
}
