import HeadwaySurfaces

/// The HT16K33 modules the simulator models, as Adafruit sells them.
///
/// The wiring of each (which COM and ROW light which LED) is not in the chip's datasheet; it is
/// taken from Adafruit's two libraries for these backpacks, which agree on every module below
/// except where noted: the Arduino library (adafruit/Adafruit_LED_Backpack@c4ec132,
/// `Adafruit_LEDBackpack.cpp`) and the CircuitPython one (adafruit/Adafruit_CircuitPython_HT16K33
/// @43817d1, `adafruit_ht16k33/`). Both keep a 16-bit word per COM whose bit n is ROWn, sent as
/// RAM byte 2·COM (ROW0–7) and 2·COM+1 (ROW8–15). docs/led-matrix-chips.md has the table.
public enum HT16K33Module: Sendable, Hashable {
    /// The bicolour 24-bar bargraph: a red and a green die per bar (both lit: yellow), bars 0 … 23
    /// from x = 0.
    case bargraph24
    /// An 8x8 single-colour matrix.
    case matrix8x8(colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))
    /// The bicolour 8x8 matrix: a red and a green die per position.
    case matrix8x8Bicolour
    /// The 16x8 backpack (two 8x8 matrices side by side), landscape.
    case matrix16x8(colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))
    /// The 4-digit 7-segment backpack with the centre colon.
    case segments4(colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))
    /// The 4-character 14-segment alphanumeric backpack.
    case alnum4(colour: RGB8 = RGB8(red: 255, green: 0, blue: 0))

    /// The module's name in messages.
    public var name: String {
        switch self {
        case .bargraph24: "bicolour 24-bar bargraph"
        case .matrix8x8: "8x8 matrix"
        case .matrix8x8Bicolour: "bicolour 8x8 matrix"
        case .matrix16x8: "16x8 matrix"
        case .segments4: "4-digit 7-segment display"
        case .alnum4: "4-character 14-segment display"
        }
    }

    /// The chip output behind a die: RAM bit (2·COM + ROW/8) × 8 + ROW mod 8, which is COM × 16 + ROW.
    static func output(com: Int, row: Int) -> Int { com * 16 + row }

    var wiring: LEDWiring {
        switch self {
        case .bargraph24:
            // Bar b: COM b/4 for b < 12, (b − 12)/4 above; ROW b mod 4, + 4 for b ≥ 12; red on that
            // ROW, green on ROW + 8 (Arduino `Adafruit_24bargraph::setBar`, CircuitPython
            // `bargraph.Bicolor24.__setitem__`).
            let wires = (0..<24).flatMap { bar -> [LEDWiring.Wire] in
                let com = bar < 12 ? bar / 4 : (bar - 12) / 4
                let row = bar % 4 + (bar >= 12 ? 4 : 0)
                return [
                    .init(output: Self.output(com: com, row: row), x: bar, y: 0, colour: DieColour.red),
                    .init(output: Self.output(com: com, row: row + 8), x: bar, y: 0, colour: DieColour.green),
                ]
            }
            return LEDWiring(width: 24, height: 1, wires: wires)
        case .matrix8x8(let colour):
            // Pixel (x, y): COM y, ROW (x + 7) mod 8 (Arduino `Adafruit_8x8matrix::drawPixel` "wrap
            // around the x"; CircuitPython `matrix.Matrix8x8.pixel`: x = (x − 1) % 8).
            let wires = LEDWiring.grid(8, 8).map { x, y in
                LEDWiring.Wire(output: Self.output(com: y, row: (x + 7) % 8), x: x, y: y, colour: colour)
            }
            return LEDWiring(width: 8, height: 8, wires: wires)
        case .matrix8x8Bicolour:
            // Pixel (x, y): green die on COM y ROW x, red die on COM y ROW x + 8 (Arduino
            // `Adafruit_BicolorMatrix::drawPixel`). CircuitPython `matrix.Matrix8x8x2.pixel` swaps x
            // and y; docs/led-matrix-chips.md notes the disagreement.
            let wires = LEDWiring.grid(8, 8).flatMap { x, y in
                [
                    LEDWiring.Wire(output: Self.output(com: y, row: x + 8), x: x, y: y, colour: DieColour.red),
                    LEDWiring.Wire(output: Self.output(com: y, row: x), x: x, y: y, colour: DieColour.green),
                ]
            }
            return LEDWiring(width: 8, height: 8, wires: wires)
        case .matrix16x8(let colour):
            // Pixel (x, y), 16 across: COM y, ROW x (Arduino `Adafruit_8x16matrix::drawPixel` at
            // rotation 1, CircuitPython `matrix.MatrixBackpack16x8.pixel`).
            let wires = LEDWiring.grid(16, 8).map { x, y in
                LEDWiring.Wire(output: Self.output(com: y, row: x), x: x, y: y, colour: colour)
            }
            return LEDWiring(width: 16, height: 8, wires: wires)
        case .segments4(let colour):
            // Digits 0–3 on COM 0, 1, 3, 4 (RAM 00h, 02h, 06h, 08h), segments A–G on ROW0–6 and DP
            // on ROW7; the colon is ROW1 of COM2 (RAM 04h, 0x02). Arduino `Adafruit_7segment`
            // (`writeDigitRaw`, `drawColon`), CircuitPython `segments.Seg7x4` (POSITIONS, Colon).
            let bits: [Segment] = [.a, .b, .c, .d, .e, .f, .g, .dp]
            var wires = [0, 1, 3, 4].enumerated().flatMap { digit, com in
                bits.enumerated().map { row, segment in
                    LEDWiring.Wire(output: Self.output(com: com, row: row), x: digit, y: 0, colour: colour, segment: segment)
                }
            }
            wires.append(.init(output: Self.output(com: 2, row: 1), x: 1, y: 0, colour: colour, segment: .colon))
            return LEDWiring(width: 4, height: 1, wires: wires, digits: 4)
        case .alnum4(let colour):
            // Character n on COM n, ROW0–14 = A, B, C, D, E, F, G1, G2, H, J, K, L, M, N, DP
            // (Arduino `ALPHANUM_SEG_*` in Adafruit_LEDBackpack.h; CircuitPython `Seg14x4` sets DP
            // as bit 6 of the high byte).
            let bits: [Segment] = [.a, .b, .c, .d, .e, .f, .g1, .g2, .h, .j, .k, .l, .m, .n, .dp]
            let wires = (0..<4).flatMap { digit in
                bits.enumerated().map { row, segment in
                    LEDWiring.Wire(output: Self.output(com: digit, row: row), x: digit, y: 0, colour: colour, segment: segment)
                }
            }
            return LEDWiring(width: 4, height: 1, wires: wires, digits: 4)
        }
    }
}

