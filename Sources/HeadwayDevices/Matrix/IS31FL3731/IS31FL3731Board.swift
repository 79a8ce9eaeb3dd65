/// The boards an IS31FL3731 drives, and which of the chip's 144 LEDs sits where.
///
/// The chip numbers its LEDs Cx-y (Figure 8 and Table 7, p. 11): LED n = 16·(x − 1) + (y − 1) has
/// PWM register 24h + n and bit n mod 8 of LED control register n / 8. Where each LED sits on a
/// board is its maker's: docs/led-matrix-chips.md lists the sources.
public enum IS31FL3731Board: String, Sendable, CaseIterable {
    /// Pimoroni Scroll pHAT HD: 17 × 7 LEDs of one colour.
    case scrollPHATHD = "scroll-phat-hd"
    /// Pimoroni LED SHIM: 28 RGB LEDs in a row.
    case ledSHIM = "led-shim"
    /// Adafruit's 16 × 9 CharliePlex LED matrix.
    case charlieplex16x9

    /// The board as its maker's library draws it (before any rotation).
    var naturalFace: MatrixFace {
        switch self {
        case .scrollPHATHD: .pixels(width: 17, height: 7, dies: .levels)
        case .ledSHIM: .pixels(width: 28, height: 1, dies: .rgb)
        case .charlieplex16x9: .pixels(width: 16, height: 9, dies: .levels)
        }
    }

    /// The LEDs at (`x`, `y`), `y` = 0 the top row: one for a single-colour board, the red, green
    /// and blue ones for the LED SHIM.
    func leds(x: Int, y: Int) -> [Int] {
        switch self {
        case .scrollPHATHD:
            // pimoroni/scroll-phat-hd `_pixel_addr` (its `show` passes the row counted from the
            // bottom): the left nine columns run down C9…C1, the right eight up from C2.
            let fromBottom = 6 - y
            return [x <= 8 ? 16 * (8 - x) + fromBottom : 16 * (x - 8) - 8 + y]
        case .ledSHIM:
            return [Self.shimRed[x], Self.shimGreen[x], Self.shimBlue[x]]
        case .charlieplex16x9:
            // `Adafruit_IS31FL3731::drawPixel` at rotation 0: LED x + 16·y.
            return [x + 16 * y]
        }
    }

    // The LED SHIM's pixels, left to right: pimoroni/led-shim `ledshim/is31fl3731.py`
    // (`LEDSHIM._pixel_addr`, a (red, green, blue) triple per pixel).
    private static let shimRed = [118, 117, 116, 115, 114, 113, 112, 134, 133, 132, 131, 130, 129, 128, 127, 121, 122, 123, 124, 125, 126, 15, 8, 9, 10, 11, 12, 13]
    private static let shimGreen = [69, 68, 84, 83, 82, 81, 80, 21, 20, 19, 18, 17, 33, 32, 47, 41, 25, 26, 27, 28, 29, 95, 89, 90, 91, 92, 76, 77]
    private static let shimBlue = [85, 101, 100, 99, 98, 97, 96, 37, 36, 35, 34, 50, 49, 48, 63, 57, 58, 42, 43, 44, 45, 111, 105, 106, 107, 108, 109, 93]

    /// Every LED the board has, so that only they are enabled (the rest of the 144 are not wired).
    var wiredLEDs: Set<Int> {
        guard case .pixels(let width, let height, _) = naturalFace else { return [] }
        var wired: Set<Int> = []
        for y in 0..<height {
            for x in 0..<width { wired.formUnion(leds(x: x, y: y)) }
        }
        return wired
    }
}
