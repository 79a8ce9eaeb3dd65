import HeadwayCore

/// A segment display's digits.
extension MatrixStyle {
    func drawSegments(_ look: MatrixLook, _ configuration: ProgressStyleConfiguration, _ picture: inout MatrixPicture) {
        guard case .segments(let count, let kind, let colon) = picture.face, count > 0 else { return }
        let snapshot = configuration.snapshot
        switch look.content {
        case .idle:
            if configuration.notices.unseenFailures > 0 { picture.digits.digits[count - 1].insert(.dp) }
            return
        case .finished(let outcome, _):
            let word = switch (outcome, kind) {
            case (.succeeded, _): "done"
            case (.failed, _): "FAIL"
            case (.cancelled, .seven): "StOP"
            case (.cancelled, .fourteen): "STOP"
            case (.ended, _): "End"
            }
            picture.write(word, right: true)
            return
        case .waiting, .queued:
            picture.write(String(repeating: "-", count: min(count, 4)), right: true)
        case .working:
            if kind == .fourteen, count > 1, let label = snapshot.label, look.moves {
                picture.write(scrolled(label, width: count - 1, elapsed: snapshot.elapsed).text)
            }
            spin(&picture.digits.digits[count - 1], kind: kind, elapsed: snapshot.elapsed)
        case .bar:
            picture.write(figures(look, snapshot, count: count, kind: kind, colon: colon), right: true)
        }
        if configuration.otherJobs > 0 { picture.digits.digits[0].insert(.dp) }
    }

    /// What a running job's digits say now: the label scrolling through (14 segments, while the
    /// job is active), the percentage, the time left — in turns, or side by side on eight digits.
    private func figures(_ look: MatrixLook, _ snapshot: ProgressSnapshot, count: Int, kind: SegmentKind, colon: Bool) -> String {
        var percent = look.percent.map { "\($0)" } ?? ""
        if !percent.isEmpty {
            if kind == .fourteen, SegmentFont.width(of: percent) < count { percent += "%" }
            if look.isEstimate { percent += "." }
        }
        let time = look.timeText(colon: colon) ?? ""
        if count >= 8, !time.isEmpty {
            let half = count / 2
            return pad(percent, to: half) + pad(time, to: count - half)
        }
        guard look.moves else { return percent.isEmpty ? time : percent }
        var parts: [(text: String, seconds: Double)] = []
        if kind == .fourteen, let label = snapshot.label, !label.isEmpty {
            let scroll = scrolled(label, width: count, elapsed: 0)
            parts.append((label, scroll.duration))
        }
        if !percent.isEmpty { parts.append((percent, 3)) }
        if !time.isEmpty { parts.append((time, 3)) }
        guard parts.count > 1 else { return parts.first?.text ?? "" }
        var t = snapshot.elapsed.truncatingRemainder(dividingBy: parts.reduce(0) { $0 + $1.seconds })
        for (index, part) in parts.enumerated() {
            guard t >= part.seconds else {
                if index == 0, kind == .fourteen, snapshot.label != nil { return pad(scrolled(part.text, width: count, elapsed: t).text, to: count, left: true) }
                return part.text
            }
            t -= part.seconds
        }
        return parts[0].text
    }

    /// `text` as a window `width` characters wide at `elapsed` seconds into its scroll: still for
    /// 1 s, moving a character every 1 / ``charactersPerSecond`` s, still for 1 s at the end; and
    /// how long the whole takes (2 s when it fits).
    func scrolled(_ text: String, width: Int, elapsed: Seconds) -> (text: String, duration: Seconds) {
        let characters = Array(text)
        let overflow = characters.count - width
        guard overflow > 0 else { return (text, 2) }
        let duration = 2 + Double(overflow) / charactersPerSecond
        let t = elapsed.truncatingRemainder(dividingBy: duration)
        let start = min(overflow, max(0, Int(((t - 1) * charactersPerSecond).rounded(.down))))
        return (String(characters[start..<(start + width)]), duration)
    }

    /// `text` padded with blanks to `width` digits (on the left, or the right when `left`).
    private func pad(_ text: String, to width: Int, left: Bool = false) -> String {
        let blanks = String(repeating: " ", count: max(0, width - SegmentFont.width(of: text)))
        return left ? text + blanks : blanks + text
    }

    /// A spinner on one digit: one outer segment circling it (a bar turning, on 14 segments).
    private func spin(_ digit: inout SegmentSet, kind: SegmentKind, elapsed: Seconds, period: Seconds = 1.2) {
        let steps: [SegmentSet] = kind == .seven ? [.a, .b, .c, .d, .e, .f] : [[.j, .m], [.k, .l], .g, [.h, .n]]
        let step = Int((elapsed / period * Double(steps.count)).rounded(.down)) % steps.count
        digit.formUnion(steps[step])
    }
}
