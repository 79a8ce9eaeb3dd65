/// A 1-bit picture for monochrome displays.
///
/// Pixels are stored as monochrome OLED controllers hold them: in horizontal bands of 8 rows
/// ("pages"), one byte per column per band, least significant bit at the top. Drivers can then send
/// bytes without repacking, and a diff compares whole bytes. A bitmap is only a picture: what a
/// display already shows, and so what needs sending, is its driver's business.
public struct Bitmap: Sendable, Equatable {
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// `pages × width` bytes: byte `page * width + x` holds rows `8·page … 8·page+7` of column `x`.
    public private(set) var bytes: [UInt8]

    /// A blank picture of `width` × `height` pixels (both above 0).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a bitmap needs a positive size")
        self.width = width
        self.height = height
        bytes = Array(repeating: 0, count: width * ((height + 7) / 8))
    }

    /// How many 8-row bands the picture has.
    public var pages: Int { (height + 7) / 8 }
    /// The whole picture as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Whether no pixel is lit.
    public var isBlank: Bool { !bytes.contains { $0 != 0 } }

    /// The pixel at (`x`, `y`); pixels outside the bitmap read as off and ignore writes.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            return bytes[(y >> 3) * width + x] & (1 << UInt8(y & 7)) != 0
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let mask: UInt8 = 1 << UInt8(y & 7)
            if newValue { bytes[(y >> 3) * width + x] |= mask } else { bytes[(y >> 3) * width + x] &= ~mask }
        }
    }

    /// Sets every pixel of `rect` (clipped to the bitmap) to `on`, a page byte at a time.
    public mutating func fill(_ rect: PixelRect, on: Bool = true) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        var y = area.y
        while y < area.maxY {
            let page = y >> 3
            let last = min(area.maxY, (page + 1) << 3)
            // The rows y..<last of this page, as a byte mask.
            let mask = UInt8(truncatingIfNeeded: (0xFF << (y & 7)) & (0xFF >> (8 - (last - (page << 3)))))
            let row = page * width
            for x in area.x..<area.maxX {
                if on { bytes[row + x] |= mask } else { bytes[row + x] &= ~mask }
            }
            y = last
        }
    }

    /// Sets one column's pixels from row `y` down: bit n of `bits` is row `y + n` (clipped to the
    /// bitmap). Text is drawn a column at a time: a few byte operations per glyph column instead of
    /// one per pixel.
    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, on: Bool = true) {
        guard x >= 0, x < width, bits != 0, y < height else { return }
        var bits = bits
        var row = y
        if row < 0 {
            guard row > -64 else { return }
            bits >>= UInt64(-row)
            row = 0
        }
        let rowsLeft = height - row
        if rowsLeft < 64 { bits &= (1 << UInt64(rowsLeft)) - 1 }
        while bits != 0 {
            let shift = row & 7
            let byte = UInt8(truncatingIfNeeded: bits << UInt64(shift))
            let index = (row >> 3) * width + x
            if on { bytes[index] |= byte } else { bytes[index] &= ~byte }
            bits >>= UInt64(8 - shift)
            row += 8 - shift
        }
    }

    /// Turns every pixel off.
    public mutating func clear() {
        for index in bytes.indices { bytes[index] = 0 }
    }

    /// The number of lit pixels in `rect` (default: all), for tests and statistics.
    public func litCount(in rect: PixelRect? = nil) -> Int {
        let area = (rect ?? bounds).intersection(bounds)
        var count = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX where self[x, y] { count += 1 }
        }
        return count
    }
}

extension Bitmap {
    /// The same size and pixels, compared a word at a time: pictures are compared every frame.
    public static func == (a: Bitmap, b: Bitmap) -> Bool {
        a.width == b.width && a.height == b.height && PixelBytes.equal(a.bytes, b.bytes)
    }
}
