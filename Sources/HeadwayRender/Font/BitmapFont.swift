/// A fixed-cell bitmap font: each glyph is `cellHeight` rows of up to 8 pixels (bit 7 leftmost).
public struct BitmapFont: Sendable {
    public let cellWidth: Int
    public let cellHeight: Int
    /// Rows from the top of the cell to the baseline.
    public let baseline: Int
    private let glyphs: [UInt32: [UInt8]]
    /// The same glyphs as columns, left to right (bit n: row n), the way text is drawn.
    private let columnGlyphs: [UInt32: [UInt8]]

    public init(cellWidth: Int, cellHeight: Int, baseline: Int, glyphs: [UInt32: [UInt8]]) {
        precondition(cellWidth <= 8, "glyph rows are one byte wide")
        precondition(glyphs.values.allSatisfy { $0.count == cellHeight }, "every glyph needs cellHeight rows")
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.baseline = baseline
        self.glyphs = glyphs
        columnGlyphs = glyphs.mapValues { rows in
            (0..<cellWidth).map { column in
                rows.enumerated().reduce(0) { byte, row in row.element & (0x80 >> UInt8(column)) != 0 ? byte | 1 << UInt8(row.offset) : byte }
            }
        }
    }

    /// The rows of `character`'s glyph; characters the font lacks are drawn as "?".
    public func rows(for character: Character) -> [UInt8] {
        if let scalar = character.unicodeScalars.first, let rows = glyphs[scalar.value] { return rows }
        return glyphs[0x3F] ?? Array(repeating: 0, count: cellHeight)
    }

    /// The columns of `character`'s glyph, left to right, bit n the glyph's row n; "?" for
    /// characters the font lacks.
    public func columns(for character: Character) -> [UInt8] {
        if let scalar = character.unicodeScalars.first, let columns = columnGlyphs[scalar.value] { return columns }
        return columnGlyphs[0x3F] ?? Array(repeating: 0, count: cellWidth)
    }

    /// Whether every character of `text` is printable ASCII the font has: text that can skip the
    /// checks a stranger string needs.
    func drawsAsIs(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) && glyphs[UInt32($0)] != nil }
    }

    /// Whether the font has a glyph of its own for `character` (a letter followed by combining marks
    /// it cannot draw, as in decomposed "é", counts as its letter).
    public func contains(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, glyphs[scalar.value] != nil else { return false }
        return character.unicodeScalars.dropFirst().allSatisfy { $0.properties.canonicalCombiningClass != .notReordered }
    }

    /// The width in pixels of `text` drawn at `scale`.
    public func width(of text: String, scale: Int = 1) -> Int { text.count * cellWidth * scale }
}
