/// How progress runs over a chain of LEDs: which LED shows the n-th step of a fill.
public struct LEDLayout: Sendable, Equatable {
    /// How the chain is laid out.
    public enum Shape: Sendable, Equatable {
        /// A line: the fill runs from index 0 (or from the far end when `reversed`).
        case strip(reversed: Bool)
        /// A closed ring: the fill starts at LED `start` and runs clockwise or anticlockwise (in the
        /// direction of rising or falling indices, as seen from the side the LEDs face).
        case ring(start: Int, clockwise: Bool)
    }

    /// How the chain is laid out.
    public var shape: Shape

    /// The layout of a chain of `shape`.
    public init(_ shape: Shape) { self.shape = shape }

    /// A strip filled from its first LED.
    public static let strip = LEDLayout(.strip(reversed: false))
    /// A ring filled from LED `start`, clockwise or not.
    public static func ring(start: Int = 0, clockwise: Bool = true) -> LEDLayout {
        LEDLayout(.ring(start: start, clockwise: clockwise))
    }

    /// Whether the chain is a closed ring.
    public var isRing: Bool {
        if case .ring = shape { return true }
        return false
    }

    /// The LED index that shows progress position `position` (0 = where the fill begins) of `count`.
    public func index(ofPosition position: Int, count: Int) -> Int {
        switch shape {
        case .strip(let reversed):
            return reversed ? count - 1 - position : position
        case .ring(let start, let clockwise):
            let step = clockwise ? position : -position
            let raw = (start + step) % count
            return raw < 0 ? raw + count : raw
        }
    }
}
