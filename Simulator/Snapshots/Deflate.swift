/// A small deflate compressor (RFC 1951) for the PNG writer: one block of fixed Huffman codes
/// (§3.2.6), matching each position only against the byte before it, the pixel before it and the
/// row above (the runs of black and the repeated rows a display's glass is mostly made of). A
/// 320 x 240 glass shrinks from 231 kB to a few kB; any zlib reads it.
enum Deflate {
    /// `data` as one final fixed-Huffman block; `pixel` and `row` are the distances tried besides 1.
    static func compress(_ data: [UInt8], pixel: Int, row: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let distances = Array(Set([1, pixel, row].filter { $0 > 0 && $0 <= 32768 })).sorted()
        var index = 0
        data.withUnsafeBufferPointer { data in
            while index < data.count {
                var best = 0, bestDistance = 0
                for distance in distances where distance <= index {
                    var length = 0
                    let limit = min(258, data.count - index)
                    while length < limit, data[index + length] == data[index + length - distance] { length += 1 }
                    if length > best { (best, bestDistance) = (length, distance) }
                }
                if best >= 3 {
                    writeLength(best, &bits)
                    writeDistance(bestDistance, &bits)
                    index += best
                } else {
                    writeSymbol(Int(data[index]), &bits)
                    index += 1
                }
            }
        }
        writeSymbol(256, &bits)
        return bits.finish()
    }

    /// A literal/length symbol's fixed code, most significant bit first (§3.2.6).
    private static func writeSymbol(_ symbol: Int, _ bits: inout BitWriter) {
        switch symbol {
        case 0...143: bits.writeCode(0x30 + symbol, count: 8)
        case 144...255: bits.writeCode(0x190 + symbol - 144, count: 9)
        case 256...279: bits.writeCode(symbol - 256, count: 7)
        default: bits.writeCode(0xC0 + symbol - 280, count: 8)
        }
    }

    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                                        6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// A match's length: its code (257…285) and extra bits, least significant first (§3.2.5).
    private static func writeLength(_ length: Int, _ bits: inout BitWriter) {
        let code = length == 258 ? 28 : lengthBases.lastIndex { $0 <= length }!
        writeSymbol(257 + code, &bits)
        bits.write(UInt32(length - lengthBases[code]), count: lengthExtra[code])
    }

    /// A match's distance: its five-bit code and extra bits.
    private static func writeDistance(_ distance: Int, _ bits: inout BitWriter) {
        let code = distanceBases.lastIndex { $0 <= distance }!
        bits.writeCode(code, count: 5)
        bits.write(UInt32(distance - distanceBases[code]), count: distanceExtra[code])
    }

    /// Bits packed into bytes from the least significant bit (§3.1.1).
    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var buffer: UInt32 = 0
        private var used = 0

        /// `count` bits of `value`, least significant first (header fields and extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            guard count > 0 else { return }
            buffer |= (value & ((1 << UInt32(count)) - 1)) << UInt32(used)
            used += count
            while used >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                used -= 8
            }
        }

        /// A Huffman code of `count` bits, most significant first.
        mutating func writeCode(_ code: Int, count: Int) {
            var reversed: UInt32 = 0
            for bit in 0..<count where code & (1 << (count - 1 - bit)) != 0 { reversed |= 1 << UInt32(bit) }
            write(reversed, count: count)
        }

        /// The bytes, the last one padded with zeros.
        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            used = 0
            return bytes
        }
    }
}
