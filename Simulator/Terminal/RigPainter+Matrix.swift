import HeadwayRender

/// LED matrices and segment displays in the terminal: framed like a panel, each LED a dot in its
/// light, each segment of a digit a line character, lit in its colour or dim when dark.
extension RigPainter {
    func paintMatrix(_ name: String, _ glass: LEDGlass, pitch: Int, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        frame(name, size: "\(glass.width)x\(glass.height)", at: place, into: &canvas)
        for y in 0..<glass.height {
            for x in 0..<glass.width {
                let (character, colour) = cell(for: glass.light(x: x, y: y))
                canvas.put(character, x: place.x + 1 + x * pitch, y: place.y + 1 + y, colour: colour)
            }
        }
    }

    func paintDigits(_ name: String, _ glass: LEDGlass, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        let art = glass.isFourteenSegment ? DigitArt.fourteen : DigitArt.seven
        frame(name, size: "\(glass.digits.count) digits", at: place, into: &canvas)
        let hasColon = glass.leds.contains { $0.segment == .colon }
        for digit in 0..<glass.digits.count {
            // The colon sits after the digit it belongs to (the second of a clock display).
            let colonBefore = hasColon && digit >= 2 ? 1 : 0
            let left = place.x + 1 + digit * art.width + colonBefore
            for (segment, cells) in art.cells {
                guard let light = glass.light(of: segment, digit: digit) else { continue }
                let shown = cell(for: light)
                for cell in cells {
                    canvas.put(cell.character, x: left + cell.x, y: place.y + 1 + cell.y, colour: shown.0 == "·" ? Self.offColour : shown.1)
                }
            }
        }
        if hasColon, let light = glass.light(of: .colon, digit: 1) {
            let shown = cell(for: light)
            let x = place.x + 1 + 2 * art.width
            canvas.put(":", x: x, y: place.y + 1 + art.height / 2, colour: shown.0 == "·" ? Self.offColour : shown.1)
        }
    }

    /// The frame of a matrix or segment display, its name and size in the top edge.
    private func frame(_ name: String, size: String, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        let columns = place.width - 2, rows = place.height - 2
        let label = String(" \(name) \(size) ".prefix(columns))
        canvas.write("┌" + label + String(repeating: "─", count: max(0, columns - label.count)) + "┐", x: place.x, y: place.y, colour: Self.frameColour)
        for row in 0..<rows {
            canvas.put("│", x: place.x, y: place.y + 1 + row, colour: Self.frameColour)
            canvas.put("│", x: place.x + 1 + columns, y: place.y + 1 + row, colour: Self.frameColour)
        }
        canvas.write("└" + String(repeating: "─", count: columns) + "┘", x: place.x, y: place.y + 1 + rows, colour: Self.frameColour)
    }
}
