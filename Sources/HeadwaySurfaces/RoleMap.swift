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
    /// The rows drawn on since the map was made or cleared, a bit a row: every other row is
    /// blank, so that clearing the map and comparing it with the last frame's touch only these.
    @usableFromInline var drawnRows: [UInt64]

    /// The most a shape can cover a pixel.
    public static var maxLevel: UInt8 { 31 }

    /// A blank picture of `width` × `height` pixels (both above 0).
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a role map needs a positive size")
        self.width = width
        self.height = height
        storage = Array(repeating: 0, count: width * height)
        drawnRows = Array(repeating: 0, count: (height + 63) / 64)
    }

    /// Notes that `rows` (clipped to the map) are drawn on.
    @inlinable
    mutating func markDrawn(_ rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        for row in rows { drawnRows[row >> 6] |= 1 << UInt64(row & 63) }
    }

    /// Whether row `row` may hold anything but background.
    @inlinable
    func isDrawn(_ row: Int) -> Bool { Self.isDrawn(row, in: drawnRows) }

    /// Whether `row`'s bit is set in `drawnRows`.
    @inlinable
    static func isDrawn(_ row: Int, in drawnRows: [UInt64]) -> Bool { drawnRows[row >> 6] & 1 << UInt64(row & 63) != 0 }

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
        try withUnsafeMutablePixels(rows: 0..<height, body)
    }

    /// Runs `body` on the pixels' bytes, as ``withUnsafeMutablePixels(_:)``, for drawing code that
    /// writes only pixels of `rows`.
    @inlinable
    public mutating func withUnsafeMutablePixels<Result>(rows: Range<Int>, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        markDrawn(rows)
        return try storage.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// What pixel (`x`, `y`) shows; outside the picture, `.off`.
    public func role(x: Int, y: Int) -> SurfaceRole {
        guard x >= 0, y >= 0, x < width, y < height else { return .off }
        return SurfaceRole(rawValue: storage[y * width + x] >> 5) ?? .off
    }

    /// Whether every pixel is background.
    public var isBlank: Bool { drawnRows.allSatisfy { $0 == 0 } || !storage.contains { $0 != 0 } }
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
        markDrawn(y..<(y + 1))
        storage[y * width + x] = Self.pixel(role, level: level)
    }

    public mutating func fill(_ rect: PixelRect, level: UInt8) { fill(rect, level: level, role: .fill) }

    public mutating func fill(_ rect: PixelRect, level: UInt8, role: SurfaceRole) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let value = Self.pixel(role, level: level), stride = width
        markDrawn(area.y..<area.maxY)
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
        if bits != 0 { markDrawn((y + bits.trailingZeroBitCount)..<(y + 64 - bits.leadingZeroBitCount)) }
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
        // Only the rows drawn on: the rest are blank already.
        guard drawnRows.contains(where: { $0 != 0 }) else { return }
        let width = self.width, height = self.height, drawn = drawnRows
        storage.withUnsafeMutableBufferPointer { bytes in
            for row in 0..<height where Self.isDrawn(row, in: drawn) {
                bytes[(row * width)..<((row + 1) * width)].update(repeating: 0)
            }
        }
        for index in drawnRows.indices { drawnRows[index] = 0 }
    }
}

extension RoleMap {
    /// Row by row, the stretch from the first to the last pixel that differs in `new` (a map of the
    /// same size): where a picture drawn from `new` can differ from one drawn from this map.
    package func changes(to new: RoleMap) -> [RowStretch] {
        precondition(new.width == width && new.height == height, "maps of one size")
        var stretches: [RowStretch] = []
        let width = self.width
        storage.withUnsafeBytes { before in
            new.storage.withUnsafeBytes { after in
                guard let before = before.baseAddress, let after = after.baseAddress else { return }
                // A row neither map drew on is blank in both.
                for row in 0..<height where isDrawn(row) || new.isDrawn(row) {
                    let a = before + row * width, b = after + row * width
                    if PixelBytes.same(a, b, count: width) { continue }
                    // The first and the last differing byte, a word at a time (little-endian: the
                    // first byte of a word is its lowest).
                    var first = 0
                    while first &+ 8 <= width {
                        let difference = a.loadUnaligned(fromByteOffset: first, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: first, as: UInt64.self)
                        if difference != 0 {
                            first &+= UInt64(littleEndian: difference).trailingZeroBitCount / 8
                            break
                        }
                        first &+= 8
                    }
                    while a.load(fromByteOffset: first, as: UInt8.self) == b.load(fromByteOffset: first, as: UInt8.self) { first &+= 1 }
                    var last = width &- 1
                    while last &- 7 > first {
                        let difference = a.loadUnaligned(fromByteOffset: last &- 7, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: last &- 7, as: UInt64.self)
                        if difference != 0 {
                            last &-= UInt64(littleEndian: difference).leadingZeroBitCount / 8
                            break
                        }
                        last &-= 8
                    }
                    while a.load(fromByteOffset: last, as: UInt8.self) == b.load(fromByteOffset: last, as: UInt8.self) { last &-= 1 }
                    stretches.append(RowStretch(row: row, first: first, last: last))
                }
            }
        }
        return stretches
    }

    /// The same size and pixels, compared a word at a time: pictures are compared every frame.
    public static func == (a: RoleMap, b: RoleMap) -> Bool {
        a.width == b.width && a.height == b.height && PixelBytes.equal(a.storage, b.storage)
    }
}
