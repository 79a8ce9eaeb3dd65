import HeadwayDevices

/// PNG files of colour pictures (a TFT's glass), written without a compression library: the image
/// data goes into the zlib stream as stored (uncompressed) deflate blocks, which every PNG reader
/// takes. A 320 x 240 glass is about 231 kB.
public enum PNGPicture {
    /// A `width` x `height` RGB picture of `pixels` (row-major) as a PNG file: 8 bits a channel,
    /// colour type 2, no interlace, filter type 0 on every row.
    public static func encode(width: Int, height: Int, pixels: [RGB8]) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "one pixel per position of a non-empty picture")
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]  // §5.2 signature
        // §11.2.2 IHDR: width, height, bit depth 8, colour type 2 (truecolour), compression 0,
        // filter method 0, interlace method 0.
        append(chunk: "IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], to: &file)
        append(chunk: "IDAT", zlibStored(scanlines(width: width, height: height, pixels: pixels)), to: &file)
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

    /// A zlib stream (RFC 1950) of `data` in stored deflate blocks (RFC 1951 §3.2.4): header 78h 01h
    /// (deflate, 32 K window, a check value divisible by 31), blocks of at most 65,535 bytes each
    /// with BFINAL on the last, BTYPE 00, LEN and its one's complement NLEN, least significant byte
    /// first; then Adler-32 of `data`, most significant byte first.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final = offset + length == data.count
            stream.append(final ? 0x01 : 0x00)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            stream += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        return stream + bigEndian(PNGChecksums.adler32(data))
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
