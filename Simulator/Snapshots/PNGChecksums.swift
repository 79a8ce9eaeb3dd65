/// The two checksums a PNG file carries: CRC-32 over each chunk (PNG specification, W3C 2003,
/// §5.5 and Annex D) and Adler-32 at the end of the zlib stream (RFC 1950 §8.2).
package enum PNGChecksums {
    /// CRC-32 with the reflected polynomial EDB88320h, register starting at all ones and inverted at
    /// the end, as PNG Annex D's sample code computes it.
    package static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// Adler-32: two sums modulo 65521, the second over the running first (RFC 1950 §8.2).
    package static func adler32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var pending = 0
        for byte in bytes {
            a += UInt32(byte)
            b += a
            pending += 1
            // 5552 bytes is the most that cannot overflow 32 bits before the modulo (zlib's NMAX).
            if pending == 5552 {
                a %= 65521
                b %= 65521
                pending = 0
            }
        }
        return (b % 65521) << 16 | (a % 65521)
    }

    private static let table: [UInt32] = (0..<256).map { entry in
        var value = UInt32(entry)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
