import HeadwaySurfaces

/// Turns a picture into the bytes the controller's RAM holds for the glass, in rows of bytes
/// (``OLEDAddressing``): a ``Bitmap``'s bytes are already pages and a ``Greymap``'s already
/// 4-bit rows, so only a quarter turn (which the driver does) or a picture of the other depth
/// needs work.
struct OLEDRAMImage {
    let configuration: OLEDConfiguration

    func bytes(of bitmap: Bitmap) -> [UInt8] {
        let glass = configuration.rotation.swapsAxes ? Self.quarterTurned(bitmap) : bitmap
        return configuration.variant.addressing.isGreyscale ? Greymap(glass).bytes : glass.bytes
    }

    func bytes(of greymap: Greymap) -> [UInt8] {
        let glass = configuration.rotation.swapsAxes ? Self.quarterTurned(greymap) : greymap
        return configuration.variant.addressing.isGreyscale ? glass.bytes : glass.bitmap().bytes
    }

    /// Whether two RAM pictures are the same, compared eight bytes at a time (a frame that changed
    /// nothing costs a glance, not a byte-by-byte pass over 8 KB).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                var offset = 0
                while offset + 8 <= a.count {
                    if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                    offset += 8
                }
                while offset < a.count {
                    if a[offset] != b[offset] { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    /// The picture turned a quarter clockwise: its top row becomes the glass's right column.
    static func quarterTurned(_ picture: Bitmap) -> Bitmap {
        var glass = Bitmap(width: picture.height, height: picture.width)
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture[x, y] { glass[picture.height - 1 - y, x] = true }
        }
        return glass
    }

    static func quarterTurned(_ picture: Greymap) -> Greymap {
        var glass = Greymap(width: picture.height, height: picture.width)
        for y in 0..<picture.height {
            for x in 0..<picture.width { glass[picture.height - 1 - y, x] = picture[x, y] }
        }
        return glass
    }
}
