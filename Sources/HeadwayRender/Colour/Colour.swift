import RealModule

/// A colour as people write it: 8-bit sRGB, as in `#ff8800`.
public struct Colour: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…255 (sRGB).
    public var red: UInt8
    /// Green, 0…255 (sRGB).
    public var green: UInt8
    /// Blue, 0…255 (sRGB).
    public var blue: UInt8

    /// A colour as people write it (sRGB).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` or `rrggbb` (case-insensitive).
    public init(hex text: String) throws(ColourError) {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.utf8.count == 6, let value = UInt32(digits, radix: 16) else { throw .malformedHex(text) }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    public var description: String { "#" + [red, green, blue].map(Self.hexByte).joined() }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// Black.
    public static let black = Colour(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = Colour(red: 255, green: 255, blue: 255)
}

/// Why a colour could not be read.
public enum ColourError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not `#RRGGBB` (or `RRGGBB`).
    case malformedHex(String)

    public var description: String {
        switch self {
        case .malformedHex(let text): "colour \"\(text)\" is not of the form #rrggbb (six hex digits, e.g. #00b4ff)"
        }
    }
}

/// Light as an LED emits it: linear intensity per channel, 0…1 (values above 1 are clipped on output).
///
/// All blending happens here, in linear light, so a half-lit LED emits half the light of a lit one
/// (blending the sRGB numbers would make the leading edge of a fill look too dark and jumpy).
public struct LinearColour: Sendable, Hashable {
    /// Red light, 0…1.
    public var red: Float
    /// Green light, 0…1.
    public var green: Float
    /// Blue light, 0…1.
    public var blue: Float

    /// Light of each channel given, 0…1.
    public init(red: Float, green: Float, blue: Float) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The light that sRGB colour `colour` stands for (the sRGB transfer curve, IEC 61966-2-1).
    public init(_ colour: Colour) {
        self.init(
            red: Self.decode(colour.red), green: Self.decode(colour.green), blue: Self.decode(colour.blue))
    }

    private static func decode(_ byte: UInt8) -> Float {
        let value = Float(byte) / 255
        return value <= 0.04045 ? value / 12.92 : Float.pow((value + 0.055) / 1.055, 2.4)
    }

    private static func encode(_ light: Float) -> UInt8 {
        let value = min(1, max(0, light))
        let curve = value <= 0.0031308 ? value * 12.92 : 1.055 * Float.pow(value, 1 / 2.4) - 0.055
        return UInt8((curve * 255).rounded())
    }

    /// The sRGB colour that shows this light on a screen (for the terminal and SVG pictures).
    public var sRGB: Colour { Colour(red: Self.encode(red), green: Self.encode(green), blue: Self.encode(blue)) }

    /// No light.
    public static let black = LinearColour(red: 0, green: 0, blue: 0)

    /// This light scaled by `factor` (0 = dark, 1 = unchanged).
    public func scaled(by factor: Float) -> LinearColour {
        LinearColour(red: red * factor, green: green * factor, blue: blue * factor)
    }

    /// The light between `self` (at 0) and `other` (at 1).
    public func mixed(with other: LinearColour, amount: Float) -> LinearColour {
        let t = min(1, max(0, amount))
        return LinearColour(
            red: red + (other.red - red) * t, green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t)
    }
}
