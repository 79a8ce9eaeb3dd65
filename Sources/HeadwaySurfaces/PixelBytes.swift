/// Comparisons of pictures' bytes, 32 bytes at a time: a frame that changed nothing costs a
/// glance, not a byte-by-byte pass over a 150 KB colour picture.
public enum PixelBytes {
    /// Whether `a` and `b` hold the same bytes.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        // The same storage (a picture compared with itself, or a copy not yet written to).
        if a.withUnsafeBufferPointer({ $0.baseAddress }) == b.withUnsafeBufferPointer({ $0.baseAddress }) { return true }
        let count = a.count
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return true }
                return same(a, b, count: count)
            }
        }
    }

    /// Whether `a` and `b` (pictures of one size, `bytesPerRow` bytes a row) hold the same bytes in
    /// `stretches`: the rest is known to be the same (``PictureDamage``).
    package static func equal(_ a: [UInt8], _ b: [UInt8], in stretches: [RowStretch], bytesPerRow: Int, bytesPerPixel: Int) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return true }
                return stretches.allSatisfy { stretch in
                    let start = stretch.row * bytesPerRow + stretch.first * bytesPerPixel
                    return same(a + start, b + start, count: (stretch.last - stretch.first + 1) * bytesPerPixel)
                }
            }
        }
    }

    /// Whether `count` bytes at `a` and `b` are the same, 32 bytes at a time.
    @inline(__always)
    package static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset &+ 32 <= count {
            let difference = (a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self))
                | (a.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self))
            if difference != 0 { return false }
            offset &+= 32
        }
        while offset &+ 8 <= count {
            if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset &+= 8
        }
        while offset < count {
            if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset &+= 1
        }
        return true
    }

    /// Whether every byte of `bytes` is zero.
    public static func isZero(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset + 8 <= bytes.count {
                if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != 0 { return false }
                offset += 8
            }
            return bytes[offset...].allSatisfy { $0 == 0 }
        }
    }
}
