/// A rectangle of pixels: `x..<x+width` by `y..<y+height`.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// The left column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Its width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int

    /// The rectangle of `width` × `height` pixels from (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The column just right of it.
    public var maxX: Int { x + width }
    /// The row just below it.
    public var maxY: Int { y + height }
    /// Whether it holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let minX = Swift.min(x, other.x), minY = Swift.min(y, other.y)
        return PixelRect(x: minX, y: minY, width: Swift.max(maxX, other.maxX) - minX, height: Swift.max(maxY, other.maxY) - minY)
    }

    /// The part of this rectangle inside `other` (empty when they do not meet).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let minX = Swift.max(x, other.x), minY = Swift.max(y, other.y)
        let width = Swift.min(maxX, other.maxX) - minX, height = Swift.min(maxY, other.maxY) - minY
        return PixelRect(x: minX, y: minY, width: Swift.max(0, width), height: Swift.max(0, height))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
