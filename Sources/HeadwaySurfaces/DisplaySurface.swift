/// A display picture that drawing code can draw on without knowing its depth: a 1-bit ``Bitmap``,
/// a 16-level ``Greymap`` or a colour display's ``RoleMap``. Levels run from 0 (off) to
/// ``maxLevel``; drawing asks for a level, says what the pixel shows (its ``SurfaceRole``), and the
/// surface keeps what it can (a bitmap lights any level above 0, a greymap keeps the level, a role
/// map the role too), so one drawing serves every display and the surface decides the depth.
public protocol DisplaySurface: Sendable, Equatable {
    /// A blank picture of `width` × `height` pixels (both above 0).
    init(width: Int, height: Int)
    /// The picture's width in pixels.
    var width: Int { get }
    /// The picture's height in pixels.
    var height: Int { get }
    /// The brightest level: 1 on a bitmap, 15 on a greymap.
    static var maxLevel: UInt8 { get }
    /// The level at (`x`, `y`); outside the picture, 0.
    func level(x: Int, y: Int) -> UInt8
    /// Sets the pixel at (`x`, `y`) to `level` (clipped to ``maxLevel``); outside, nothing.
    mutating func setLevel(_ level: UInt8, x: Int, y: Int)
    /// Sets every pixel of `rect` (clipped) to `level`.
    mutating func fill(_ rect: PixelRect, level: UInt8)
    /// Sets one column's pixels from row `y` down to `level` where bit n of `bits` (row `y + n`) is set.
    mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8)
    /// Turns every pixel off.
    mutating func clear()
    /// Whether no pixel is lit.
    var isBlank: Bool { get }

    /// Whether the surface keeps each pixel's role and its colour comes from the role (a colour
    /// display's ``RoleMap``): a level is then how much of the pixel a shape covers, and a shade's
    /// dimness is the role's colour's, not the level's.
    static var takesColourFromRole: Bool { get }
    /// Sets the pixel at (`x`, `y`) to `level`, showing `role`.
    mutating func setLevel(_ level: UInt8, x: Int, y: Int, role: SurfaceRole)
    /// Sets every pixel of `rect` (clipped) to `level`, showing `role`.
    mutating func fill(_ rect: PixelRect, level: UInt8, role: SurfaceRole)
    /// Sets one column's pixels from row `y` down to `level`, showing `role`, where bit n of `bits` is set.
    mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8, role: SurfaceRole)
}

/// Surfaces without colour keep the level and let the role go.
extension DisplaySurface {
    /// False: the surface keeps levels only.
    public static var takesColourFromRole: Bool { false }
    public mutating func setLevel(_ level: UInt8, x: Int, y: Int, role: SurfaceRole) { setLevel(level, x: x, y: y) }
    public mutating func fill(_ rect: PixelRect, level: UInt8, role: SurfaceRole) { fill(rect, level: level) }
    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8, role: SurfaceRole) {
        setColumn(x, from: y, bits: bits, level: level)
    }
}

extension Bitmap: DisplaySurface {
    public static var maxLevel: UInt8 { 1 }
    public func level(x: Int, y: Int) -> UInt8 { self[x, y] ? 1 : 0 }
    public mutating func setLevel(_ level: UInt8, x: Int, y: Int) { self[x, y] = level > 0 }
    public mutating func fill(_ rect: PixelRect, level: UInt8) { fill(rect, on: level > 0) }
    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8) { setColumn(x, from: y, bits: bits, on: level > 0) }
}

extension Greymap: DisplaySurface {
    public func level(x: Int, y: Int) -> UInt8 { self[x, y] }
    public mutating func setLevel(_ level: UInt8, x: Int, y: Int) { self[x, y] = level }
}
