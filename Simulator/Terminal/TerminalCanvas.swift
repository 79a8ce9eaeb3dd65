import HeadwayCore
import HeadwayRender

/// A grid of character cells, each with an optional truecolor foreground and background, turned
/// into terminal lines.
public struct TerminalCanvas: Sendable {
    /// One character cell.
    public struct Cell: Sendable, Equatable {
        /// What it shows.
        public var character: Character
        /// Its colour (nil: the terminal's own).
        public var colour: Colour?
        /// Its background (nil: the terminal's own).
        public var background: Colour? = nil
    }

    /// Its width in cells.
    public let width: Int
    /// Its cells, row by row.
    public private(set) var rows: [[Cell]]

    /// A blank canvas of `width` × `height` cells.
    public init(width: Int, height: Int) {
        self.width = width
        rows = Array(repeating: Array(repeating: Cell(character: " ", colour: nil), count: width), count: height)
    }

    /// Its height in cells.
    public var height: Int { rows.count }

    /// Puts `character` at (`x`, `y`) in `colour` on `background`; outside the canvas, nothing.
    public mutating func put(_ character: Character, x: Int, y: Int, colour: Colour? = nil, background: Colour? = nil) {
        guard x >= 0, x < width, y >= 0 else { return }
        while y >= rows.count { rows.append(Array(repeating: Cell(character: " ", colour: nil), count: width)) }
        rows[y][x] = Cell(character: character, colour: colour, background: background)
    }

    /// Writes `text` from (`x`, `y`), one cell a character; escape sequences and control characters
    /// never reach the terminal (labels come from whoever can reach the service).
    public mutating func write(_ text: String, x: Int, y: Int, colour: Colour? = nil) {
        for (offset, character) in DisplayText.sanitised(text).enumerated() { put(character, x: x + offset, y: y, colour: colour) }
    }

    /// Writes `text` like ``write(_:x:y:colour:)``, cut with an ellipsis to end before column `limit`.
    public mutating func write(_ text: String, x: Int, y: Int, clippedTo limit: Int, colour: Colour? = nil) {
        let clean = DisplayText.sanitised(text)
        let room = limit - x
        guard room > 0 else { return }
        write(clean.count <= room ? clean : clean.prefix(room - 1) + "…", x: x, y: y, colour: colour)
    }

    /// The rows as text: with 24-bit colour escapes when `colour` is true, plain otherwise.
    /// Trailing blanks are dropped.
    public func lines(colour: Bool) -> [String] {
        rows.map { row in
            var end = row.count
            while end > 0, row[end - 1].character == " ", !colour || row[end - 1].background == nil { end -= 1 }
            var line = ""
            var current: Colour?, currentBackground: Colour?
            for cell in row[..<end] {
                if colour, cell.colour != current || cell.background != currentBackground {
                    if (cell.colour == nil && current != nil) || (cell.background == nil && currentBackground != nil) {
                        line += "\u{1B}[0m"
                        (current, currentBackground) = (nil, nil)
                    }
                    if let c = cell.colour, c != current { line += "\u{1B}[38;2;\(c.red);\(c.green);\(c.blue)m" }
                    if let b = cell.background, b != currentBackground { line += "\u{1B}[48;2;\(b.red);\(b.green);\(b.blue)m" }
                    (current, currentBackground) = (cell.colour, cell.background)
                }
                line.append(cell.character)
            }
            if colour, current != nil || currentBackground != nil { line += "\u{1B}[0m" }
            return line
        }
    }
}
