import Foundation
import Testing

/// What a test reads in a captured screen of the simulator's live view.
extension EndToEnd.TerminalSizeTests {
    /// The last row with text: the status line.
    static func status(_ screen: [String]) -> String? { screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }

    /// Waits up to `seconds` for the simulator's rig whole on `pane`'s screen (see
    /// ``problems(_:size:title:status:)``) and expects it; the last screen read.
    @discardableResult
    static func expectWholeRig(
        on pane: TmuxPane, within seconds: Double, size: Size, title: String, status: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        let screen = pane.waitFor(seconds) { problems($0, size: size, title: title, status: status).isEmpty }
        let found = problems(screen, size: size, title: title, status: status)
        #expect(found.isEmpty, "\(size): \(found.joined(separator: "; "))\n\(screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
        return screen
    }

    /// Expects the frames drawn over the next half second to scroll nothing into the history. (A
    /// terminal made shorter moves the rows above its cursor there itself, tmux as xterm does: what
    /// is checked after a resize is that the frames that follow do not.)
    static func expectNothingScrollsWhileFramesCome(on pane: TmuxPane, size: Size, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = pane.scrolledOff
        _ = BackgroundProcess.eventually(within: 0.5) { pane.scrolledOff != before }
        #expect(pane.scrolledOff == before, "\(size): frames scrolled the terminal", sourceLocation: sourceLocation)
    }

    /// What keeps `screen` from showing the simulator's rig whole: the title on the first row and
    /// `status` on the last with text, as many rows as the terminal and none longer, the OLED's
    /// frame unbroken, a cell for each of the 24 + 60 + 8 LEDs and the 8 lamps, every device's
    /// name, and no escape sequence shown as text.
    static func problems(_ screen: [String], size: Size, title: String, status: String) -> [String] {
        var problems: [String] = []
        if screen.count != size.rows { problems.append("\(screen.count) rows") }
        if screen.first?.hasPrefix(title) != true { problems.append("no header on the first row") }
        if Self.status(screen)?.contains(status) != true { problems.append("not \"\(status)\" last") }
        if !screen.allSatisfy({ $0.count <= size.columns }) { problems.append("a row too long") }
        if let line = screen.first(where: isGarbled) { problems.append("garbled: \(line.debugDescription)") }
        let devices = screen.dropFirst().filter { !$0.contains(status) }.joined(separator: "\n")
        if devices.filter({ "●◐○·".contains($0) }).count != 24 + 60 + 8 { problems.append("not a cell for every LED") }
        if devices.filter({ "▮▯".contains($0) }).count != 8 { problems.append("not every lamp") }
        for name in ["ring", "strip ", "stick ", "bar "] where !devices.contains(name) { problems.append("no \(name)") }
        if !oledFrameIsWhole(devices.split(separator: "\n").map(String.init)) { problems.append("the OLED's frame is broken") }
        return problems
    }

    /// Whether `line` shows an escape character, or what an escape sequence leaves when the
    /// terminal did not take it whole ("[38;2;…m", "[2K", "[?25l").
    static func isGarbled(_ line: String) -> Bool {
        line.contains("\u{1B}") || line.contains(/\[[0-9;?]+[A-Za-z]/) || line.contains(/[0-9]+;[0-9]+;[0-9]+m/)
    }

    /// `screen` with what changes from frame to frame made alike (braille dots, lit and dark LEDs
    /// and lamps) and the status line left out: what a fresh terminal of the same size shows too,
    /// unless a resize left pieces of the old frame behind.
    /// A screen without what changes from frame to frame: the pixels, which LEDs are lit, the
    /// status line, and the panel's state beside its name (asleep while the demo's job is blank).
    static func skeleton(_ screen: [String], status: String) -> [String] {
        screen.map { line in
            if line.contains(status) { return "(status)" }
            let line = line.replacingOccurrences(of: " off ─", with: " ─────").replacingOccurrences(of: " dim ─", with: " ─────")
            return String(line.map { character -> Character in
                if let scalar = character.unicodeScalars.first, (0x2800...0x28FF).contains(scalar.value) { return "⠿" }
                return "●◐○·".contains(character) ? "●" : "▮▯".contains(character) ? "▮" : character
            })
        }
    }

    /// The OLED's box: its top edge labelled `label`, then rows with both side edges in the same
    /// columns, then its bottom edge.
    static func oledFrameIsWhole(_ rows: [String], label: String = "┌ oled 128x64") -> Bool {
        let rows = rows.map(Array.init)
        guard let top = rows.firstIndex(where: { String($0).contains(label) }), let left = rows[top].firstIndex(of: "┌"),
            let right = rows[top][left...].firstIndex(of: "┐"), let bottom = rows[(top + 1)...].firstIndex(where: { $0.count > left && $0[left] == "└" })
        else { return false }
        let sides = rows[(top + 1)..<bottom].allSatisfy { $0.count > right && $0[left] == "│" && $0[right] == "│" }
        return sides && bottom - top - 1 >= 4 && rows[bottom].count > right && rows[bottom][right] == "┘"
    }
}
