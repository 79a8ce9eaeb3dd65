/// One LED's drive levels, 0…255 per channel, as a driver sends them.
public struct RGB8: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let off = RGB8(red: 0, green: 0, blue: 0)
}
