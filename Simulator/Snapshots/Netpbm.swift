import HeadwayRender

/// Netpbm pictures: PPM (P6) for LED chains, one pixel per LED, and for colour TFTs' glass; PBM (P4)
/// for 1-bit displays; PGM (P5, 16 levels) for greyscale ones.
public enum Netpbm {
    /// A `count`x1 colour picture of the light each LED gives, as sRGB.
    public static func ppm(_ light: [LinearColour]) -> [UInt8] {
        var bytes = Array("P6\n\(light.count) 1\n255\n".utf8)
        for led in light {
            let colour = led.sRGB
            bytes += [colour.red, colour.green, colour.blue]
        }
        return bytes
    }

    /// A TFT's glass as a binary PPM: rows from the top, three bytes a pixel (its sRGB drive levels).
    public static func ppm(_ glass: TFTGlass) -> [UInt8] {
        var bytes = Array("P6\n\(glass.width) \(glass.height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + 3 * glass.pixels.count)
        for pixel in glass.pixels { bytes += [pixel.red, pixel.green, pixel.blue] }
        return bytes
    }

    /// A bitmap as a binary PBM: rows of packed bits, most significant bit leftmost, 1 = lit.
    public static func pbm(_ bitmap: Bitmap) -> [UInt8] {
        var bytes = Array("P4\n\(bitmap.width) \(bitmap.height)\n".utf8)
        let rowBytes = (bitmap.width + 7) / 8
        for y in 0..<bitmap.height {
            var row = Array(repeating: UInt8(0), count: rowBytes)
            for x in 0..<bitmap.width where bitmap[x, y] { row[x / 8] |= 0x80 >> UInt8(x % 8) }
            bytes += row
        }
        return bytes
    }

    /// A greymap as a binary PGM with maxval 15: one byte a pixel, its level.
    public static func pgm(_ greymap: Greymap) -> [UInt8] {
        var bytes = Array("P5\n\(greymap.width) \(greymap.height)\n15\n".utf8)
        bytes.reserveCapacity(bytes.count + greymap.width * greymap.height)
        for y in 0..<greymap.height {
            for x in 0..<greymap.width { bytes.append(greymap[x, y]) }
        }
        return bytes
    }

    /// Reads a PBM written by ``pbm(_:)`` back into a bitmap (for tests and for checking captures).
    public static func bitmap(fromPBM bytes: [UInt8]) -> Bitmap? {
        var fields: [String] = []
        var index = 0
        while fields.count < 3, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
            var field = ""
            while index < bytes.count, !(bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 || bytes[index] == 0x0D) {
                field.append(Character(Unicode.Scalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1  // the single whitespace before the raster
        guard fields.count == 3, fields[0] == "P4", let width = Int(fields[1]), let height = Int(fields[2]), width > 0, height > 0 else { return nil }
        let rowBytes = (width + 7) / 8
        guard bytes.count - index >= rowBytes * height else { return nil }
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where bytes[index + y * rowBytes + x / 8] & (0x80 >> UInt8(x % 8)) != 0 { bitmap[x, y] = true }
        }
        return bitmap
    }
}
