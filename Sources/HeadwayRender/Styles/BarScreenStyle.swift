import HeadwayCore

/// The built-in display style: label, percentage, a bar with its track, value and ETA.
///
/// On 64-row displays the percentage is drawn double size; on 32-row displays everything fits in
/// three lines. Indeterminate jobs show a sweeping block and a spinner, stalled jobs a hatched bar
/// with "stalled 40s" (stalled, paused, stale and queued jobs show nothing moving; a queued job an
/// empty bar, "queued 1m20s"; a stale one a hatched bar, "stale 2m"), an estimate from past runs a
/// dotted bar with "~42%" and "ETA ~3m05s" (then "overdue 1m10s"), finished jobs an outcome screen.
/// Long labels end in "…"; "+2" in the corner says two more jobs are running. The percentage is
/// left out when the job or the appearance asks. On a greyscale display the track is dim, a stalled
/// bar grey, and the fill's leading edge lit by the share of its column that is done.
public struct BarScreenStyle: DisplayStyle {
    /// The font of its text.
    public var font: BitmapFont

    /// The bar screen in `font`.
    public init(font: BitmapFont = .fixed5x7) { self.font = font }

    // Compiled for both surfaces here: a caller in another module reaches the style through
    // `any DisplayStyle`, where the generic version would call every pixel through a witness table.
    @_specialize(where Surface == Bitmap)
    @_specialize(where Surface == Greymap)
    public func render<Surface: DisplaySurface>(_ configuration: ProgressStyleConfiguration, into bitmap: inout Surface) {
        if Surface.takesColourFromRole, bitmap.drawingRoles({ ColourScreen.bar(configuration, &$0) }) { return }
        bitmap.clear()
        let snapshot = configuration.snapshot
        guard snapshot.isVisible else { return ScreenParts.notices(&bitmap, configuration.notices, font: font) }
        if case .finished(let outcome) = snapshot.phase {
            ScreenParts.finished(&bitmap, outcome: outcome, snapshot: snapshot, font: font)
        } else if bitmap.height >= 48 {
            drawTall(configuration, &bitmap)
        } else {
            drawShort(configuration, &bitmap)
        }
        ScreenParts.otherJobs(&bitmap, count: configuration.otherJobs, font: font)
    }

    private func drawTall<Surface: DisplaySurface>(_ configuration: ProgressStyleConfiguration, _ bitmap: inout Surface) {
        let snapshot = configuration.snapshot
        let showsTrack = configuration.appearance.track != nil
        let width = bitmap.width
        let corner = configuration.otherJobs > 0 ? font.width(of: "+99") + 2 : 0
        // The 64-row layout, centred on taller glass (128x128, 96x96).
        let top = max(0, (bitmap.height - 64) / 2)
        if let label = snapshot.label { bitmap.draw(font.truncated(label, toFit: width - corner), x: 0, y: top, font: font) }
        let bar = PixelRect(x: 0, y: top + 30, width: width, height: 12)
        if let fraction = snapshot.fraction {
            let percent = configuration.percentText ?? ""
            let percentEnd = bitmap.draw(percent, x: 0, y: top + 11, font: font, scale: 2)
            if let value = snapshot.valueText {
                bitmap.draw(font.truncated(value, toFit: width - percentEnd - 4), endingAt: width, y: top + 15, font: font)
            }
            ScreenParts.bar(&bitmap, in: bar, fraction: fraction, fill: .init(snapshot), showsTrack: showsTrack)
        } else {
            if !snapshot.phase.isStill {
                ScreenParts.spinner(&bitmap, centerX: 9, centerY: Double(top + 18), radius: 9, thickness: 4, elapsed: snapshot.elapsed)
                bitmap.draw("working", x: 24, y: top + 15, font: font)
            }
            if snapshot.phase.isStill {
                ScreenParts.stillBar(&bitmap, in: bar, phase: snapshot.phase)
            } else {
                ScreenParts.sweepingBar(&bitmap, in: bar, elapsed: snapshot.elapsed, showsTrack: showsTrack)
            }
        }
        if let time = snapshot.timeText { bitmap.draw(font.truncated(time, toFit: width), x: 0, y: top + 50, font: font) }
    }

    private func drawShort<Surface: DisplaySurface>(_ configuration: ProgressStyleConfiguration, _ bitmap: inout Surface) {
        let snapshot = configuration.snapshot
        let showsTrack = configuration.appearance.track != nil
        let width = bitmap.width
        let corner = configuration.otherJobs > 0 ? font.width(of: "+99") + 2 : 0
        let percent = configuration.percentText ?? ""
        let percentRight = width - corner
        let labelRoom = percentRight - font.width(of: percent) - (percent.isEmpty ? 0 : 4)
        if let label = snapshot.label { bitmap.draw(font.truncated(label, toFit: labelRoom), x: 0, y: 0, font: font) }
        if !percent.isEmpty { bitmap.draw(percent, endingAt: percentRight, y: 0, font: font) }
        let bar = PixelRect(x: 0, y: 10, width: width, height: 10)
        if let fraction = snapshot.fraction {
            ScreenParts.bar(&bitmap, in: bar, fraction: fraction, fill: .init(snapshot), showsTrack: showsTrack)
        } else if snapshot.phase.isStill {
            ScreenParts.stillBar(&bitmap, in: bar, phase: snapshot.phase)
        } else {
            ScreenParts.sweepingBar(&bitmap, in: bar, elapsed: snapshot.elapsed, showsTrack: showsTrack)
        }
        let time = snapshot.timeText ?? ""
        let timeWidth = font.width(of: time)
        if let value = snapshot.valueText {
            bitmap.draw(font.truncated(value, toFit: width - timeWidth - 4), x: 0, y: 24, font: font)
        }
        if !time.isEmpty { bitmap.draw(font.truncated(time, toFit: width), endingAt: width, y: 24, font: font) }
    }
}
