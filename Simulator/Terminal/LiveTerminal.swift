/// Draws successive canvases in place on a terminal without flicker: the first frame is printed
/// whole, later frames rewrite only the lines that changed, each frame in one write.
public final class LiveTerminal {
    private var previous: [String] = []
    private let output: Int32

    /// Draws on `fileDescriptor` (standard output by default).
    public init(fileDescriptor: Int32 = 1) { output = fileDescriptor }

    /// Whether `fileDescriptor` is a terminal.
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool { Platform.isTerminal(fileDescriptor) }

    /// The terminal's width in columns, when it says.
    public static func columns(_ fileDescriptor: Int32 = 1) -> Int? { Platform.terminalColumns(fileDescriptor) }

    /// How to draw live on `fileDescriptor`: nil when it cannot be drawn on in place (not a terminal,
    /// narrower than ``RigPainter/width`` columns so that every line would wrap, or `TERM=dumb`);
    /// otherwise whether in colour (not when `NO_COLOR` is set: then without colour escapes, grey
    /// levels dithered).
    public static func liveColour(fileDescriptor: Int32 = 1) -> Bool? {
        guard Platform.isTerminal(fileDescriptor), (columns(fileDescriptor) ?? RigPainter.width) >= RigPainter.width else { return nil }
        if Platform.environment("TERM") == "dumb" { return nil }
        return Platform.environment("NO_COLOR") == nil
    }

    public func draw(_ lines: [String]) {
        var out = ""
        if previous.isEmpty {
            out += "\u{1B}[?25l"  // hide the cursor while drawing
            for line in lines { out += line + "\u{1B}[K\n" }
        } else {
            let height = max(lines.count, previous.count)
            out += "\u{1B}[\(previous.count)F"  // back to the first line of the block
            for index in 0..<height {
                let line = index < lines.count ? lines[index] : ""
                let old = index < previous.count ? previous[index] : nil
                if line != old { out += "\r" + line + "\u{1B}[K" }
                out += index < previous.count ? "\u{1B}[1E" : "\n"
            }
        }
        previous = lines.count >= previous.count ? lines : lines + Array(repeating: "", count: previous.count - lines.count)
        emit(out)
    }

    /// Leaves the last frame on screen and gives the cursor back.
    public func finish() { emit("\u{1B}[?25h") }

    private func emit(_ text: String) { Platform.writeAll(output, Array(text.utf8)) }
}
