/// Drawing text on a ``Bitmap``.
extension Bitmap {
    /// Draws `text` with its cell's top-left corner at (`x`, `y`), each font pixel `scale` pixels big.
    /// Returns the x just past the last glyph.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1, on: Bool = true) -> Int {
        var penX = x
        for character in text {
            let rows = font.rows(for: character)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<font.cellWidth where bits & (0x80 >> UInt8(column)) != 0 {
                    fill(PixelRect(x: penX + column * scale, y: y + row * scale, width: scale, height: scale), on: on)
                }
            }
            penX += font.cellWidth * scale
        }
        return penX
    }

    /// Draws `text` so that it ends at `maxX` (right-aligned).
    public mutating func draw(_ text: String, endingAt maxX: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1) {
        draw(text, x: maxX - font.width(of: text, scale: scale), y: y, font: font, scale: scale)
    }

    /// Draws `text` centred on `centerX`.
    public mutating func draw(_ text: String, centeredAt centerX: Int, y: Int, font: BitmapFont = .fixed5x7, scale: Int = 1) {
        draw(text, x: centerX - font.width(of: text, scale: scale) / 2, y: y, font: font, scale: scale)
    }
}

/// Fitting text into a width.
extension BitmapFont {
    /// `text` cut to fit `maxWidth` pixels, ending in "…" when it had to be cut. Characters the font
    /// lacks are replaced by "?", control characters dropped, so the result always draws as measured.
    public func truncated(_ text: String, toFit maxWidth: Int, scale: Int = 1) -> String {
        let printable = String(text.compactMap { character -> Character? in
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return nil }
            return contains(character) ? character : "?"
        })
        let capacity = maxWidth / (cellWidth * scale)
        guard printable.count > capacity else { return printable }
        guard capacity > 0 else { return "" }
        return String(printable.prefix(capacity - 1)) + "…"
    }
}
