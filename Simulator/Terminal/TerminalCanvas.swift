import HeadwayCore
import HeadwayRender

/// A grid of character cells, each with an optional truecolor foreground, turned into terminal lines.
public struct TerminalCanvas: Sendable {
    /// One character cell.
    public struct Cell: Sendable, Equatable {
        /// What it shows.
        public var character: Character
        /// Its colour (nil: the terminal's own).
        public var colour: Colour?
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

    /// Puts `character` at (`x`, `y`) in `colour`; outside the canvas, nothing.
    public mutating func put(_ character: Character, x: Int, y: Int, colour: Colour? = nil) {
        guard x >= 0, x < width, y >= 0 else { return }
        while y >= rows.count { rows.append(Array(repeating: Cell(character: " ", colour: nil), count: width)) }
        rows[y][x] = Cell(character: character, colour: colour)
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
            while end > 0, row[end - 1].character == " " { end -= 1 }
            var line = ""
            var current: Colour?
            for cell in row[..<end] {
                if colour, cell.colour != current {
                    if let c = cell.colour {
                        line += "\u{1B}[38;2;\(c.red);\(c.green);\(c.blue)m"
                    } else {
                        line += "\u{1B}[0m"
                    }
                    current = cell.colour
                }
                line.append(cell.character)
            }
            if colour, current != nil { line += "\u{1B}[0m" }
            return line
        }
    }
}
