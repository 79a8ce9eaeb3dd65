import HeadwayRender

/// A colour display's glass in terminal cells: each cell the upper half block "▀", its foreground
/// the upper pixel and its background the lower one, so a cell shows two pixels in 24-bit colour.
/// Scaled down, a pixel of the cell is the mean of the `scale` x `scale` pixels it stands for.
/// Without colour, a pixel is lit when its light is at least half of full, and a cell is one of
/// " ", "▀", "▄" and "█".
enum HalfBlocks {
    /// The mean drive levels of the `scale` x `scale` block whose top left is (`x`, `y`) (black outside).
    static func pixel(_ glass: TFTGlass, x: Int, y: Int, scale: Int) -> Colour {
        var red = 0, green = 0, blue = 0, count = 0
        for row in y..<min(glass.height, y + scale) {
            for column in x..<min(glass.width, x + scale) {
                let pixel = glass[column, row]
                red += Int(pixel.red)
                green += Int(pixel.green)
                blue += Int(pixel.blue)
                count += 1
            }
        }
        guard count > 0 else { return .black }
        return Colour(red: UInt8(red / count), green: UInt8(green / count), blue: UInt8(blue / count))
    }

    /// Whether a pixel lights a dot when there is no colour: its light at least half of full.
    static func lit(_ colour: Colour) -> Bool {
        let light = LinearColour(colour)
        return 0.2126 * light.red + 0.7152 * light.green + 0.0722 * light.blue >= 0.5
    }

    /// The character and its colours for cell (`column`, `row`).
    static func cell(_ glass: TFTGlass, column: Int, row: Int, scale: Int, colour: Bool) -> (Character, Colour?, Colour?) {
        let top = pixel(glass, x: column * scale, y: 2 * row * scale, scale: scale)
        let bottom = pixel(glass, x: column * scale, y: (2 * row + 1) * scale, scale: scale)
        if colour { return ("▀", top, bottom) }
        switch (lit(top), lit(bottom)) {
        case (true, true): return ("█", nil, nil)
        case (true, false): return ("▀", nil, nil)
        case (false, true): return ("▄", nil, nil)
        case (false, false): return (" ", nil, nil)
        }
    }
}

extension RigPainter {
    /// A colour display framed like a braille one, its glass in half blocks.
    func paintColour(_ name: String, _ panel: any VirtualPanel, scale: Int, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        guard case .colour(let glass) = panel.panelPicture else { return }
        let frame = Colour(red: 0x60, green: 0x60, blue: 0x68)
        let columns = place.width - 2, rows = place.height - 2
        let fraction = scale > 1 ? " 1/\(scale)" : ""
        let state = !panel.isDisplayOn ? " off" : panel.isDim ? " dim" : ""
        let label = String(" \(name) \(panel.panelWidth)x\(panel.panelHeight) colour\(fraction)\(state) ".prefix(columns))
        canvas.write("┌" + label + String(repeating: "─", count: max(0, columns - label.count)) + "┐", x: place.x, y: place.y, colour: frame)
        for row in 0..<rows {
            let y = place.y + 1 + row
            canvas.put("│", x: place.x, y: y, colour: frame)
            for column in 0..<columns {
                let (character, foreground, background) = HalfBlocks.cell(glass, column: column, row: row, scale: scale, colour: colour)
                canvas.put(character, x: place.x + 1 + column, y: y, colour: foreground, background: background)
            }
            canvas.put("│", x: place.x + 1 + columns, y: y, colour: frame)
        }
        canvas.write("└" + String(repeating: "─", count: columns) + "┘", x: place.x, y: place.y + 1 + rows, colour: frame)
    }
}
