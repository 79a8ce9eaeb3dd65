import HeadwaySurfaces

/// What an LED matrix, bargraph or segment module shows at one moment: every LED die on it, where
/// it is, its colour and how bright it is, worked out from the chip's RAM and registers through the
/// module's wiring.
///
/// A bicolour or RGB position has one die per colour at the same (x, y); ``colour(x:y:)`` mixes
/// them. Segment modules put each segment die at x = its digit (left to right), y = 0, and list the
/// lit segments per digit in ``digits``.
public struct LEDGlass: Sendable, Hashable {
    /// Positions across (LED columns, or digits on a segment module).
    public var width: Int
    /// Positions down (1 on a segment module).
    public var height: Int
    /// Every die of the module, lit or not, in the module's wiring order.
    public var leds: [GlassLED]
    /// Segment modules: each digit, left to right, with its lit segments; empty on matrices.
    public var digits: [SegmentDigit]
    /// Everything the chip found malformed or undefined, oldest first.
    public var protocolErrors: [String]

    /// A glass of `width` by `height` positions showing `leds`.
    public init(width: Int, height: Int, leds: [GlassLED], digits: [SegmentDigit] = [], protocolErrors: [String] = []) {
        self.width = width
        self.height = height
        self.leds = leds
        self.digits = digits
        self.protocolErrors = protocolErrors
    }

    /// The light at (x, y): the colours of the dies there, each scaled by its brightness, added and
    /// clipped (a red and a green die both lit read as yellow).
    public func colour(x: Int, y: Int) -> RGB8 {
        var red = 0.0, green = 0.0, blue = 0.0
        for led in leds where led.x == x && led.y == y {
            red += Double(led.colour.red) * led.brightness
            green += Double(led.colour.green) * led.brightness
            blue += Double(led.colour.blue) * led.brightness
        }
        func level(_ value: Double) -> UInt8 { UInt8(min(255, value.rounded())) }
        return RGB8(red: level(red), green: level(green), blue: level(blue))
    }

    /// The dies that give light now.
    public var lit: [GlassLED] { leds.filter { $0.brightness > 0 } }
}

/// One LED die on a module.
public struct GlassLED: Sendable, Hashable {
    /// Its column (on a segment module: its digit, left to right).
    public var x: Int
    /// Its row, from the top (0 on a segment module).
    public var y: Int
    /// The colour it gives at full drive.
    public var colour: RGB8
    /// How bright it is now, 0 (dark) … 1 (full drive): the chip's PWM, dimming or intensity duty,
    /// and 0 in the off half of a blink.
    public var brightness: Double
    /// On a segment module, the segment this die lights.
    public var segment: Segment?

    /// A die at (x, y) giving `colour` at `brightness`.
    public init(x: Int, y: Int, colour: RGB8, brightness: Double, segment: Segment? = nil) {
        self.x = x
        self.y = y
        self.colour = colour
        self.brightness = brightness
        self.segment = segment
    }
}

/// A segment of a 7-segment or 14-segment digit, named as the MAX7219 datasheet (Table 6: A–G, DP)
/// and Adafruit's alphanumeric backpack (G1, G2, H, J, K, L, M, N) name them.
public enum Segment: String, Sendable, Hashable, CaseIterable {
    /// The seven segments of a digit: top (a), clockwise round to top-left (f), and the middle bar (g).
    case a, b, c, d, e, f, g
    /// The 14-segment display's left and right halves of the middle bar.
    case g1, g2
    /// The 14-segment display's inner segments: upper-left diagonal, upper vertical, upper-right
    /// diagonal, lower-left diagonal, lower vertical, lower-right diagonal.
    case h, j, k, l, m, n
    /// The decimal point.
    case dp
    /// The colon after this digit (the 4-digit 7-segment backpack's centre colon).
    case colon
}

/// One digit of a segment module as it shows now.
public struct SegmentDigit: Sendable, Hashable {
    /// Its place, 0 = leftmost.
    public var index: Int
    /// Its lit segments, in ``Segment`` order.
    public var lit: [Segment]
    /// How bright its lit segments are, 0 … 1 (0 when none is lit).
    public var brightness: Double

    /// Digit `index` showing `lit` at `brightness`.
    public init(index: Int, lit: [Segment], brightness: Double) {
        self.index = index
        self.lit = lit
        self.brightness = brightness
    }
}
