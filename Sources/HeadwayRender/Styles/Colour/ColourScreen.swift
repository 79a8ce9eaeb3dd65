import HeadwayCore
import RealModule

/// The built-in display styles on colour glass (``BarScreenStyle`` and ``RingScreenStyle`` draw
/// these where the surface keeps roles): the same screens as on an OLED, laid out for the glass
/// (``ColourScreenLayout``), text in DejaVu Sans, every curved edge anti-aliased. Shapes are drawn in
/// roles; the colours come from the appearance afterwards (``ColourPalette``).
enum ColourScreen {
    /// The bar screen: the label, the percentage with the value beside it, a bar with round ends
    /// and the time left; a spinner and a sweeping block when indeterminate, a hatched bar when still.
    static func bar(_ configuration: ProgressStyleConfiguration, _ roles: inout RoleMap) {
        roles.clear()
        let layout = ColourScreenLayout.of(width: roles.width, height: roles.height)
        let snapshot = configuration.snapshot
        guard snapshot.isVisible else { return notices(configuration.notices, layout, &roles) }
        defer { otherJobs(configuration.otherJobs, layout, &roles) }
        if case .finished(let outcome) = snapshot.phase { return finished(outcome, snapshot, layout, &roles) }
        let m = layout.margin, w = roles.width, h = roles.height
        let corner = cornerWidth(configuration.otherJobs, layout)
        let rows = layout.text.lineHeight * 2 + layout.figures.figureHeight + layout.barHeight
        let gap = max(2, (h - 2 * m - rows) / 3)
        let figuresTop = m + layout.text.lineHeight + gap
        let barTop = figuresTop + layout.figures.figureHeight + gap
        let timeTop = barTop + layout.barHeight + gap
        if let label = snapshot.label {
            roles.draw(layout.text.truncated(label, toFit: w - 2 * m - corner), x: m, y: m, font: layout.text)
        }
        let bar = PixelRect(x: m, y: barTop, width: w - 2 * m, height: layout.barHeight)
        let showsTrack = configuration.appearance.track != nil
        if let fraction = snapshot.fraction {
            let percent = configuration.percentText ?? ""
            let percentEnd = roles.draw(percent, x: m, y: figuresTop - layout.figures.figureTop, font: layout.figures)
            if let value = snapshot.valueText {
                let small = layout.small
                let fitted = small.truncated(value, toFit: w - m - percentEnd - 2 * m)
                roles.draw(fitted, endingAt: w - m, y: figuresTop + layout.figures.figureHeight - small.figureTop - small.figureHeight, font: small)
            }
            let pattern: RoleMap.Pattern = snapshot.phase.isStalled || snapshot.phase.isStale ? .hatched : snapshot.isEstimate ? .dotted : .solid
            if showsTrack { roles.capsule(bar, .track) }
            let inner = PixelRect(x: bar.x + 2, y: bar.y + 2, width: bar.width - 4, height: bar.height - 4)
            let end = Double(inner.x) + Double(inner.width) * min(1, max(0, fraction))
            roles.capsule(inner, pattern == .hatched ? .stalled : .fill, upTo: end, pattern: pattern, patternScale: layout.patternScale)
        } else if snapshot.phase.isStill {
            if showsTrack || snapshot.phase == .queued { roles.capsule(bar, .track) }
            if snapshot.phase != .queued {
                let inner = PixelRect(x: bar.x + 2, y: bar.y + 2, width: bar.width - 4, height: bar.height - 4)
                roles.capsule(inner, .stalled, pattern: .hatched, patternScale: layout.patternScale)
            }
        } else {
            let size = Double(layout.figures.figureHeight)
            spinner(&roles, centreX: Double(m) + size / 2, centreY: Double(figuresTop) + size / 2, radius: size / 2, thickness: max(2, size / 5),
                    elapsed: snapshot.elapsed, showsTrack: showsTrack)
            roles.draw("working", x: m + Int(size) + m, y: figuresTop + layout.figures.figureHeight - layout.text.figureTop - layout.text.figureHeight,
                       font: layout.text)
            if showsTrack { roles.capsule(bar, .track) }
            let inner = PixelRect(x: bar.x + 2, y: bar.y + 2, width: bar.width - 4, height: bar.height - 4)
            let block = max(inner.height, inner.width / 4)
            let travel = 0.5 - 0.5 * Double.cos(2 * .pi * snapshot.elapsed / 2.4)
            let x = inner.x + Int((travel * Double(inner.width - block)).rounded())
            roles.capsule(PixelRect(x: x, y: inner.y, width: block, height: inner.height), .fill)
        }
        if let time = snapshot.timeText {
            roles.draw(layout.text.truncated(time, toFit: w - 2 * m), x: m, y: min(timeTop, h - m - layout.text.lineHeight), font: layout.text)
        }
    }

    /// The ring screen: a ring that fills clockwise from 12 o'clock with the percentage inside it,
    /// the label, value and time beside or under it as the glass's shape allows.
    static func ring(_ configuration: ProgressStyleConfiguration, _ roles: inout RoleMap) {
        roles.clear()
        let layout = ColourScreenLayout.of(width: roles.width, height: roles.height)
        let snapshot = configuration.snapshot
        guard snapshot.isVisible else { return notices(configuration.notices, layout, &roles) }
        defer { otherJobs(configuration.otherJobs, layout, &roles) }
        if case .finished(let outcome) = snapshot.phase { return finished(outcome, snapshot, layout, &roles) }
        let m = layout.margin, w = roles.width, h = roles.height
        let corner = cornerWidth(configuration.otherJobs, layout)
        let diameter: Int, centre: (x: Double, y: Double)
        var lines: [(text: String, font: SmoothFont)] = []
        let label = snapshot.label.map { ($0, layout.text) }
        let value = snapshot.valueText.map { ($0, layout.small) }
        let time = snapshot.timeText.map { ($0, layout.small) }
        switch layout.shape {
        case .wide:
            diameter = h - 2 * m
            centre = (Double(m) + Double(diameter) / 2, Double(h) / 2)
            lines = [label, value, time].compactMap { $0 }
            let x = m + diameter + 2 * m
            drawLines(lines, x: x, width: w - x - m, corner: corner, centredOn: h / 2, &roles)
        case .landscape:
            let top = m + layout.text.lineHeight + m / 2
            if let label = snapshot.label { roles.draw(layout.text.truncated(label, toFit: w - 2 * m - corner), x: m, y: m, font: layout.text) }
            diameter = min(h - top - m, w * 3 / 5)
            centre = (Double(m) + Double(diameter) / 2, Double(top) + Double(diameter) / 2)
            let x = m + diameter + 2 * m
            drawLines([value, time].compactMap { $0 }, x: x, width: w - x - m, corner: 0, centredOn: Int(centre.y), &roles)
        case .upright:
            lines = [label, value, time].compactMap { $0 }
            let textRows = 3 * layout.small.lineHeight
            diameter = max(8, min(w - 2 * m, h - 2 * m - textRows - m / 2))
            centre = (Double(w) / 2, Double(m) + Double(diameter) / 2)
            var y = m + diameter + m / 2
            for (text, _) in lines {
                let font = layout.small
                roles.draw(font.truncated(text, toFit: w - 2 * m), centeredAt: w / 2, y: y, font: font)
                y += font.lineHeight
            }
        }
        let outer = Double(diameter) / 2, thickness = max(3, Double(diameter) * 0.11)
        let showsTrack = configuration.appearance.track != nil
        let scale = layout.patternScale
        if snapshot.phase == .queued || showsTrack {
            roles.ring(centreX: centre.x, centreY: centre.y, inner: outer - thickness, outer: outer, .track)
        }
        if let fraction = snapshot.fraction {
            let still = snapshot.phase.isStalled || snapshot.phase.isStale
            roles.ring(centreX: centre.x, centreY: centre.y, inner: outer - thickness, outer: outer, sweep: fraction, still ? .stalled : .fill,
                       pattern: still ? .hatched : snapshot.isEstimate ? .dotted : .solid, patternScale: scale)
            let percent = configuration.percentText ?? ""
            let inside = 2 * (outer - thickness)
            let font = ColourScreenLayout.figures(fitting: Int(inside * 0.78), height: Int(inside * 0.34))
            roles.draw(percent, centeredAt: Int(centre.x), y: Int(centre.y) - font.figureTop - font.figureHeight / 2, font: font)
        } else if snapshot.phase == .queued {
            // Not started: the track alone.
        } else if snapshot.phase.isStill {
            roles.ring(centreX: centre.x, centreY: centre.y, inner: outer - thickness, outer: outer, .stalled, pattern: .hatched, patternScale: scale)
        } else {
            spinner(&roles, centreX: centre.x, centreY: centre.y, radius: outer, thickness: thickness, elapsed: snapshot.elapsed, showsTrack: false)
        }
    }

    /// Lines of text from `x`, `width` wide, centred as a block on row `centredOn`.
    private static func drawLines(_ lines: [(text: String, font: SmoothFont)], x: Int, width: Int, corner: Int, centredOn middle: Int, _ roles: inout RoleMap) {
        guard width > 0 else { return }
        let total = lines.reduce(0) { $0 + $1.font.lineHeight }
        var y = middle - total / 2
        for (index, line) in lines.enumerated() {
            let room = index == 0 ? width - corner : width
            roles.draw(line.font.truncated(line.text, toFit: room), x: x, y: y, font: line.font)
            y += line.font.lineHeight
        }
    }

    /// A quarter arc turning once every `period` seconds, inside a ring outline.
    static func spinner(_ roles: inout RoleMap, centreX: Double, centreY: Double, radius: Double, thickness: Double, elapsed: Seconds,
                        showsTrack: Bool, period: Seconds = 1.2) {
        let start = (elapsed / period).truncatingRemainder(dividingBy: 1)
        roles.ring(centreX: centreX, centreY: centreY, inner: radius - thickness, outer: radius, .track)
        roles.ring(centreX: centreX, centreY: centreY, inner: radius - thickness, outer: radius, start: start, sweep: 0.3, .fill)
    }

    /// The end of a job: the outcome's icon in its colour, what happened and how long it took, the label.
    static func finished(_ outcome: Outcome, _ snapshot: ProgressSnapshot, _ layout: ColourScreenLayout, _ roles: inout RoleMap) {
        let m = layout.margin, w = roles.width, h = roles.height
        let took = "\(word(outcome)) in \(DurationText.short(snapshot.elapsed - snapshot.phaseElapsed))"
        if layout.shape == .wide {
            let size = Double(h - 2 * m) * 0.8
            icon(outcome, centreX: Double(m) + size / 2, centreY: Double(h) / 2, diameter: size, &roles)
            let x = m + Int(size) + 2 * m
            drawLines([(took, layout.text)] + (snapshot.label.map { [($0, layout.small)] } ?? []), x: x, width: w - x - m, corner: 0, centredOn: h / 2, &roles)
            return
        }
        let lines = layout.text.lineHeight + layout.small.lineHeight
        let size = Double(max(8, min(w - 2 * m, h - 3 * m - lines, h * 9 / 20)))
        let top = max(m, (h - Int(size) - m - lines) / 2)
        icon(outcome, centreX: Double(w) / 2, centreY: Double(top) + size / 2, diameter: size, &roles)
        let textTop = top + Int(size) + m
        roles.draw(layout.text.truncated(took, toFit: w - 2 * m), centeredAt: w / 2, y: textTop, font: layout.text)
        if let label = snapshot.label {
            roles.draw(layout.small.truncated(label, toFit: w - 2 * m), centeredAt: w / 2, y: textTop + layout.text.lineHeight, font: layout.small)
        }
    }

    private static func word(_ outcome: Outcome) -> String {
        switch outcome {
        case .succeeded: "Done"
        case .failed: "Failed"
        case .cancelled: "Cancelled"
        case .ended: "Ended"
        }
    }

    /// A check mark, a cross, a bar or a dot inside a ring, all in the progress role (the
    /// outcome's colour).
    static func icon(_ outcome: Outcome, centreX: Double, centreY: Double, diameter: Double, _ roles: inout RoleMap) {
        let r = diameter / 2, line = max(1.5, diameter * 0.09)
        roles.ring(centreX: centreX, centreY: centreY, inner: r - line, outer: r, .fill)
        func point(_ fx: Double, _ fy: Double) -> (x: Double, y: Double) { (centreX + (fx - 0.5) * diameter, centreY + (fy - 0.5) * diameter) }
        let stroke = max(1.5, diameter * 0.11)
        switch outcome {
        case .succeeded:
            roles.stroke(from: point(0.29, 0.52), to: point(0.44, 0.67), thickness: stroke, .fill)
            roles.stroke(from: point(0.44, 0.67), to: point(0.72, 0.36), thickness: stroke, .fill)
        case .failed:
            roles.stroke(from: point(0.34, 0.34), to: point(0.66, 0.66), thickness: stroke, .fill)
            roles.stroke(from: point(0.66, 0.34), to: point(0.34, 0.66), thickness: stroke, .fill)
        case .cancelled:
            roles.stroke(from: point(0.3, 0.5), to: point(0.7, 0.5), thickness: stroke, .fill)
        case .ended:
            roles.ring(centreX: centreX, centreY: centreY, inner: 0, outer: r / 4, .fill)
        }
    }

    /// An idle screen's notices: the last result (a small icon in its colour, "Done at 14:02", the
    /// label) in the middle, and failures nobody has seen as "!" boxed in the top right corner in
    /// the failure colour.
    static func notices(_ notices: Notices, _ layout: ColourScreenLayout, _ roles: inout RoleMap) {
        let m = layout.margin, w = roles.width, h = roles.height
        if let result = notices.lastResult {
            let font = layout.small
            let lines = result.label == nil ? 1 : 2
            let size = Double(min(font.lineHeight * lines, h - 2 * m))
            let x = m + Int(size) + m
            icon(result.outcome, centreX: Double(m) + size / 2, centreY: Double(h) / 2, diameter: size, &roles)
            let top = h / 2 - font.lineHeight * lines / 2
            roles.draw(font.truncated("\(word(result.outcome)) at \(result.endedAt)", toFit: w - x - m), x: x, y: top, font: font)
            if let label = result.label { roles.draw(font.truncated(label, toFit: w - x - m), x: x, y: top + font.lineHeight, font: font) }
        }
        if notices.unseenFailures > 0 {
            let font = layout.small
            let text = notices.unseenFailures > 1 ? "!\(min(notices.unseenFailures, 99))" : "!"
            let box = PixelRect(x: w - font.width(of: text) - 8 - m, y: m, width: font.width(of: text) + 8, height: font.lineHeight + 2)
            roles.fill(box, level: 0, role: .off)
            roles.fill(PixelRect(x: box.x, y: box.y, width: box.width, height: 1), level: RoleMap.maxLevel, role: .stalled)
            roles.fill(PixelRect(x: box.x, y: box.maxY - 1, width: box.width, height: 1), level: RoleMap.maxLevel, role: .stalled)
            roles.fill(PixelRect(x: box.x, y: box.y, width: 1, height: box.height), level: RoleMap.maxLevel, role: .stalled)
            roles.fill(PixelRect(x: box.maxX - 1, y: box.y, width: 1, height: box.height), level: RoleMap.maxLevel, role: .stalled)
            roles.draw(text, x: box.x + 4, y: box.y + 1, font: font, shade: Shade(1, role: .stalled))
        }
    }

    /// The room "+99" takes in the corner, when other jobs run.
    private static func cornerWidth(_ count: Int, _ layout: ColourScreenLayout) -> Int {
        count > 0 ? layout.small.width(of: "+99") + layout.margin : 0
    }

    /// "+2" in the top right corner: other jobs run that this display does not show.
    static func otherJobs(_ count: Int, _ layout: ColourScreenLayout, _ roles: inout RoleMap) {
        guard count > 0 else { return }
        let text = "+\(min(count, 99))", font = layout.small
        let width = font.width(of: text) + layout.margin
        roles.fill(PixelRect(x: roles.width - width - layout.margin / 2, y: 0, width: width + layout.margin / 2, height: font.lineHeight + layout.margin),
                   level: 0, role: .off)
        roles.draw(text, endingAt: roles.width - layout.margin, y: layout.margin, font: font)
    }
}

extension DisplaySurface {
    /// Runs `draw` on this surface as the role map it is (a colour display's), without copying
    /// its pixels; false when the surface is not a role map.
    mutating func drawingRoles(_ draw: (inout RoleMap) -> Void) -> Bool {
        guard var roles = self as? RoleMap else { return false }
        // Let go of this surface's reference first, so that the role map's storage is unique and
        // drawing writes in place instead of copying it.
        self = RoleMap(width: 1, height: 1) as! Self
        draw(&roles)
        self = roles as! Self
        return true
    }
}
