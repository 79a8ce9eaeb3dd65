#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Draws successive canvases in place on a terminal without flicker: the first frame is printed
/// whole, later frames rewrite only the lines that changed, each frame in one write.
public final class LiveTerminal {
    private var previous: [String] = []
    private let output: Int32

    public init(fileDescriptor: Int32 = STDOUT_FILENO) { output = fileDescriptor }

    /// Whether `fileDescriptor` is a terminal and colour is allowed (no `NO_COLOR`, not `TERM=dumb`).
    public static func canDrawLive(fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        guard isatty(fileDescriptor) == 1 else { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
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

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
