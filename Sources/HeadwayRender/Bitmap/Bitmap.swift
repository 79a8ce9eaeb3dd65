/// A 1-bit picture for monochrome displays, with damage tracking.
///
/// Pixels are stored as monochrome OLED controllers hold them: in horizontal bands of 8 rows
/// ("pages"), one byte per column per band, least significant bit at the top. Drivers can then send
/// bytes without repacking, and a diff compares whole bytes.
///
/// ``damage`` is the bounding box of the pixels that really changed since ``clearDamage()`` (writing
/// a pixel with the value it already has does not count), so a caller can skip frames where nothing
/// changed and send only the part that did.
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `pages × width` bytes: byte `page * width + x` holds rows `8·page … 8·page+7` of column `x`.
    public private(set) var bytes: [UInt8]
    /// Where pixels changed since the last ``clearDamage()``; `nil` when nothing did.
    public private(set) var damage: PixelRect?

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a bitmap needs a positive size")
        self.width = width
        self.height = height
        bytes = Array(repeating: 0, count: width * ((height + 7) / 8))
    }

    public var pages: Int { (height + 7) / 8 }
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The pixel at (`x`, `y`); pixels outside the bitmap read as off and ignore writes.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return false }
            return bytes[(y >> 3) * width + x] & (1 << UInt8(y & 7)) != 0
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let index = (y >> 3) * width + x
            let mask: UInt8 = 1 << UInt8(y & 7)
            let old = bytes[index]
            let new = newValue ? old | mask : old & ~mask
            guard new != old else { return }
            bytes[index] = new
            markDamaged(PixelRect(x: x, y: y, width: 1, height: 1))
        }
    }

    /// Forgets the damage recorded so far (call after the picture has been sent).
    public mutating func clearDamage() { damage = nil }

    private mutating func markDamaged(_ rect: PixelRect) {
        damage = damage.map { $0.union(rect) } ?? rect
    }

    /// Sets every pixel of `rect` (clipped to the bitmap) to `on`.
    public mutating func fill(_ rect: PixelRect, on: Bool = true) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = on }
        }
    }

    /// Turns every pixel off.
    public mutating func clear() { fill(bounds, on: false) }

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
    /// Becomes `other` (same size), recording as damage only the bytes that really differ: render each
    /// frame into a scratch bitmap, then update the shown one with it.
    public mutating func update(to other: Bitmap) {
        precondition(other.width == width && other.height == height, "bitmaps differ in size")
        for page in 0..<pages {
            let row = page * width
            var first = -1, last = -1
            for x in 0..<width where bytes[row + x] != other.bytes[row + x] {
                if first < 0 { first = x }
                last = x
            }
            guard first >= 0 else { continue }
            let changed = bytes[row + first...row + last].indices.reduce(UInt8(0)) { $0 | (bytes[$1] ^ other.bytes[$1]) }
            let top = changed.trailingZeroBitCount, bottom = 7 - changed.leadingZeroBitCount
            for x in first...last { bytes[row + x] = other.bytes[row + x] }
            markDamaged(PixelRect(x: first, y: page * 8 + top, width: last - first + 1, height: bottom - top + 1))
        }
    }
}
