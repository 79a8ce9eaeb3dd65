/// The light of every LED in a chain, in linear light, index 0 first on the wire.
public struct LEDFrame: Sendable, Equatable {
    /// Each LED's light, in the chain's order.
    public var pixels: [LinearColour]

    /// `count` LEDs, all `colour`.
    public init(count: Int, colour: LinearColour = .black) {
        precondition(count >= 0, "an LED chain cannot have a negative length")
        pixels = Array(repeating: colour, count: count)
    }

    /// How many LEDs.
    public var count: Int { pixels.count }

    /// LED `index`'s light.
    public subscript(index: Int) -> LinearColour {
        get { pixels[index] }
        set { pixels[index] = newValue }
    }

    /// Sets every LED to `colour`.
    public mutating func fill(_ colour: LinearColour) {
        for index in pixels.indices { pixels[index] = colour }
    }

    /// Scales every LED's light by `factor`.
    public mutating func scale(by factor: Float) {
        for index in pixels.indices { pixels[index] = pixels[index].scaled(by: factor) }
    }

    /// This frame blended toward `other` by `amount` (0 = self, 1 = other); same length required.
    public func mixed(with other: LEDFrame, amount: Float) -> LEDFrame {
        precondition(other.count == count, "cannot mix frames of different lengths")
        var result = self
        for index in pixels.indices { result.pixels[index] = pixels[index].mixed(with: other.pixels[index], amount: amount) }
        return result
    }
}
