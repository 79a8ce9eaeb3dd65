/// The drive levels of every position of an LED matrix, row by row from the top left: the
/// picture a matrix driver is handed, as an LED chain is handed ``RGB8`` levels.
///
/// Each die reads the channel it has: an on/off die is lit when any channel is above 0, a red
/// and green pair each by its channel, a single PWM die takes the brightest channel.
public struct MatrixLevels: Sendable, Equatable {
    /// Positions across.
    public let width: Int
    /// Positions down.
    public let height: Int
    /// `width × height` levels, row by row.
    public private(set) var levels: [RGB8]

    /// `width` × `height` positions (both above 0), all off.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a matrix needs a positive size")
        self.width = width
        self.height = height
        levels = Array(repeating: .off, count: width * height)
    }

    /// The levels at (`x`, `y`); outside the matrix, off (and writes are ignored).
    public subscript(x: Int, y: Int) -> RGB8 {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .off }
            return levels[y * width + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            levels[y * width + x] = newValue
        }
    }

    /// Whether every position is off.
    public var isBlank: Bool { levels.allSatisfy { $0 == .off } }
}

extension RGB8 {
    /// The brightest of the three channels: a single-colour die's level.
    public var brightest: UInt8 { Swift.max(red, green, blue) }
}
