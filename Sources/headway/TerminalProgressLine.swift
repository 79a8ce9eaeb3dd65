import HeadwayCore
import HeadwaySystem
import HeadwayToolProgress

/// The line `headway run` draws at the bottom of its terminal when it withheld the tool's own
/// meter to read it, so that wrapping a tool never leaves its user with less than the tool showed:
/// the step, the percentage, value and total in the tool's units and its ETA
/// ("restic: backing up 42% (1.2/3.1 GiB) ETA 1m05s"), redrawn in place at most ten times a second
/// and cut to the terminal's width. It is cleared before the command's own output passes and
/// drawn again after it, and cleared for good at the end. Only on a terminal (stderr): a log or
/// a pipe gets nothing of it.
final class TerminalProgressLine {
    private let fd = SystemIO.standardError
    private let clock = MonotonicClock()
    private var text: String?
    /// Whether the terminal shows `text` as it is.
    private var current = false
    private var drawn = false
    private var drawnAt = -Double.infinity

    /// A line for a command whose meter `withheld` says was taken, when stderr is a terminal.
    static func make(withheld: Bool) -> TerminalProgressLine? {
        withheld && Terminal.isTerminal(SystemIO.standardError) ? TerminalProgressLine() : nil
    }

    /// What the tool reported last.
    func show(_ update: ToolProgress.Update) {
        var parts: [String] = []
        if let label = update.label { parts.append(DisplayText.sanitised(label)) }
        if let value = update.value, let total = update.total, total > 0 {
            parts.append("\(Int((min(1, value / total) * 100).rounded(.down)))%")
            if total != 100 || update.unit != nil { parts.append("(\(NumberText.amounts(value, of: total, unit: update.unit)))") }
        }
        if let eta = update.eta { parts.append("ETA ~\(DurationText.short(eta, rounding: .up))") }
        guard !parts.isEmpty else { return }
        let line = parts.joined(separator: " ")
        if line != text { current = false }
        text = line
        draw()
    }

    /// Clears the line before the command's own output is written.
    func clear() {
        guard drawn else { return }
        SystemIO.writeAll(fd, Array("\r\u{1B}[K".utf8)[...])
        drawn = false
    }

    /// When a change not yet drawn is due, for the caller's wait.
    var due: Double? { text == nil || (current && drawn) ? nil : max(drawnAt + 0.1, clock.now) }

    /// Draws the line again (after the command's output), a change at most ten times a second.
    func draw() {
        guard let text, !(drawn && current), clock.now - drawnAt >= 0.1 else { return }
        let width = Terminal.size(fd)?.columns ?? 80
        SystemIO.writeAll(fd, Array(("\r\u{1B}[K" + DisplayText.shortened(text, columns: max(1, width - 1))).utf8)[...])
        drawn = true
        current = true
        drawnAt = clock.now
    }
}
