import HeadwayCore
import RealModule

/// A matrix's picture: text rows on top when the matrix is tall enough, the bar at the bottom.
extension MatrixStyle {
    /// Rows a matrix needs for text above its bar.
    static let textRows = 5

    func drawPixels(_ look: MatrixLook, _ configuration: ProgressStyleConfiguration, _ canvas: inout MatrixCanvas) {
        let width = canvas.width, height = canvas.height
        let tall = height >= Self.textRows + 2
        let barHeight = tall ? max(1, min(height - Self.textRows - 1, height / 4)) : height
        let bar = PixelRect(x: 0, y: height - barHeight, width: width, height: barHeight)
        let snapshot = configuration.snapshot
        let showsTrack = configuration.appearance.track != nil
        switch look.content {
        case .idle:
            if configuration.notices.unseenFailures > 0 {
                canvas.role = .stalled  // the palette's mark of unseen failures
                canvas.setLevel(MatrixCanvas.maxLevel, x: width - 1, y: height - 1)
            }
            return
        case .finished(let outcome, let fraction):
            if tall {
                drawOutcome(outcome, role: look.role, &canvas)
            } else {
                let shown = outcome == .succeeded ? 1 : max(fraction ?? 1, 1 / Double(width))
                drawBar(&canvas, in: bar, fraction: shown, dotted: false, role: look.role, showsTrack: false)
            }
            return
        case .bar(let fraction, let dotted):
            drawBar(&canvas, in: bar, fraction: fraction, dotted: dotted, role: look.role, showsTrack: showsTrack, edgeDark: look.edgeDark)
            if tall { drawTextRow(look, snapshot, &canvas) }
        case .working:
            if tall {
                let side = min(height, 8)
                drawSpinner(&canvas, at: PixelRect(x: width - side, y: (height - side) / 2, width: side, height: side), elapsed: snapshot.elapsed)
                drawLeft(look, snapshot, &canvas, room: width - side - 1)
            } else {
                drawSweep(&canvas, in: bar, elapsed: snapshot.elapsed, showsTrack: showsTrack)
            }
        case .waiting:
            drawBar(&canvas, in: bar, fraction: 1, dotted: true, role: look.role, showsTrack: showsTrack)
            if tall { drawLeft(look, snapshot, &canvas, room: width) }
        case .queued:
            drawBar(&canvas, in: bar, fraction: 1 / Double(width), dotted: false, role: .fill, showsTrack: showsTrack)
            if tall { drawLeft(look, snapshot, &canvas, room: width) }
        }
        if configuration.otherJobs > 0 { markOtherJobs(&canvas, tall: tall, time: snapshot.time, bar: bar, look: look) }
    }

    /// The percentage at the top right, and at the left what room is left for: a pause mark, the
    /// label or the time left.
    private func drawTextRow(_ look: MatrixLook, _ snapshot: ProgressSnapshot, _ canvas: inout MatrixCanvas) {
        var room = canvas.width
        if let percent = look.percent {
            var text = "\(percent)"
            if canvas.width >= 12 { text += "%" }
            if look.isEstimate, textWidth("~" + text) <= canvas.width { text = "~" + text }
            let x = canvas.width - textWidth(text)
            canvas.role = look.role
            canvas.draw(text, x: x, y: 0, font: font)
            room = x - 1
        }
        drawLeft(look, snapshot, &canvas, room: room)
    }

    /// What goes left of the figures, in `room` pixels: a pause mark when paused; else the label,
    /// scrolling while the job is active (taking turns with the time left when both are known),
    /// or the time left.
    private func drawLeft(_ look: MatrixLook, _ snapshot: ProgressSnapshot, _ canvas: inout MatrixCanvas, room: Int) {
        canvas.role = look.role
        if look.paused {
            guard room >= 3 else { return }
            canvas.fill(PixelRect(x: 0, y: 0, width: 1, height: Self.textRows), level: MatrixCanvas.maxLevel)
            canvas.fill(PixelRect(x: 2, y: 0, width: 1, height: Self.textRows), level: MatrixCanvas.maxLevel)
            return
        }
        guard room >= 2 * font.cellWidth - 1 else { return }
        let label = snapshot.label.map { font.truncated($0, toFit: 10_000) }.flatMap { $0.isEmpty ? nil : $0 }
        let time = look.timeText(colon: true).flatMap { textWidth($0) <= room ? $0 : nil }
        guard label != nil || time != nil else { return }
        var showsLabel = label != nil
        var offset = 0
        if let label {
            let overflow = textWidth(label) - room
            let scroll = look.moves && overflow > 0 ? 2 + Double(overflow) / pixelsPerSecond : 0
            let shown = overflow > 0 ? max(scroll, 3) : 4
            let cycle = shown + (time == nil ? 0 : 3)
            let t = snapshot.elapsed.truncatingRemainder(dividingBy: cycle)
            showsLabel = t < shown
            if look.moves, overflow > 0 { offset = min(overflow, max(0, Int(((t - 1) * pixelsPerSecond).rounded(.down)))) }
        }
        var strip = MatrixCanvas(width: room, height: Self.textRows)
        strip.role = look.role
        if showsLabel, let label {
            strip.draw(look.moves ? label : font.truncated(label, toFit: room + 1), x: -offset, y: 0, font: font)
        } else if let time {
            strip.draw(time, x: 0, y: 0, font: font)
        }
        canvas.place(strip, x: 0, y: 0)
    }

    /// A bar across `rect`: the track (unless hidden), the done part in `role`, the column the fill
    /// ends in lit by the share of it done (below full, so an on/off glass leaves it dark: the edge
    /// never runs ahead of the job); dotted for an estimate; its last full column dark when
    /// `edgeDark`.
    func drawBar(_ canvas: inout MatrixCanvas, in rect: PixelRect, fraction: Double, dotted: Bool, role: Shade.Role, showsTrack: Bool, edgeDark: Bool = false) {
        if showsTrack {
            canvas.role = .track
            canvas.fill(rect, level: MatrixCanvas.maxLevel)
        }
        let exact = Double(rect.width) * min(1, max(0, fraction))
        let filled = Int(exact.rounded(.down))
        canvas.role = role
        if dotted {
            for x in rect.x..<(rect.x + filled) {
                for y in rect.y..<rect.maxY where (x + y) % 2 == 0 { canvas.setLevel(MatrixCanvas.maxLevel, x: x, y: y) }
            }
            return
        }
        canvas.fill(PixelRect(x: rect.x, y: rect.y, width: filled, height: rect.height), level: MatrixCanvas.maxLevel)
        let edge = UInt8(min(14, ((exact - Double(filled)) * 15).rounded(.down)))
        if edge > 0, filled < rect.width {
            canvas.fill(PixelRect(x: rect.x + filled, y: rect.y, width: 1, height: rect.height), level: edge)
        }
        if edgeDark, filled > 0 {
            canvas.role = .track
            canvas.fill(PixelRect(x: rect.x + filled - 1, y: rect.y, width: 1, height: rect.height), level: showsTrack ? MatrixCanvas.maxLevel : 0)
        }
    }

    /// Indeterminate on a bar: a segment a sixth of it wide sweeping back and forth, its edges lit
    /// by their share.
    private func drawSweep(_ canvas: inout MatrixCanvas, in rect: PixelRect, elapsed: Seconds, showsTrack: Bool, period: Seconds = 2.4) {
        if showsTrack {
            canvas.role = .track
            canvas.fill(rect, level: MatrixCanvas.maxLevel)
        }
        let length = max(2, Double(rect.width) / 6)
        let travel = 0.5 - 0.5 * Double.cos(2 * .pi * elapsed / period)
        let start = travel * (Double(rect.width) - length)
        canvas.role = .fill
        for column in 0..<rect.width {
            let covered = min(Double(column + 1), start + length) - max(Double(column), start)
            guard covered > 0 else { continue }
            canvas.fill(PixelRect(x: rect.x + column, y: rect.y, width: 1, height: rect.height), level: UInt8((covered * 15).rounded(.down)))
        }
    }

    /// A spinner in `square`: a three-pixel arc (then a fading tail) circling a ring of pixels
    /// once every `period`, clockwise from 12 o'clock.
    private func drawSpinner(_ canvas: inout MatrixCanvas, at square: PixelRect, elapsed: Seconds, period: Seconds = 1.2) {
        let ring = Self.ring(side: square.width)
        guard !ring.isEmpty else { return }
        let head = Int((elapsed / period * Double(ring.count)).rounded(.down)) % ring.count
        canvas.role = .fill
        for (back, level) in [UInt8(15), 15, 15, 6, 3].enumerated() {
            let pixel = ring[(head - back + ring.count * 2) % ring.count]
            canvas.setLevel(level, x: square.x + pixel.x, y: square.y + pixel.y)
        }
    }

    /// The pixels of a ring inside a `side` × `side` square, clockwise from 12 o'clock.
    static func ring(side: Int) -> [(x: Int, y: Int)] {
        let centre = Double(side) / 2, radius = Double(side) / 2 - 0.75
        var pixels: [(x: Int, y: Int, angle: Double)] = []
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                guard abs((dx * dx + dy * dy).squareRoot() - radius) < 0.5 else { continue }
                var angle = Double.atan2(y: dx, x: -dy)
                if angle < 0 { angle += 2 * .pi }
                pixels.append((x, y, angle))
            }
        }
        return pixels.sorted { $0.angle < $1.angle }.map { ($0.x, $0.y) }
    }

    /// The outcome's mark in a square as tall as the matrix (at most 8), and its word beside it
    /// where it fits; the mark alone, centred, where not.
    private func drawOutcome(_ outcome: Outcome, role: Shade.Role, _ canvas: inout MatrixCanvas) {
        let side = min(canvas.height, 8)
        let word = switch outcome {
        case .succeeded: "DONE"
        case .failed: "FAIL"
        case .cancelled: "STOP"
        case .ended: "END"
        }
        let fits = side + 1 + textWidth(word) <= canvas.width
        let x = fits ? 0 : (canvas.width - side) / 2, y = (canvas.height - side) / 2
        canvas.role = role
        let s = Double(side - 1)
        func point(_ fx: Double, _ fy: Double) -> (x: Int, y: Int) { (x + Int((fx * s).rounded()), y + Int((fy * s).rounded())) }
        switch outcome {
        case .succeeded:
            canvas.line(from: point(0, 0.55), to: point(0.35, 0.9))
            canvas.line(from: point(0.35, 0.9), to: point(1, 0.15))
        case .failed:
            canvas.line(from: point(0.1, 0.1), to: point(0.9, 0.9))
            canvas.line(from: point(0.9, 0.1), to: point(0.1, 0.9))
        case .cancelled:
            canvas.line(from: point(0.1, 0.5), to: point(0.9, 0.5))
        case .ended:
            canvas.fill(PixelRect(x: x + side / 2 - 1, y: y + side / 2 - 1, width: 2, height: 2), level: MatrixCanvas.maxLevel)
        }
        if fits { canvas.draw(word, x: side + 1, y: (canvas.height - Self.textRows) / 2, font: font) }
    }

    /// Other jobs run that this matrix does not show: a pixel under the figures of a tall matrix;
    /// on a bar its last position flashing twice every 2 s (where the fill does not reach).
    private func markOtherJobs(_ canvas: inout MatrixCanvas, tall: Bool, time: Seconds, bar: PixelRect, look: MatrixLook) {
        canvas.role = .text
        if tall {
            canvas.setLevel(MatrixCanvas.maxLevel, x: canvas.width - 1, y: Self.textRows)
            return
        }
        if case .bar(let fraction, _) = look.content, fraction * Double(bar.width) >= Double(bar.width - 1) { return }
        let t = time.truncatingRemainder(dividingBy: 2)
        guard t < 0.1 || (t >= 0.2 && t < 0.3) else { return }
        canvas.fill(PixelRect(x: bar.maxX - 1, y: bar.y, width: 1, height: bar.height), level: MatrixCanvas.maxLevel)
    }
}

extension MatrixCanvas {
    /// Copies `other` with its top-left corner at (`x`, `y`), pixels and roles, clipped.
    mutating func place(_ other: MatrixCanvas, x: Int, y: Int) {
        let saved = role
        for row in 0..<other.height {
            for column in 0..<other.width {
                role = other.role(x: column, y: row)
                setLevel(other.level(x: column, y: row), x: x + column, y: y + row)
            }
        }
        role = saved
    }
}
