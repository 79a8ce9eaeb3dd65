/// One LED's drive levels, 0…255 per channel, as a driver sends them.
public struct RGB8: Sendable, Hashable {
    /// The red drive level, 0…255.
    public var red: UInt8
    /// The green drive level, 0…255.
    public var green: UInt8
    /// The blue drive level, 0…255.
    public var blue: UInt8

    /// An LED's three drive levels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// All three off.
    public static let off = RGB8(red: 0, green: 0, blue: 0)
}
