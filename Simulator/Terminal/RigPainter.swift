import RealModule
import HeadwayRender

/// Draws a rig's virtual devices into a ``TerminalCanvas`` within 80 columns: displays as braille at
/// their true pixel resolution (2x4 pixels a character), rings as circles of LEDs, strips as rows.
/// A greyscale display's levels are the cells' brightness in colour; without colour they are
/// dithered (a dim pixel lights fewer of its dots), so a dim track still reads as dim.
/// The title and status lines use the terminal's whole width.
public struct RigPainter: Sendable {
    /// The columns the devices are laid out in, and the least a terminal needs to draw live.
    public static let width = 80
    /// The terminal's width, for the title and status lines.
    public let columns: Int
    /// Whether the canvas will be shown in colour (grey levels as brightness, not as dithering).
    public let colour: Bool
    private static let pixelColour = Colour(red: 0xE8, green: 0xF4, blue: 0xFF)
    private static let frameColour = Colour(red: 0x60, green: 0x60, blue: 0x68)
    private static let offColour = Colour(red: 0x3A, green: 0x3A, blue: 0x3A)
    private static let lampColour = Colour(red: 0xFF, green: 0x50, blue: 0x30)

    public init(columns: Int = RigPainter.width, colour: Bool = true) {
        self.columns = max(Self.width, columns)
        self.colour = colour
    }

    /// Paints `rig` under a title line and over status lines.
    public func paint(_ rig: SimulatorRig, title: String, status: [String]) -> TerminalCanvas {
        var canvas = TerminalCanvas(width: columns, height: 1)
        canvas.write(String(title.prefix(columns)), x: 0, y: 0)
        var y = 1
        var rightColumn = 0
        for display in rig.displays {
            let box = paint(display, into: &canvas, x: 0, y: y)
            rightColumn = max(rightColumn, box.width + 1)
            y += box.height
        }
        var ringY = 1
        var belowRings = y
        for chain in rig.chains where chain.layout.isRing {
            let radius = Self.ringRadius(count: chain.count)
            let size = Self.ringSize(radius: radius)
            let fitsRight = rightColumn + size.width <= Self.width && !rig.displays.isEmpty
            let x = fitsRight ? rightColumn + (Self.width - rightColumn - size.width) / 2 : 0
            let top = fitsRight ? ringY + 1 : belowRings
            paintRing(chain, radius: radius, into: &canvas, x: x, y: top)
            canvas.write(String(chain.name.prefix(Self.width - x)), x: x + max(0, (size.width - chain.name.count) / 2), y: top + size.height)
            if fitsRight { ringY = top + size.height + 1 } else { belowRings = top + size.height + 1 }
        }
        y = max(y, belowRings, ringY)
        for chain in rig.chains where !chain.layout.isRing {
            y = paintStrip(chain, into: &canvas, y: y)
        }
        for lights in rig.lights {
            canvas.write("\(lights.name) ", x: 0, y: y)
            for (index, lit) in lights.lit.enumerated() {
                canvas.put(lit ? "▮" : "▯", x: lights.name.count + 1 + index, y: y, colour: lit ? Self.lampColour : Self.offColour)
            }
            y += 2
        }
        for line in status {
            canvas.write(String(line.prefix(columns)), x: 0, y: y)
            y += 1
        }
        return canvas
    }

    private func paint(_ display: SimulatedOLED, into canvas: inout TerminalCanvas, x: Int, y: Int) -> (width: Int, height: Int) {
        let glass = display.isGreyscale ? display.glass : nil
        let picture = glass == nil ? display.picture : Bitmap(width: 1, height: 1)
        let width = glass?.width ?? picture.width, height = glass?.height ?? picture.height
        let columns = (width + 1) / 2, rows = (height + 3) / 4
        let label = " \(display.name) \(width)x\(height)\(glass == nil ? "" : " grey") "
        let top = "┌" + label + String(repeating: "─", count: max(0, columns - label.count)) + "┐"
        canvas.write(top, x: x, y: y, colour: Self.frameColour)
        for row in 0..<rows {
            canvas.put("│", x: x, y: y + 1 + row, colour: Self.frameColour)
            for column in 0..<columns {
                if let glass {
                    let (character, level) = Self.braille(glass, column: column, row: row, dithered: !colour)
                    canvas.put(character, x: x + 1 + column, y: y + 1 + row, colour: Self.ink(level))
                } else {
                    canvas.put(Self.braille(picture, column: column, row: row), x: x + 1 + column, y: y + 1 + row, colour: Self.pixelColour)
                }
            }
            canvas.put("│", x: x + 1 + columns, y: y + 1 + row, colour: Self.frameColour)
        }
        canvas.write("└" + String(repeating: "─", count: columns) + "┘", x: x, y: y + 1 + rows, colour: Self.frameColour)
        return (columns + 2, rows + 2)
    }

    /// The dots of a braille cell: where each lies in the 2x4 pixels, its bit, and its place in
    /// an ordered-dither matrix (0…7: the order in which dots light as a grey gets brighter).
    private static let dots: [(dx: Int, dy: Int, bit: UInt32, order: Int)] = [
        (0, 0, 0x01, 0), (0, 1, 0x02, 6), (0, 2, 0x04, 2), (1, 0, 0x08, 4), (1, 1, 0x10, 3), (1, 2, 0x20, 5), (0, 3, 0x40, 7), (1, 3, 0x80, 1),
    ]

    /// The braille character for the 2x4 pixels at (`column`, `row`) in character cells.
    static func braille(_ picture: Bitmap, column: Int, row: Int) -> Character {
        var bits: UInt32 = 0
        for dot in dots where picture[column * 2 + dot.dx, row * 4 + dot.dy] { bits |= dot.bit }
        return Character(Unicode.Scalar(0x2800 + bits)!)
    }

    /// The braille character for the 2x4 grey pixels at (`column`, `row`), and the mean level of
    /// the dots it lights: every pixel above 0 lights its dot, or, `dithered`, a pixel lights its dot
    /// when its level passes the dot's place in the dither matrix (level 15 lights all 8).
    static func braille(_ glass: Greymap, column: Int, row: Int, dithered: Bool) -> (Character, UInt8) {
        var bits: UInt32 = 0
        var sum = 0, lit = 0
        for dot in dots {
            let level = glass[column * 2 + dot.dx, row * 4 + dot.dy]
            let threshold = dithered ? Double(dot.order) * 15 / 8 : 0
            guard Double(level) > threshold else { continue }
            bits |= dot.bit
            sum += Int(level)
            lit += 1
        }
        return (Character(Unicode.Scalar(0x2800 + bits)!), lit == 0 ? 0 : UInt8(sum / lit))
    }

    /// The pixels' colour at grey `level`: the OLED's light, linear in the level, as sRGB.
    static func ink(_ level: UInt8) -> Colour {
        let light = LinearColour(pixelColour)
        let share = Float(level) / 15
        return LinearColour(red: light.red * share, green: light.green * share, blue: light.blue * share).sRGB
    }

    private static func cell(for light: LinearColour) -> (Character, Colour) {
        let shown = light.sRGB
        if shown.red < 8 && shown.green < 8 && shown.blue < 8 { return ("·", offColour) }
        return ("●", shown)
    }

    /// Grid size of a ring: the smallest ellipse (two columns per row, as terminal cells are tall)
    /// on which every LED gets a cell of its own.
    static func ringSize(radius: Double) -> (width: Int, height: Int) {
        (Int(2 * radius) + 1, Int(radius) + 1)
    }

    static func ringRadius(count: Int) -> Double {
        var radius = max(2, Double(count) / 4)
        while Set(ringPositions(count: count, radius: radius).map { $0.y * 1024 + $0.x }).count < count { radius += 1 }
        return radius
    }

    static func ringPositions(count: Int, radius: Double) -> [(x: Int, y: Int)] {
        (0..<count).map { index in
            let angle = 2 * Double.pi * Double(index) / Double(count)
            let x = radius + radius * Double.sin(angle), y = radius / 2 - radius / 2 * Double.cos(angle)
            return (Int(x.rounded()), Int(y.rounded()))
        }
    }

    private func paintRing(_ chain: SimulatedLEDChain, radius: Double, into canvas: inout TerminalCanvas, x: Int, y: Int) {
        let light = chain.light
        let positions = Self.ringPositions(count: chain.count, radius: radius)
        // LED index i sits at angle i/count clockwise from 12 o'clock, as on a ring seen from its LED side.
        for (index, position) in positions.enumerated() {
            let (character, colour) = Self.cell(for: light[index])
            canvas.put(character, x: x + position.x, y: y + position.y, colour: colour)
        }
    }

    private func paintStrip(_ chain: SimulatedLEDChain, into canvas: inout TerminalCanvas, y: Int) -> Int {
        let light = chain.light
        let label = "\(chain.name) "
        canvas.write(label, x: 0, y: y)
        let perRow = Self.width - label.count
        for (index, led) in light.enumerated() {
            let (character, colour) = Self.cell(for: led)
            canvas.put(character, x: label.count + index % perRow, y: y + index / perRow, colour: colour)
        }
        return y + (light.count + perRow - 1) / perRow + 1
    }
}
