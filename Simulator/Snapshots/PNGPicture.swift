import HeadwayDevices

/// PNG files of colour pictures (a TFT's glass), written without a compression library: the image
/// data goes into the zlib stream as one block of fixed Huffman codes matched against the pixel
/// before and the row above (Deflate.swift), which every PNG reader takes. A 320 x 240 glass of a
/// progress screen is a few kB.
public enum PNGPicture {
    /// A `width` x `height` RGB picture of `pixels` (row-major) as a PNG file: 8 bits a channel,
    /// colour type 2, no interlace, filter type 0 on every row.
    public static func encode(width: Int, height: Int, pixels: [RGB8]) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "one pixel per position of a non-empty picture")
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]  // §5.2 signature
        // §11.2.2 IHDR: width, height, bit depth 8, colour type 2 (truecolour), compression 0,
        // filter method 0, interlace method 0.
        append(chunk: "IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], to: &file)
        append(chunk: "IDAT", zlib(scanlines(width: width, height: height, pixels: pixels), rowLength: 1 + 3 * width), to: &file)
        append(chunk: "IEND", [], to: &file)
        return file
    }

    /// A TFT glass as a PNG file.
    public static func png(_ glass: TFTGlass) -> [UInt8] {
        encode(width: glass.width, height: glass.height, pixels: glass.pixels)
    }

    /// Each row behind its filter-type byte 0 ("None", §9.2).
    private static func scanlines(width: Int, height: Int, pixels: [RGB8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            raw.append(0)
            for pixel in pixels[(y * width)..<((y + 1) * width)] { raw += [pixel.red, pixel.green, pixel.blue] }
        }
        return raw
    }

    /// A zlib stream (RFC 1950) of `data`: header 78h 01h (deflate, 32 K window, a check value
    /// divisible by 31), the deflate block, then Adler-32 of `data`, most significant byte first.
    private static func zlib(_ data: [UInt8], rowLength: Int) -> [UInt8] {
        [0x78, 0x01] + Deflate.compress(data, pixel: 3, row: rowLength) + bigEndian(PNGChecksums.adler32(data))
    }

    /// A chunk (§5.3): length, type, data, and CRC-32 over type and data.
    private static func append(chunk type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file += bigEndian(UInt32(data.count)) + typeBytes + data
        file += bigEndian(PNGChecksums.crc32(data, continuing: PNGChecksums.crc32(typeBytes)))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
