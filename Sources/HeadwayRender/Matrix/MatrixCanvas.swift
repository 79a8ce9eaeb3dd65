/// A matrix's picture as a style draws it: each pixel's coverage (0…15) and what it is (its
/// ``Shade/Role``), at no depth yet. Drawing takes the ``role`` set before it, like a graphics
/// context's fill colour, so every primitive of ``/HeadwaySurfaces/DisplaySurface`` draws on it; the matrix's glass
/// then decides the depth (``MatrixPicture/frame(appearance:pipeline:dither:)``): on/off dies light
/// what is wholly covered, PWM dies take the coverage as light, colour dies the role's colour.
public struct MatrixCanvas: DisplaySurface {
    public let width: Int
    public let height: Int
    /// Each pixel's coverage, row by row.
    public private(set) var levels: [UInt8]
    /// Each pixel's role, row by row (``/HeadwaySurfaces/SurfaceRole/off`` where nothing is drawn).
    public private(set) var roles: [Shade.Role]
    /// What the next drawing is.
    public var role: Shade.Role = .fill

    public static var maxLevel: UInt8 { 15 }

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a matrix needs a positive size")
        self.width = width
        self.height = height
        levels = Array(repeating: 0, count: width * height)
        roles = Array(repeating: .off, count: width * height)
    }

    public func level(x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return levels[y * width + x]
    }

    /// The role of the pixel at (`x`, `y`); outside, ``/HeadwaySurfaces/SurfaceRole/off``.
    public func role(x: Int, y: Int) -> Shade.Role {
        guard x >= 0, y >= 0, x < width, y < height else { return .off }
        return roles[y * width + x]
    }

    public mutating func setLevel(_ level: UInt8, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let clipped = min(level, Self.maxLevel)
        levels[y * width + x] = clipped
        roles[y * width + x] = clipped == 0 ? .off : role
    }

    public mutating func fill(_ rect: PixelRect, level: UInt8) {
        let area = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { setLevel(level, x: x, y: y) }
        }
    }

    public mutating func setColumn(_ x: Int, from y: Int, bits: UInt64, level: UInt8) {
        var bits = bits
        while bits != 0 {
            setLevel(level, x: x, y: y + bits.trailingZeroBitCount)
            bits &= bits - 1
        }
    }

    public mutating func clear() {
        for index in levels.indices {
            levels[index] = 0
            roles[index] = .off
        }
    }

    public var isBlank: Bool { !levels.contains { $0 != 0 } }
}
