import HeadwayCore

/// A display style with a ring that fills clockwise from 12 o'clock, the percentage inside it and
/// label, value and ETA beside it (under it, on square and tall glass).
/// Indeterminate jobs show the ring as a spinner; stalled and stale rings are hatched, a queued job
/// the empty track, an estimate from past runs dotted with "~42%"; finished jobs get the same outcome screen as ``BarScreenStyle``; "+2" in
/// the corner says two more jobs are running.
public struct RingScreenStyle: DisplayStyle {
    /// The font of its text.
    public var font: BitmapFont

    /// The ring screen in `font`.
    public init(font: BitmapFont = .fixed5x7) { self.font = font }

    // Compiled for both surfaces here: a caller in another module reaches the style through
    // `any DisplayStyle`, where the generic version would call every pixel through a witness table.
    @_specialize(where Surface == Bitmap)
    @_specialize(where Surface == Greymap)
    public func render<Surface: DisplaySurface>(_ configuration: ProgressStyleConfiguration, into bitmap: inout Surface) {
        if Surface.takesColourFromRole, bitmap.drawingRoles({ ColourScreen.ring(configuration, &$0) }) { return }
        bitmap.clear()
        let snapshot = configuration.snapshot
        guard snapshot.isVisible else { return ScreenParts.notices(&bitmap, configuration.notices, font: font) }
        defer { ScreenParts.otherJobs(&bitmap, count: configuration.otherJobs, font: font) }
        if case .finished(let outcome) = snapshot.phase {
            ScreenParts.finished(&bitmap, outcome: outcome, snapshot: snapshot, font: font)
            return
        }
        let tall = bitmap.height >= 48
        // Wide glass: the ring at the left, the text beside it. Square or tall glass (SH1107,
        // SSD1327): the ring centred at the top, the text in three lines under it.
        let stacked = bitmap.width < 2 * bitmap.height
        let textRows = 3 * (font.cellHeight + 1)
        let outer = stacked ? Double(min(bitmap.width, bitmap.height - textRows)) / 2 - 1 : Double(bitmap.height) / 2 - 1
        let centerX = stacked ? Double(bitmap.width) / 2 : outer + 1
        let centerY = stacked ? outer + 1 : Double(bitmap.height) / 2
        let thickness = tall ? 6.0 : 4.0
        let stalled = snapshot.phase.isStill
        if configuration.appearance.track != nil {
            bitmap.arc(centerX: centerX, centerY: centerY, inner: outer - 1, outer: outer, start: 0, sweep: 1, shade: .track)
            bitmap.arc(centerX: centerX, centerY: centerY, inner: outer - thickness, outer: outer - thickness + 1, start: 0, sweep: 1, shade: .track)
        }
        if let fraction = snapshot.fraction {
            var arc = Surface(width: bitmap.width, height: bitmap.height)
            arc.arc(centerX: centerX, centerY: centerY, inner: outer - thickness, outer: outer, start: 0, sweep: fraction)
            merge(arc, into: &bitmap, fill: stalled ? .hatched : snapshot.isEstimate ? .dotted : .solid)
            let percent = configuration.percentText ?? ""
            let scale = tall && percent.count <= 3 ? 2 : 1
            let textY = Int(centerY) - font.cellHeight * scale / 2
            bitmap.draw(percent, centeredAt: Int(centerX) + 1, y: textY, font: font, scale: scale)
        } else if snapshot.phase == .queued {
            // Not started: the track alone (drawn above unless hidden).
        } else if stalled {
            var ring = Surface(width: bitmap.width, height: bitmap.height)
            ring.arc(centerX: centerX, centerY: centerY, inner: outer - thickness, outer: outer, start: 0, sweep: 1)
            merge(ring, into: &bitmap, fill: .hatched)
        } else {
            ScreenParts.spinner(&bitmap, centerX: centerX, centerY: centerY, radius: outer, thickness: thickness, elapsed: snapshot.elapsed)
        }
        if stacked {
            drawTextUnder(snapshot, top: Int(centerY + outer) + 2, &bitmap)
        } else {
            drawText(snapshot, tall: tall, textX: Int(centerX + outer) + 5, &bitmap)
        }
    }

    /// Label, value and time centred in three lines from `top`.
    private func drawTextUnder<Surface: DisplaySurface>(_ snapshot: ProgressSnapshot, top: Int, _ bitmap: inout Surface) {
        let lines = [snapshot.label, snapshot.valueText, snapshot.timeText]
        for (index, line) in lines.enumerated() {
            guard let line else { continue }
            bitmap.draw(font.truncated(line, toFit: bitmap.width), centeredAt: bitmap.width / 2, y: top + index * (font.cellHeight + 1), font: font)
        }
    }

    /// Lays `shape` (drawn in full) over `bitmap` in the fill's pattern and shade: where the shape
    /// covers a pixel, the pattern decides it (the hatch and dots clear what lies under their gaps).
    private func merge<Surface: DisplaySurface>(_ shape: Surface, into bitmap: inout Surface, fill: ScreenParts.Fill) {
        let stalled = Shade.stalled.fraction
        for y in 0..<shape.height {
            for x in 0..<shape.width {
                let level = shape.level(x: x, y: y)
                guard level > 0 else { continue }
                switch fill {
                case .solid: if level > bitmap.level(x: x, y: y) { bitmap.setLevel(level, x: x, y: y, role: .fill) }
                case .hatched:
                    let grey = Surface.maxLevel == 1 || Surface.takesColourFromRole ? level : UInt8((Double(level) * stalled).rounded(.down))
                    bitmap.setLevel((x + y) % 4 < 2 ? grey : 0, x: x, y: y, role: .stalled)
                case .dotted: bitmap.setLevel((x + y) % 2 == 0 ? level : 0, x: x, y: y, role: .fill)
                }
            }
        }
    }

    private func drawText<Surface: DisplaySurface>(_ snapshot: ProgressSnapshot, tall: Bool, textX: Int, _ bitmap: inout Surface) {
        let room = bitmap.width - textX
        let lines = tall ? [8, 26, 44] : [2, 12, 22]
        if let label = snapshot.label { bitmap.draw(font.truncated(label, toFit: room), x: textX, y: lines[0], font: font) }
        if let value = snapshot.valueText { bitmap.draw(font.truncated(value, toFit: room), x: textX, y: lines[1], font: font) }
        if let time = snapshot.timeText { bitmap.draw(font.truncated(time, toFit: room), x: textX, y: lines[2], font: font) }
    }
}
