import HeadwayCore

/// One line of plain text about a job: what is printed when the terminal cannot be drawn on (not
/// a TTY, or too small for the rig), and the status line under the live picture.
public enum StatusLine {
    /// The line with its bar as wide as `columns` allow (20 cells down to 5, else none), so that
    /// the percentage and ETA after it stay in view.
    public static func describe(_ snapshot: ProgressSnapshot, columns: Int) -> String {
        let line = describe(snapshot)
        guard line.count > columns else { return line }
        let barWidth = 20 - (line.count - columns)
        return describe(snapshot, barWidth: barWidth >= 5 ? barWidth : 0)
    }

    /// The line with a bar `barWidth` cells wide (none when 0).
    public static func describe(_ snapshot: ProgressSnapshot, barWidth: Int = 20) -> String {
        let clock = "[" + pad(NumberText.compact((snapshot.time * 10).rounded() / 10), to: 5) + "s]"
        var parts = [clock, snapshot.phase.name + String(repeating: " ", count: max(0, 9 - snapshot.phase.name.count))]
        guard snapshot.phase != .pending, snapshot.phase != .hidden else {
            return (parts + [snapshot.phase == .pending ? "(within grace delay)" : "idle"]).joined(separator: " ")
        }
        parts.append(snapshot.label ?? "(no label)")
        if let fraction = snapshot.fraction {
            if barWidth > 0 {
                let filled = Int((fraction * Double(barWidth)).rounded(.down))
                parts.append("[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]")
            }
            parts.append(snapshot.percentText ?? "")
        } else if snapshot.isVisible, case .active = snapshot.phase {
            parts.append("[working]")
        }
        if let value = snapshot.valueText { parts.append(value) }
        if let time = snapshot.timeText { parts.append(time) }
        return parts.joined(separator: " ")
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
