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
        out.storage.withUnsafeMutableBufferPointer { out in
            storage.withUnsafeBufferPointer { source in
                for row in 0..<self.height {
                    let start = row * from, target = (row + y) * to + half
                    if x & 1 == 0 {
                        for index in 0..<from { out[target + index] = source[start + index] }
                    } else {
                        // One pixel along: a byte's left pixel becomes the right one of the byte it
                        // lands in, its right pixel the left one of the next.
                        for index in 0..<from {
                            let byte = source[start + index]
                            out[target + index] |= byte << 4
                            if byte >> 4 != 0 { out[target + index + 1] |= byte >> 4 }
                        }
                    }
                }
            }
        }
        return out
    }
}
