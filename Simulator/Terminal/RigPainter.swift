import HeadwayRender

/// Draws a rig's virtual devices into a ``TerminalCanvas`` where a ``RigLayout`` places them:
/// displays in braille (at their true pixel resolution, or scaled down), rings as circles of LEDs
/// or rows, strips and GPIO lamps as rows. A greyscale display's levels are the cells' brightness
/// in colour; without colour they are dithered (a dim pixel lights fewer of its dots), so a dim
/// track still reads as dim.
public struct RigPainter: Sendable {
    /// Whether the canvas will be shown in colour (grey levels as brightness, not as dithering).
    public let colour: Bool
    private static let pixelColour = Colour(red: 0xE8, green: 0xF4, blue: 0xFF)
    static let frameColour = Colour(red: 0x60, green: 0x60, blue: 0x68)
    static let offColour = Colour(red: 0x3A, green: 0x3A, blue: 0x3A)
    private static let lampColour = Colour(red: 0xFF, green: 0x50, blue: 0x30)

    /// A painter in 24-bit colour, or without colour (greys dithered) when `colour` is false.
    public init(colour: Bool = true) {
        self.colour = colour
    }

    /// Paints `rig` as `layout` places it, `title` on the first row and `status` from the layout's
    /// status row: as many lines as fit, the last of them saying how many more there are when not
    /// all do. The canvas is as wide as the terminal and never taller.
    public func paint(_ rig: SimulatorRig, layout: RigLayout, title: String, status: [String]) -> TerminalCanvas {
        let shown = Self.fitting(status, rows: layout.statusRows)
        var canvas = TerminalCanvas(width: layout.size.columns, height: layout.statusRow + shown.count)
        canvas.write(title, x: 0, y: 0, clippedTo: layout.size.columns)
        let devices = rig.laidOut
        for placement in layout.placements {
            let device = devices[placement.device]
            switch (device.view, placement.form) {
            case (.panel(let panel), .glass(let scale)): paint(device.name, panel, scale: scale, at: placement, into: &canvas)
            case (.panel(let panel), .halfBlocks(let scale)): paintColour(device.name, panel, scale: scale, at: placement, into: &canvas)
            case (.leds, .circle(let radius)): paintRing(device, radius: radius, at: placement, into: &canvas)
            case (.leds, .row(let label, let perRow)):
                paintRow(device.name, device.light.map(cell(for:)), label: label, perRow: perRow, at: placement, into: &canvas)
            case (.matrix(let glass), .matrix(let pitch)): paintMatrix(device.name, glass(), pitch: pitch, at: placement, into: &canvas)
            case (.matrix(let glass), .digits): paintDigits(device.name, glass(), at: placement, into: &canvas)
            case (.lamps(let lit), .row(let label, let perRow)):
                let cells = lit().map { lit -> (Character, Colour) in lit ? ("▮", Self.lampColour) : ("▯", Self.offColour) }
                paintRow(device.name, cells, label: label, perRow: perRow, at: placement, into: &canvas)
            default:
                preconditionFailure("a layout made for another rig")
            }
        }
        for (index, line) in shown.enumerated() {
            canvas.write(line, x: 0, y: layout.statusRow + index, clippedTo: layout.size.columns)
        }
        return canvas
    }

    /// `lines` in at most `rows` rows: the last one says how many did not fit.
    static func fitting(_ lines: [String], rows: Int) -> [String] {
        guard lines.count > rows else { return lines }
        let kept = max(0, rows - 1)
        return Array(lines.prefix(kept)) + ["… and \(lines.count - kept) more"]
    }

    private func paint(_ name: String, _ panel: any VirtualPanel, scale: Int, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        let glass: Greymap?, picture: Bitmap
        switch panel.panelPicture {
        case .grey(let grey): (glass, picture) = (Braille.scaled(grey, by: scale), Bitmap(width: 1, height: 1))
        case .mono(let mono): (glass, picture) = (nil, Braille.scaled(mono, by: scale))
        case .colour: return paintColour(name, panel, scale: scale, at: place, into: &canvas)
        }
        let columns = place.width - 2, rows = place.height - 2
        let fraction = [2: " ½", 4: " ¼"][scale] ?? ""
        // The panel's state, which the picture alone cannot show: turned off (sparing the glass, or
        // quiet hours), or at a low contrast (an unchanging picture dimmed, a result kept dim).
        let state = !panel.isDisplayOn ? " off" : panel.isDim ? " dim" : ""
        let label = String(" \(name) \(panel.panelWidth)x\(panel.panelHeight)\(glass == nil ? "" : " grey")\(fraction)\(state) ".prefix(columns))
        let top = "┌" + label + String(repeating: "─", count: max(0, columns - label.count)) + "┐"
        canvas.write(top, x: place.x, y: place.y, colour: Self.frameColour)
        for row in 0..<rows {
            let y = place.y + 1 + row
            canvas.put("│", x: place.x, y: y, colour: Self.frameColour)
            for column in 0..<columns {
                if let glass {
                    let (character, level) = Braille.character(glass, column: column, row: row, dithered: !colour)
                    canvas.put(character, x: place.x + 1 + column, y: y, colour: Self.ink(level))
                } else {
                    canvas.put(Braille.character(picture, column: column, row: row), x: place.x + 1 + column, y: y, colour: Self.pixelColour)
                }
            }
            canvas.put("│", x: place.x + 1 + columns, y: y, colour: Self.frameColour)
        }
        canvas.write("└" + String(repeating: "─", count: columns) + "┘", x: place.x, y: place.y + 1 + rows, colour: Self.frameColour)
    }

    /// The pixels' colour at grey `level`: the OLED's light, linear in the level, as sRGB.
    static func ink(_ level: UInt8) -> Colour {
        let light = LinearColour(pixelColour)
        let share = Float(level) / 15
        return LinearColour(red: light.red * share, green: light.green * share, blue: light.blue * share).sRGB
    }

    /// An LED's cell: in colour, a dot of its colour; without colour (NO_COLOR), a glyph per
    /// brightness, so that progress still reads: off ·, dim ○, half ◐, full ●.
    func cell(for light: LinearColour) -> (Character, Colour) {
        let shown = light.sRGB
        let level = max(shown.red, shown.green, shown.blue)
        if level < 8 { return ("·", Self.offColour) }
        if colour { return ("●", shown) }
        return (level < 128 ? "○" : level < 224 ? "◐" : "●", shown)
    }

    private func paintRing(_ chain: RigDevice, radius: Double, at place: RigLayout.Placement, into canvas: inout TerminalCanvas) {
        let size = RigLayout.ringSize(radius: radius)
        let left = place.x + (place.width - size.width) / 2
        let light = chain.light
        for (index, position) in RigLayout.ringPositions(count: light.count, radius: radius).enumerated() {
            let (character, colour) = cell(for: light[index])
            canvas.put(character, x: left + position.x, y: place.y + position.y, colour: colour)
        }
        let name = String(chain.name.prefix(place.width))
        canvas.write(name, x: place.x + (place.width - name.count) / 2, y: place.y + size.height)
    }

    /// A label, then `cells` `perRow` a row, the rows after the first under the first cell.
    private func paintRow(
        _ name: String, _ cells: [(Character, Colour)], label: Int, perRow: Int, at place: RigLayout.Placement, into canvas: inout TerminalCanvas
    ) {
        canvas.write(String(name.prefix(label - 1)), x: place.x, y: place.y)
        for (index, (character, colour)) in cells.enumerated() {
            canvas.put(character, x: place.x + label + index % perRow, y: place.y + index / perRow, colour: colour)
        }
    }
}
