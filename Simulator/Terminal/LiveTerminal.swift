import HeadwayCore
import HeadwaySystem

/// Draws successive frames on a terminal's screen, from its top row, without flicker or
/// scrolling: the first frame and every frame after a resize are drawn whole, the others rewrite
/// only the rows that changed; each frame is one write. Rows are addressed by number, so a frame
/// as tall as the terminal never scrolls it. Or, when the terminal cannot hold a frame, plain
/// lines that scroll.
public final class LiveTerminal {
    /// The rows on the screen now, while live; nil while lines scroll.
    private var shown: [String]?
    /// The size `shown` was drawn for.
    private var size = TerminalSize.classic
    private let output: Int32

    /// Draws on `fileDescriptor` (standard output by default).
    public init(fileDescriptor: Int32 = 1) { output = fileDescriptor }

    /// Whether `fileDescriptor` is a terminal.
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool { Terminal.isTerminal(fileDescriptor) }

    /// The terminal's size, when it says.
    public static func size(_ fileDescriptor: Int32 = 1) -> TerminalSize? {
        Terminal.size(fileDescriptor).map { TerminalSize(columns: $0.columns, rows: $0.rows) }
    }

    /// How to draw live on `fileDescriptor`: nil when it cannot be drawn on in place (not a
    /// terminal, or `TERM=dumb`); otherwise whether in colour (not when `NO_COLOR` is set: then
    /// without colour escapes, grey levels dithered).
    public static func liveColour(fileDescriptor: Int32 = 1) -> Bool? {
        guard Terminal.isTerminal(fileDescriptor), SystemIO.environment("TERM") != "dumb" else { return nil }
        return SystemIO.environment("NO_COLOR") == nil
    }

    /// Draws `lines` (at most `size.rows`, none wider than `size.columns`) from the top row; the
    /// whole screen when the size changed or `whole` (the screen may have been written on),
    /// otherwise the rows that changed. The cursor, hidden, waits under the frame.
    public func draw(_ lines: [String], size: TerminalSize, whole: Bool = false) {
        var out = ""
        if shown == nil {
            // Scroll what the screen holds (the command that started this) into the terminal's
            // history, rather than erase it: the frame then starts on the top row.
            out += "\u{1B}[?25l" + String(repeating: "\n", count: max(0, size.rows - 1))
        }
        if shown == nil || whole || size != self.size {
            for (row, line) in lines.enumerated() { out += Self.row(row) + line }
            if lines.count < size.rows { out += Self.row(lines.count, erasing: false) + "\u{1B}[J" }
        } else if let shown {
            for row in 0..<max(lines.count, shown.count) {
                let line = row < lines.count ? lines[row] : ""
                if row >= shown.count || line != shown[row] { out += Self.row(row) + line }
            }
        }
        out += Self.row(min(lines.count, size.rows - 1), erasing: false)
        shown = lines
        self.size = size
        emit(out)
    }

    /// Gives up drawing live: says `message` in a line of its own (on the first row, the screen
    /// cleared, when a frame was on it) and shows the cursor; ``writeLine(_:)`` then prints under it.
    public func fallBack(_ message: String) {
        emit((shown == nil ? "" : "\u{1B}[H\u{1B}[J") + DisplayText.sanitised(message) + "\n\u{1B}[?25h")
        shown = nil
    }

    /// Prints `text` as a line of its own (escape sequences and control characters removed).
    public func writeLine(_ text: String) { emit(DisplayText.sanitised(text) + "\n") }

    /// Leaves the last frame on screen with the cursor, shown again, on the row under it.
    public func finish() {
        if let shown {
            // A frame as tall as the terminal leaves its last row to the shell only by scrolling.
            emit(shown.count < size.rows ? Self.row(shown.count, erasing: false) : "\n")
        }
        emit("\u{1B}[?25h")
        shown = nil
    }

    /// Moves to the start of `row` (0 the top) and, `erasing`, blanks it for a new line.
    private static func row(_ row: Int, erasing: Bool = true) -> String {
        "\u{1B}[\(row + 1);1H" + (erasing ? "\u{1B}[2K" : "")
    }

    private func emit(_ text: String) { SystemIO.writeAll(output, Array(text.utf8)[...]) }
}
