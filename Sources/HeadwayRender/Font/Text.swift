import HeadwayCore

/// Drawing text on a display picture.
extension DisplaySurface {
    /// Draws `text` with its cell's top-left corner at (`x`, `y`), each font pixel `scale` pixels big.
    /// Returns the x just past the last glyph.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1, shade: Shade = .text) -> Int {
        let level = shade.level(on: Self.self)
        let advance = font.cellWidth * scale
        var penX = x
        if font.drawsAsIs(text) {
            for byte in text.utf8 {
                for index in 0..<font.cellWidth { drawColumn(font.column(index, ofASCII: byte), x: penX + index * scale, y: y, scale: scale, level: level, role: shade.role) }
                penX += advance
            }
        } else {
            for character in text {
                for (index, column) in font.columns(for: character).enumerated() { drawColumn(column, x: penX + index * scale, y: y, scale: scale, level: level, role: shade.role) }
                penX += advance
            }
        }
        return penX
    }

    /// One glyph column (bit n: row n) with its top at `y`, `scale` pixels wide and each row
    /// `scale` pixels high.
    private mutating func drawColumn(_ column: UInt8, x: Int, y: Int, scale: Int, level: UInt8, role: SurfaceRole) {
        guard column != 0 else { return }
        let bits = BitmapFont.stretched(column, by: scale)
        for copy in 0..<scale { setColumn(x + copy, from: y, bits: bits, level: level, role: role) }
    }

    /// Draws `text` so that it ends at `maxX` (right-aligned).
    public mutating func draw(_ text: String, endingAt maxX: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1, shade: Shade = .text) {
        draw(text, x: maxX - font.width(of: text, scale: scale), y: y, font: font, scale: scale, shade: shade)
    }

    /// Draws `text` centred on `centerX`.
    public mutating func draw(_ text: String, centeredAt centerX: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1, shade: Shade = .text) {
        draw(text, x: centerX - font.width(of: text, scale: scale) / 2, y: y, font: font, scale: scale, shade: shade)
    }
}

extension BitmapFont {
    /// A glyph column with each row repeated `scale` times (scale × 8 ≤ 64 rows).
    static func stretched(_ column: UInt8, by scale: Int) -> UInt64 {
        guard scale > 1 else { return UInt64(column) }
        var bits: UInt64 = 0
        for row in 0..<8 where column & (1 << UInt8(row)) != 0 {
            bits |= ((1 << UInt64(scale)) - 1) << UInt64(row * scale)
        }
        return bits
    }

    /// `text` cut to fit `maxWidth` pixels where a word ends, ending in "…" when it had to be cut. Characters the font
    /// lacks are replaced by "?", control characters dropped, so the result always draws as measured.
    public func truncated(_ text: String, toFit maxWidth: Int, scale: Int = 1) -> String {
        let capacity = maxWidth / (cellWidth * scale)
        if drawsAsIs(text) {
            guard text.utf8.count > capacity else { return text }
            return DisplayText.shortened(text, columns: capacity)
        }
        let printable = String(text.compactMap { character -> Character? in
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return nil }
            return contains(character) ? character : "?"
        })
        return DisplayText.shortened(printable, columns: capacity)
    }
}
