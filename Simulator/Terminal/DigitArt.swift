import HeadwayRender

/// Segment digits drawn in terminal characters: where each segment of a 7- or 14-segment digit
/// (and its point) falls in a small grid of cells.
struct DigitArt: Sendable {
    /// Columns a digit takes, its point included.
    let width: Int
    /// Rows a digit takes.
    let height: Int
    /// Each segment's cells: column, row and the character drawn there.
    let cells: [Segment: [(x: Int, y: Int, character: Character)]]

    /// Three rows: ` _ `, `|_|`, `|_|.`.
    static let seven = DigitArt(width: 4, height: 3, cells: [
        .a: [(1, 0, "_")], .f: [(0, 1, "|")], .g: [(1, 1, "_")], .b: [(2, 1, "|")],
        .e: [(0, 2, "|")], .d: [(1, 2, "_")], .c: [(2, 2, "|")], .dp: [(3, 2, ".")],
    ])

    /// Five rows: the outer segments in box lines, the diagonals as slashes, the centre bar in halves.
    static let fourteen = DigitArt(width: 6, height: 5, cells: [
        .a: [(1, 0, "─"), (2, 0, "─"), (3, 0, "─")],
        .f: [(0, 1, "│")], .h: [(1, 1, "╲")], .j: [(2, 1, "│")], .k: [(3, 1, "╱")], .b: [(4, 1, "│")],
        .g1: [(1, 2, "─")], .g2: [(3, 2, "─")],
        .e: [(0, 3, "│")], .l: [(1, 3, "╱")], .m: [(2, 3, "│")], .n: [(3, 3, "╲")], .c: [(4, 3, "│")],
        .d: [(1, 4, "─"), (2, 4, "─"), (3, 4, "─")], .dp: [(5, 4, ".")],
    ])
}

extension LEDGlass {
    /// Whether the module's digits have fourteen segments.
    var isFourteenSegment: Bool { leds.contains { $0.segment == .h || $0.segment == .g1 } }

    /// The light the dies at (`x`, `y`) give together, as linear light.
    func light(x: Int, y: Int) -> LinearColour {
        let level = colour(x: x, y: y)
        return LinearColour(red: Float(level.red) / 255, green: Float(level.green) / 255, blue: Float(level.blue) / 255)
    }

    /// The light of the die showing `segment` of digit `index` (nil when the module has none).
    func light(of segment: Segment, digit index: Int) -> LinearColour? {
        guard let die = leds.first(where: { $0.x == index && $0.segment == segment }) else { return nil }
        let scale = Float(die.brightness)
        return LinearColour(red: Float(die.colour.red) / 255 * scale, green: Float(die.colour.green) / 255 * scale, blue: Float(die.colour.blue) / 255 * scale)
    }
}
