/// A picture put at a place on a larger blank one: how a display's picture is moved about the
/// glass to spare its pixels (the picture is drawn a little smaller than the glass, then placed).
extension Bitmap {
    /// This bitmap with its top-left corner at (`x`, `y`) of a blank `width` × `height` bitmap; it
    /// must fit there whole.
    public func placed(onWidth width: Int, height: Int, x: Int, y: Int) -> Bitmap {
        precondition(x >= 0 && y >= 0 && x + self.width <= width && y + self.height <= height, "the picture must fit where it is placed")
        var out = Bitmap(width: width, height: height)
        // A column at a time, 8 pages (64 rows) per write: `setColumn` shifts the bits to row y.
        for column in 0..<self.width {
            var page = 0
            while page < pages {
                var bits: UInt64 = 0
                for k in 0..<min(8, pages - page) { bits |= UInt64(bytes[(page + k) * self.width + column]) << UInt64(8 * k) }
                out.setColumn(x + column, from: y + page * 8, bits: bits)
                page += 8
            }
        }
        return out
    }
}

extension Greymap {
    /// This greymap with its top-left corner at (`x`, `y`) of a blank `width` × `height` greymap;
    /// it must fit there whole.
    public func placed(onWidth width: Int, height: Int, x: Int, y: Int) -> Greymap {
        precondition(x >= 0 && y >= 0 && x + self.width <= width && y + self.height <= height, "the picture must fit where it is placed")
        var out = Greymap(width: width, height: height)
        let from = bytesPerRow, to = out.bytesPerRow, half = x >> 1
        out.storage.withUnsafeMutableBytes { out in
            storage.withUnsafeBytes { source in
                for row in 0..<self.height {
                    let start = row * from, target = (row + y) * to + half
                    if x & 1 == 0 {
                        out.baseAddress!.advanced(by: target).copyMemory(from: source.baseAddress!.advanced(by: start), byteCount: from)
                    } else {
                        Self.shiftByOnePixel(source.baseAddress!.advanced(by: start), into: out.baseAddress!.advanced(by: target), count: from)
                    }
                }
            }
        }
        return out
    }

    /// Copies `count` bytes of a row one pixel along: a byte's left pixel (its low nibble) becomes
    /// the right one (high nibble) of the byte it lands in, its right pixel the left one of the
    /// next (`count + 1` bytes written, the first's low nibble and the last's high one left blank).
    /// Eight bytes at a time: a row of the SSD1327 is 64 bytes.
    private static func shiftByOnePixel(_ source: UnsafeRawPointer, into target: UnsafeMutableRawPointer, count: Int) {
        var carry: UInt64 = 0
        var index = 0
        while index + 8 <= count {
            let word = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let high = (word >> 4) & 0x0F0F_0F0F_0F0F_0F0F
            let shifted = ((word << 4) & 0xF0F0_F0F0_F0F0_F0F0) | (high << 8) | carry
            target.storeBytes(of: shifted.littleEndian, toByteOffset: index, as: UInt64.self)
            carry = high >> 56
            index += 8
        }
        var last = UInt8(truncatingIfNeeded: carry)
        while index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            target.storeBytes(of: last | byte << 4, toByteOffset: index, as: UInt8.self)
            last = byte >> 4
            index += 1
        }
        if last != 0 { target.storeBytes(of: last, toByteOffset: count, as: UInt8.self) }
    }
}
