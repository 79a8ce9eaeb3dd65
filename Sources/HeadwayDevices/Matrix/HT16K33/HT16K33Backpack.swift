/// The Adafruit backpacks an HT16K33 drives, and which of the chip's outputs light which LED.
///
/// The wiring is not in the chip's datasheet; it is Adafruit's, as its two libraries publish it
/// (adafruit/Adafruit_LED_Backpack `Adafruit_LEDBackpack.cpp`; adafruit/Adafruit_CircuitPython_HT16K33
/// `matrix.py`, `bargraph.py`, `segments.py`): both keep one 16-bit word per COM whose bit n is
/// ROWn, stored as RAM byte 2·COM (ROW0–7) and 2·COM + 1 (ROW8–15) (Display Memory – RAM
/// Structure, p. 13). docs/led-matrix-chips.md lists each module with its source.
public enum HT16K33Backpack: String, Sendable, CaseIterable {
    /// The bicolour 24-bar bargraph: a red and a green LED per bar, bar 0 first.
    case bargraph24
    /// An 8x8 matrix of one colour.
    case matrix8x8
    /// The bicolour 8x8 matrix: a red and a green LED per position.
    case matrix8x8Bicolour = "matrix8x8-bicolour"
    /// The 16x8 matrix (two 8x8 side by side).
    case matrix16x8
    /// The 4-digit 7-segment display with its centre colon.
    case segments4
    /// The 4-character 14-segment alphanumeric display.
    case alnum4

    /// The module as its makers' libraries draw it (before any rotation).
    var naturalFace: MatrixFace {
        switch self {
        case .bargraph24: .pixels(width: 24, height: 1, dies: .redGreen)
        case .matrix8x8: .pixels(width: 8, height: 8, dies: .onOff)
        case .matrix8x8Bicolour: .pixels(width: 8, height: 8, dies: .redGreen)
        case .matrix16x8: .pixels(width: 16, height: 8, dies: .onOff)
        case .segments4: .segments(count: 4, kind: .seven, colon: true)
        case .alnum4: .segments(count: 4, kind: .fourteen, colon: false)
        }
    }

    /// RAM bit (byte × 8 + bit) of COM `com`, ROW `row`.
    static func bit(com: Int, row: Int) -> Int { (2 * com + row / 8) * 8 + row % 8 }

    /// The RAM bits of the LEDs at (`x`, `y`) of a matrix or bargraph as its makers draw it: the
    /// red (or only) LED first, then the green one.
    func bits(x: Int, y: Int) -> (red: Int, green: Int?) {
        switch self {
        case .bargraph24:
            // Bars 0–11 on COM 0–2, four a COM on ROW 0–3; bars 12–23 likewise on ROW 4–7; the
            // green LED eight rows up (`Adafruit_24bargraph::setBar`, `Bicolor24.__setitem__`).
            let com = (x % 12) / 4, row = x % 4 + (x < 12 ? 0 : 4)
            return (Self.bit(com: com, row: row), Self.bit(com: com, row: row + 8))
        case .matrix8x8:
            // COM y; the columns are wired one ROW round (`Adafruit_8x8matrix::drawPixel`,
            // `Matrix8x8.pixel`: x is ROW x − 1).
            return (Self.bit(com: y, row: (x + 7) % 8), nil)
        case .matrix8x8Bicolour:
            // COM y; green on ROW x, red on ROW x + 8 (`Adafruit_BicolorMatrix::drawPixel`).
            return (Self.bit(com: y, row: x + 8), Self.bit(com: y, row: x))
        case .matrix16x8:
            // COM y, ROW x (`Adafruit_8x16matrix::drawPixel` at rotation 1, `MatrixBackpack16x8.pixel`).
            return (Self.bit(com: y, row: x), nil)
        case .segments4, .alnum4:
            preconditionFailure("a segment display has no pixels")
        }
    }

    /// The COM each digit of a segment display is on (`Adafruit_7segment::writeDigitRaw` skips COM
    /// 2, the colon's; the alphanumeric display's characters are COM 0–3).
    var digitCOMs: [Int] { self == .segments4 ? [0, 1, 3, 4] : [0, 1, 2, 3] }

    /// The segments on ROW 0, 1, 2 … of a digit's COM: A–G and DP on the 7-segment display
    /// (`writeDigitRaw`), A–F, G1, G2, H, J, K, L, M, N and DP on the alphanumeric one
    /// (`ALPHANUM_SEG_*` in Adafruit_LEDBackpack.h, `Seg14x4`).
    var segmentRows: [SegmentSet] {
        self == .segments4
            ? [.a, .b, .c, .d, .e, .f, .g, .dp]
            : [.a, .b, .c, .d, .e, .f, .g1, .g2, .h, .j, .k, .l, .m, .n, .dp]
    }

    /// The colon of the 7-segment display: ROW 1 of COM 2 (`drawColon`, `Colon.MASKS`).
    static let colonBit = bit(com: 2, row: 1)
}
