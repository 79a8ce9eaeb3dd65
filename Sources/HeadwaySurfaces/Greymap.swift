/// A picture with 16 grey levels a pixel (0 off … 15 full), for greyscale displays.
///
/// Pixels are stored as a 4-bit greyscale controller (SSD1327) holds them in its RAM: row by row,
/// two pixels a byte, the left pixel of each pair in the low nibble. A driver can then send rows
/// without repacking, and a diff compares whole bytes. Like ``Bitmap``, it is only a picture.
public struct Greymap: Sendable, Equatable {
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// `height × bytesPerRow` bytes: byte `y * bytesPerRow + x / 2` holds pixels `x & ~1` (bits 3…0)
    /// and `x | 1` (bits 7…4) of row `y`.
    public var bytes: [UInt8] { storage }
    /// The bytes, for the drawing primitives that are inlined into the styles (text is most of
    /// a frame's drawing, a call per glyph column).
    @usableFromInline var storage: [UInt8]

    /// The brightest level.
    public static var maxLevel: UInt8 { 15 }

    /// A blank picture of `width` × `height` pixels (both above 0).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a greymap needs a positive size")
        self.width = width
        self.height = height
        storage = Array(repeating: 0, count: height * ((width + 1) / 2))
    }

    /// The same picture, each lit pixel at `level`.
    public init(_ bitmap: Bitmap, level: UInt8 = Greymap.maxLevel) {
        self.init(width: bitmap.width, height: bitmap.height)
        for y in 0..<height {
            for x in 0..<width where bitmap[x, y] { self[x, y] = level }
        }
    }

    /// Bytes in one row: two pixels a byte.
    @inlinable public var bytesPerRow: Int { (width + 1) / 2 }
    /// The whole picture as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Whether every pixel is off.
    public var isBlank: Bool { !bytes.contains { $0 != 0 } }

    /// The level at (`x`, `y`), 0…15; pixels outside read as 0 and ignore writes. Levels above 15
    /// are stored as 15.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            let byte = storage[y * bytesPerRow + x >> 1]
            return x & 1 == 0 ? byte & 0x0F : byte >> 4
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let level = Swift.min(newValue, Self.maxLevel)
            let index = y * bytesPerRow + x >> 1
            storage[index] = x & 1 == 0 ? (storage[index] & 0xF0) | level : (storage[index] & 0x0F) | level << 4
        }
    }

    /// Sets every pixel of `rect` (clipped) to `level`: whole bytes (two pixels) at a time, a
    /// nibble at an odd edge.
    public mutating func fill(_ rect: PixelRect, level: UInt8) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let level = Swift.min(level, Self.maxLevel)
        let pair = level | level << 4
        let stride = bytesPerRow
        storage.withUnsafeMutableBufferPointer { bytes in
            for y in area.y..<area.maxY {
                let row = y * stride
                var x = area.x
                if x & 1 == 1 {
                    bytes[row + x >> 1] = (bytes[row + x >> 1] & 0x0F) | level << 4
                    x += 1
                }
                while x + 1 < area.maxX {
                    bytes[row + x >> 1] = pair
                    x += 2
                }
                if x < area.maxX { bytes[row + x >> 1] = (bytes[row + x >> 1] & 0xF0) | level }
            }
        }
    }

    /// Sets one column's pixels from row `y` down to `level` where bit n of `bits` (row `y + n`)
    /// is set, clipped to the picture: text is drawn a glyph column at a time.
    @inlinable
    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8) {
        guard x >= 0, x < width else { return }
        let level = Swift.min(level, Self.maxLevel)
        let stride = bytesPerRow, height = self.height
        let high = x & 1 == 1
        let (keep, value) = high ? (UInt8(0x0F), level << 4) : (UInt8(0xF0), level)
        storage.withUnsafeMutableBufferPointer { bytes in
            var bits = bits
            while bits != 0 {
                let row = y + bits.trailingZeroBitCount
                bits &= bits - 1
                guard row >= 0, row < height else { continue }
                let index = row * stride + x >> 1
                bytes[index] = (bytes[index] & keep) | value
            }
        }
    }

    /// Turns every pixel off.
    public mutating func clear() {
        storage.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// The picture as on/off pixels: lit where the level is at least `threshold`.
    public func bitmap(threshold: UInt8 = 8) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where self[x, y] >= threshold { bitmap[x, y] = true }
        }
        return bitmap
    }
}

extension Greymap {
    /// The same size and pixels, compared a word at a time: pictures are compared every frame.
    public static func == (a: Greymap, b: Greymap) -> Bool {
        a.width == b.width && a.height == b.height && PixelBytes.equal(a.storage, b.storage)
    }
}
