import HeadwaySurfaces

/// The IS31FL3731 modules the simulator models.
///
/// The chip numbers its 144 LEDs Cx-y (Figure 8 and Table 7, p. 11): LED n = 16·(x − 1) + (y − 1)
/// has PWM register 24h + n and bit n mod 8 of control register n / 8. Which LED sits where on a
/// module comes from its makers' libraries; docs/led-matrix-chips.md has the tables and sources.
public enum IS31FL3731Module: Sendable, Hashable {
    /// Pimoroni Scroll pHAT HD: 17 × 7 single-colour LEDs.
    case scrollPHATHD(colour: RGB8 = RGB8(red: 255, green: 255, blue: 255))
    /// Pimoroni LED SHIM: 28 RGB LEDs in a row, a red, a green and a blue die each.
    case ledSHIM
    /// Adafruit's 16 × 9 CharliePlex LED matrix breakout.
    case charlieplex16x9(colour: RGB8 = RGB8(red: 255, green: 255, blue: 255))

    /// The module's name in messages.
    public var name: String {
        switch self {
        case .scrollPHATHD: "Scroll pHAT HD"
        case .ledSHIM: "LED SHIM"
        case .charlieplex16x9: "16x9 CharliePlex matrix"
        }
    }

    var wiring: LEDWiring {
        switch self {
        case .scrollPHATHD(let colour):
            // (x, y), y = 0 the top row: x ≤ 8 is LED 16·(8 − x) + (6 − y), x > 8 is LED
            // 16·(x − 8) + (y − 8). pimoroni/scroll-phat-hd@84b0120 `library/scrollphathd/
            // __init__.py` (`_pixel_addr`, called with y flipped by `show`) and
            // adafruit/Adafruit_CircuitPython_IS31FL3731@2ae915b `scroll_phat_hd.py` agree.
            let wires = LEDWiring.grid(17, 7).map { x, y in
                let led = x <= 8 ? 16 * (8 - x) + (6 - y) : 16 * (x - 8) + (y - 8)
                return LEDWiring.Wire(output: led, x: x, y: y, colour: colour)
            }
            return LEDWiring(width: 17, height: 7, wires: wires)
        case .ledSHIM:
            let colours = [DieColour.red, DieColour.green, DieColour.blue]
            let wires = LEDSHIMWiring.leds.enumerated().flatMap { x, dies in
                [dies.red, dies.green, dies.blue].enumerated().map { die, led in
                    LEDWiring.Wire(output: led, x: x, y: 0, colour: colours[die])
                }
            }
            return LEDWiring(width: 28, height: 1, wires: wires)
        case .charlieplex16x9(let colour):
            // (x, y) is LED x + 16·y: adafruit/Adafruit_IS31FL3731@6a9d478 `Adafruit_IS31FL3731::
            // drawPixel` at rotation 0, Adafruit_CircuitPython_IS31FL3731@2ae915b `matrix.py`.
            let wires = LEDWiring.grid(16, 9).map { x, y in
                LEDWiring.Wire(output: x + 16 * y, x: x, y: y, colour: colour)
            }
            return LEDWiring(width: 16, height: 9, wires: wires)
        }
    }
}
