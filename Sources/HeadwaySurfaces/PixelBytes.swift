/// Comparisons of pictures' bytes, eight bytes at a time: a frame that changed nothing costs a
/// glance, not a byte-by-byte pass over a 150 KB colour picture.
public enum PixelBytes {
    /// Whether `a` and `b` hold the same bytes.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        // The same storage (a picture compared with itself, or a copy not yet written to).
        if a.withUnsafeBufferPointer({ $0.baseAddress }) == b.withUnsafeBufferPointer({ $0.baseAddress }) { return true }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                var offset = 0
                while offset + 32 <= a.count {
                    var difference: UInt64 = 0
                    for word in 0..<4 {
                        difference |= a.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self)
                    }
                    if difference != 0 { return false }
                    offset += 32
                }
                while offset < a.count {
                    if a[offset] != b[offset] { return false }
                    offset += 1
                }
                return true
            }
        }
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
