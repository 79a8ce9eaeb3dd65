/// A fixed-cell bitmap font: each glyph is `cellHeight` rows of up to 8 pixels (bit 7 leftmost).
public struct BitmapFont: Sendable {
    /// The width of a glyph's cell, spacing included, in pixels.
    public let cellWidth: Int
    /// The height of a glyph's cell, in pixels.
    public let cellHeight: Int
    /// Rows from the top of the cell to the baseline.
    public let baseline: Int
    private let glyphs: [UInt32: [UInt8]]
    /// The same glyphs as columns, left to right (bit n: row n), the way text is drawn.
    private let columnGlyphs: [UInt32: [UInt8]]
    /// The columns of printable ASCII (0x20…0x7E), `cellWidth` bytes per character from
    /// (code − 0x20) × `cellWidth`, for text that needs no lookup: labels and numbers are nearly
    /// always ASCII, and a hash (or an array retained) per character is most of a frame.
    private let asciiColumns: [UInt8]
    /// Whether the font has every printable ASCII character.
    private let hasASCII: Bool

    /// A font of `glyphs` (by Unicode scalar: `cellHeight` rows of one byte each, bit 7 leftmost).
    public init(cellWidth: Int, cellHeight: Int, baseline: Int, glyphs: [UInt32: [UInt8]]) {
        precondition(cellWidth <= 8, "glyph rows are one byte wide")
        precondition(glyphs.values.allSatisfy { $0.count == cellHeight }, "every glyph needs cellHeight rows")
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.baseline = baseline
        self.glyphs = glyphs
        let columns: [UInt32: [UInt8]] = glyphs.mapValues { rows in
            (0..<cellWidth).map { column -> UInt8 in
                rows.enumerated().reduce(0) { byte, row in row.element & (0x80 >> UInt8(column)) != 0 ? byte | 1 << UInt8(row.offset) : byte }
            }
        }
        columnGlyphs = columns
        let blank = [UInt8](repeating: 0, count: cellWidth)
        asciiColumns = (UInt32(0x20)...0x7E).flatMap { code -> [UInt8] in columns[code] ?? columns[0x3F] ?? blank }
        hasASCII = (UInt32(0x20)...0x7E).allSatisfy { glyphs[$0] != nil }
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

    /// Column `index` (0 ..< `cellWidth`) of printable ASCII `byte` (0x20…0x7E).
    func column(_ index: Int, ofASCII byte: UInt8) -> UInt8 { asciiColumns[(Int(byte) - 0x20) * cellWidth + index] }

    /// Whether every character of `text` is printable ASCII the font has: text that can skip the
    /// checks a stranger string needs.
    func drawsAsIs(_ text: String) -> Bool {
        guard hasASCII else { return false }
        let printable = { (byte: UInt8) in byte >= 0x20 && byte <= 0x7E }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(printable) } ?? text.utf8.allSatisfy(printable)
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
