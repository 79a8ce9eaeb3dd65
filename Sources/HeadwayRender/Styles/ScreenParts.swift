import HeadwayCore
import RealModule

/// Pieces the built-in display styles share: the finished screen, the spinner and the bar. Each
/// draws on any ``DisplaySurface``: the track in ``Shade/track``, a stalled fill in
/// ``Shade/stalled``, progress and text in full.
enum ScreenParts {
    /// A spinner: a quarter arc turning once every `period` seconds inside a ring outline.
    static func spinner<S: DisplaySurface>(_ surface: inout S, centerX: Double, centerY: Double, radius: Double, thickness: Double, elapsed: Seconds, period: Seconds = 1.2) {
        let start = (elapsed / period).truncatingRemainder(dividingBy: 1)
        surface.arc(centerX: centerX, centerY: centerY, inner: radius - 1, outer: radius, start: 0, sweep: 1, shade: .track)
        surface.arc(centerX: centerX, centerY: centerY, inner: radius - thickness, outer: radius, start: start, sweep: 0.3)
    }

    /// How a bar's fill is drawn: solid for reported progress, hatched when stalled or stale (a
    /// look that cannot be mistaken for progress), dotted for an estimate from past runs.
    enum Fill {
        case solid, hatched, dotted

        init(_ snapshot: ProgressSnapshot) {
            self = snapshot.phase.isStalled || snapshot.phase.isStale ? .hatched : snapshot.isEstimate ? .dotted : .solid
        }
    }

    /// A horizontal bar: track outline (unless hidden), then the fill inset by two pixels. Where the
    /// surface has grey levels, the column the fill ends in is lit by the share of it that is done
    /// (never more: the edge never runs ahead of the job).
    static func bar<S: DisplaySurface>(_ surface: inout S, in rect: PixelRect, fraction: Double, fill: Fill, showsTrack: Bool) {
        if showsTrack { surface.stroke(rect, shade: .track) }
        let inner = PixelRect(x: rect.x + 2, y: rect.y + 2, width: rect.width - 4, height: rect.height - 4)
        let exact = Double(inner.width) * min(1, max(0, fraction))
        let filled = Int(exact.rounded(.down))
        let area = PixelRect(x: inner.x, y: inner.y, width: filled, height: inner.height)
        switch fill {
        case .solid:
            surface.fill(area, shade: .full)
            let edgeLevel = Shade.full.level(on: S.self, coverage: exact - Double(filled))
            if edgeLevel > 0, filled < inner.width {
                surface.fill(PixelRect(x: inner.x + filled, y: inner.y, width: 1, height: inner.height), level: edgeLevel, role: .fill)
            }
        case .hatched: surface.hatch(area, shade: .stalled)
        case .dotted: surface.dots(area)
        }
    }

    /// "+2" in the top right corner: other jobs are running that this display does not show.
    /// Returns the width it took (0 when there are none).
    @discardableResult
    static func otherJobs<S: DisplaySurface>(_ surface: inout S, count: Int, font: BitmapFont) -> Int {
        guard count > 0 else { return 0 }
        let text = "+\(min(count, 99))"
        let width = font.width(of: text) + 2
        surface.fill(PixelRect(x: surface.width - width, y: 0, width: width, height: font.cellHeight + 1), level: 0)
        surface.draw(text, endingAt: surface.width, y: 0, font: font)
        return width
    }

    /// The indeterminate bar: a block a quarter of the bar wide sweeping back and forth.
    static func sweepingBar<S: DisplaySurface>(_ surface: inout S, in rect: PixelRect, elapsed: Seconds, showsTrack: Bool, period: Seconds = 2.4) {
        if showsTrack { surface.stroke(rect, shade: .track) }
        let inner = PixelRect(x: rect.x + 2, y: rect.y + 2, width: rect.width - 4, height: rect.height - 4)
        let width = max(4, inner.width / 4)
        let travel = 0.5 - 0.5 * Double.cos(2 * .pi * elapsed / period)
        let x = inner.x + Int((travel * Double(inner.width - width)).rounded())
        surface.fill(PixelRect(x: x, y: inner.y, width: width, height: inner.height), shade: .full)
    }

    /// A still bar that is not progress: outlined and hatched in the stalled shade; a job waiting
    /// in a queue has not started, so its bar is the empty outline.
    static func stillBar<S: DisplaySurface>(_ surface: inout S, in rect: PixelRect, phase: JobPhase) {
        surface.stroke(rect, shade: .track)
        guard phase != .queued else { return }
        surface.hatch(PixelRect(x: rect.x + 2, y: rect.y + 2, width: rect.width - 4, height: rect.height - 4), shade: .stalled)
    }

    /// The end-of-job screen: an icon for the outcome, what happened and how long it took.
    static func finished<S: DisplaySurface>(_ bitmap: inout S, outcome: Outcome, snapshot: ProgressSnapshot, font: BitmapFont) {
        let tall = bitmap.height >= 48
        let top = tall ? max(0, (bitmap.height - 64) / 2) : 0   // centred on glass taller than 64 rows
        let iconSize = tall ? 28 : 20
        let iconX = tall ? (bitmap.width - iconSize) / 2 : 4
        let iconY = tall ? top + 2 : (bitmap.height - iconSize) / 2
        icon(&bitmap, outcome: outcome, rect: PixelRect(x: iconX, y: iconY, width: iconSize, height: iconSize))
        let word: String
        switch outcome {
        case .succeeded: word = "Done"
        case .failed: word = "Failed"
        case .cancelled: word = "Cancelled"
        case .ended: word = "Ended"
        }
        let took = "\(word) in \(DurationText.short(snapshot.elapsed - snapshot.phaseElapsed))"
        if tall {
            bitmap.draw(font.truncated(took, toFit: bitmap.width), centeredAt: bitmap.width / 2, y: top + 36, font: font)
            if let label = snapshot.label {
                bitmap.draw(font.truncated(label, toFit: bitmap.width), centeredAt: bitmap.width / 2, y: top + 48, font: font)
            }
        } else {
            let textX = iconX + iconSize + 6
            bitmap.draw(font.truncated(took, toFit: bitmap.width - textX), x: textX, y: 6, font: font)
            if let label = snapshot.label {
                bitmap.draw(font.truncated(label, toFit: bitmap.width - textX), x: textX, y: 18, font: font)
            }
        }
    }

    /// A check mark, a cross, a bar or a dot (an end without a result) in a circle.
    static func icon<S: DisplaySurface>(_ bitmap: inout S, outcome: Outcome, rect: PixelRect) {
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        let r = Double(rect.width) / 2
        bitmap.arc(centerX: cx, centerY: cy, inner: r - 2, outer: r, start: 0, sweep: 1)
        let s = Double(rect.width)
        func point(_ fx: Double, _ fy: Double) -> (x: Int, y: Int) {
            (Int((Double(rect.x) + fx * s).rounded()), Int((Double(rect.y) + fy * s).rounded()))
        }
        switch outcome {
        case .succeeded:
            bitmap.line(from: point(0.28, 0.52), to: point(0.44, 0.68), thickness: 3)
            bitmap.line(from: point(0.44, 0.68), to: point(0.72, 0.34), thickness: 3)
        case .failed:
            bitmap.line(from: point(0.33, 0.33), to: point(0.67, 0.67), thickness: 3)
            bitmap.line(from: point(0.67, 0.33), to: point(0.33, 0.67), thickness: 3)
        case .cancelled:
            bitmap.line(from: point(0.3, 0.5), to: point(0.7, 0.5), thickness: 3)
        case .ended:
            bitmap.arc(centerX: cx, centerY: cy, inner: 0, outer: r / 4, start: 0, sweep: 1)
        }
    }
}
