import RealModule

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

/// Turns the light a style asked for into the levels an LED chain is driven with.
///
/// Styles work in linear light; WS2812 and APA102 LEDs are PWM-driven, so their light is linear in
/// the level and the default ``gamma`` is 1. Set it above 1 for LEDs (or diffusers) whose response is
/// not linear: level = 255 · light^(1/gamma).
public struct ColourPipeline: Sendable, Equatable {
    public var gamma: Float

    public init(gamma: Float = 1) {
        precondition(gamma > 0, "gamma must be positive")
        self.gamma = gamma
    }

    /// The drive levels for every LED of `frame`.
    public func levels(for frame: LEDFrame) -> [RGB8] {
        frame.pixels.map { light in
            RGB8(red: level(light.red), green: level(light.green), blue: level(light.blue))
        }
    }

    private func level(_ light: Float) -> UInt8 {
        let clipped = min(1, max(0, light))
        let shaped = gamma == 1 ? clipped : Float.pow(clipped, 1 / gamma)
        return UInt8((shaped * 255).rounded())
    }

    /// The light an LED emits when driven at `level` (the inverse of ``levels(for:)``, for simulators).
    public func light(for level: RGB8) -> LinearColour {
        func channel(_ value: UInt8) -> Float {
            let normalised = Float(value) / 255
            return gamma == 1 ? normalised : Float.pow(normalised, gamma)
        }
        return LinearColour(red: channel(level.red), green: channel(level.green), blue: channel(level.blue))
    }
}
