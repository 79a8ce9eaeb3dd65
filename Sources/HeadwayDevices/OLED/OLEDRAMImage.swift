import HeadwaySurfaces

/// Turns a picture into the bytes the controller's RAM holds for the glass, in rows of bytes
/// (`OLEDAddressing`): a ``Bitmap``'s bytes are already pages and a ``Greymap``'s already
/// 4-bit rows, so only a quarter turn (which the driver does) or a picture of the other depth
/// needs work.
struct OLEDRAMImage {
    /// The driver turns the picture a quarter (the controller turns it by halves).
    let turnsQuarter: Bool
    let isGreyscale: Bool

    init(configuration: OLEDConfiguration) {
        turnsQuarter = configuration.rotation.swapsAxes
        isGreyscale = configuration.variant.addressing.isGreyscale
    }

    func bytes(of bitmap: Bitmap) -> [UInt8] {
        let glass = turnsQuarter ? Self.quarterTurned(bitmap) : bitmap
        return isGreyscale ? Greymap(glass).bytes : glass.bytes
    }

    func bytes(of greymap: Greymap) -> [UInt8] {
        let glass = turnsQuarter ? Self.quarterTurned(greymap) : greymap
        return isGreyscale ? glass.bytes : glass.bitmap().bytes
    }

    /// Whether every byte of a RAM picture is 0 (all pixels dark), read eight bytes at a time:
    /// the styles leave the top and bottom of tall glass dark, kilobytes before the first lit byte.
    static func isBlank(_ bytes: [UInt8]) -> Bool { PixelBytes.isZero(bytes) }

    /// Whether two RAM pictures are the same.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { PixelBytes.equal(a, b) }

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
