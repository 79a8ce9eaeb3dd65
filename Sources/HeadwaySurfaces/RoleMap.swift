/// A picture whose pixels say what they show (a ``SurfaceRole``) and how much of the pixel it
/// covers (0…31): what the styles draw for a colour display. Colours are given afterwards, all at
/// once, by a look-up from the pixel's byte (``ColourPicture/init(_:format:lookup:)``): a style
/// draws shapes, not colours, and the one drawing serves 1-bit, grey and colour glass alike.
///
/// A byte a pixel, row by row: the role in bits 7…5, the level in bits 4…0. 32 levels are the
/// anti-aliasing a ring's or a glyph's edge gets against the background.
public struct RoleMap: Sendable, Equatable {
    /// The picture's width in pixels.
    public let width: Int
    /// The picture's height in pixels.
    public let height: Int
    /// `width × height` bytes, row by row: `role << 5 | level`.
    public var bytes: [UInt8] { storage }
    @usableFromInline var storage: [UInt8]

    /// The most a shape can cover a pixel.
    public static var maxLevel: UInt8 { 31 }

    /// A blank picture of `width` × `height` pixels (both above 0).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a role map needs a positive size")
        self.width = width
        self.height = height
        storage = Array(repeating: 0, count: width * height)
    }

    /// The whole picture as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The byte a pixel of `role` at `level` is stored as (level 0 is background, whatever the role).
    @inlinable
    public static func pixel(_ role: SurfaceRole, level: UInt8) -> UInt8 {
        let level = Swift.min(level, maxLevel)
        return level == 0 || role == .off ? 0 : role.rawValue << 5 | level
    }

    /// Runs `body` on the pixels' bytes (row by row, `role << 5 | level`), for drawing code that
    /// writes many pixels: one uniqueness check, then plain stores.
    @inlinable
    public mutating func withUnsafeMutablePixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// What pixel (`x`, `y`) shows; outside the picture, `.off`.
    public func role(x: Int, y: Int) -> SurfaceRole {
        guard x >= 0, y >= 0, x < width, y < height else { return .off }
        return SurfaceRole(rawValue: storage[y * width + x] >> 5) ?? .off
    }

    /// Whether every pixel is background.
    public var isBlank: Bool { !storage.contains { $0 != 0 } }
}

extension RoleMap: DisplaySurface {
    public static var takesColourFromRole: Bool { true }

    public func level(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return storage[y * width + x] & 0x1F
    }

    /// Sets a pixel to `level` as progress (a shape drawn without saying what it is).
    public mutating func setLevel(_ level: UInt8, x: Int, y: Int) { setLevel(level, x: x, y: y, role: .fill) }

    @inlinable
    public mutating func setLevel(_ level: UInt8, x: Int, y: Int, role: SurfaceRole) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        storage[y * width + x] = Self.pixel(role, level: level)
    }

    public mutating func fill(_ rect: PixelRect, level: UInt8) { fill(rect, level: level, role: .fill) }

    public mutating func fill(_ rect: PixelRect, level: UInt8, role: SurfaceRole) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let value = Self.pixel(role, level: level), stride = width
        storage.withUnsafeMutableBufferPointer { bytes in
            for y in area.y..<area.maxY {
                let row = y * stride
                for x in area.x..<area.maxX { bytes[row + x] = value }
            }
        }
    }

    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8) { setColumn(x, from: y, bits: bits, level: level, role: .fill) }

    @inlinable
    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8, role: SurfaceRole) {
        guard x >= 0, x < width else { return }
        let value = Self.pixel(role, level: level), stride = width, height = self.height
        storage.withUnsafeMutableBufferPointer { bytes in
            var bits = bits
            while bits != 0 {
                let row = y + bits.trailingZeroBitCount
                bits &= bits - 1
                guard row >= 0, row < height else { continue }
                bytes[row * stride + x] = value
            }
        }
    }

    public mutating func clear() {
        storage.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}

extension RoleMap {
    /// The same size and pixels, compared a word at a time: pictures are compared every frame.
    public static func == (a: RoleMap, b: RoleMap) -> Bool {
        a.width == b.width && a.height == b.height && PixelBytes.equal(a.storage, b.storage)
    }
}
