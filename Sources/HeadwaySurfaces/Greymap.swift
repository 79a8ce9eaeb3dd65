/// A picture with 16 grey levels a pixel (0 off … 15 full), for greyscale displays.
///
/// Pixels are stored as a 4-bit greyscale controller (SSD1327) holds them in its RAM: row by row,
/// two pixels a byte, the left pixel of each pair in the low nibble. A driver can then send rows
/// without repacking, and a diff compares whole bytes. Like ``Bitmap``, it is only a picture.
public struct Greymap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `height × bytesPerRow` bytes: byte `y * bytesPerRow + x / 2` holds pixels `x & ~1` (bits 3…0)
    /// and `x | 1` (bits 7…4) of row `y`.
    public private(set) var bytes: [UInt8]

    /// The brightest level.
    public static let maxLevel: UInt8 = 15

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a greymap needs a positive size")
        self.width = width
        self.height = height
        bytes = Array(repeating: 0, count: height * ((width + 1) / 2))
    }

    /// The same picture, each lit pixel at `level`.
    public init(_ bitmap: Bitmap, level: UInt8 = Greymap.maxLevel) {
        self.init(width: bitmap.width, height: bitmap.height)
        for y in 0..<height {
            for x in 0..<width where bitmap[x, y] { self[x, y] = level }
        }
    }

    public var bytesPerRow: Int { (width + 1) / 2 }
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Whether every pixel is off.
    public var isBlank: Bool { !bytes.contains { $0 != 0 } }

    /// The level at (`x`, `y`), 0…15; pixels outside read as 0 and ignore writes. Levels above 15
    /// are stored as 15.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            let byte = bytes[y * bytesPerRow + x >> 1]
            return x & 1 == 0 ? byte & 0x0F : byte >> 4
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let level = Swift.min(newValue, Self.maxLevel)
            let index = y * bytesPerRow + x >> 1
            bytes[index] = x & 1 == 0 ? (bytes[index] & 0xF0) | level : (bytes[index] & 0x0F) | level << 4
        }
    }

    /// Sets every pixel of `rect` (clipped) to `level`.
    public mutating func fill(_ rect: PixelRect, level: UInt8) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = level }
        }
    }

    /// Turns every pixel off.
    public mutating func clear() {
        for index in bytes.indices { bytes[index] = 0 }
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
