import Synchronization

/// The sizes and shape of a colour display's screen, from its glass: 320x240 (Display HAT Mini,
/// PiTFT 2.8"), 240x240 (Mini PiTFT 1.3", Waveshare 1.3"), 240x135 (Mini PiTFT 1.14"), 128x128
/// (Waveshare 1.44") and 160x80 or 80x160 (the 0.96" ST7735 modules), and any size between.
/// Text, figures, margins and the bar scale with the glass; the shape decides where a ring goes.
struct ColourScreenLayout: Sendable {
    /// How the glass is proportioned.
    enum Shape {
        /// At least 1.6 times as wide as tall (240x135, 160x80): a ring at the left, text beside it.
        case wide
        /// 1.2 to 1.6 times as wide as tall (320x240): the label across the top, a ring below it
        /// at the left, the figures beside the ring.
        case landscape
        /// About square, or taller than wide (240x240, 128x128, 80x160): a ring at the top, text under it.
        case upright
    }

    let width: Int
    let height: Int
    let shape: Shape
    /// The space kept clear at the glass's edges.
    let margin: Int
    /// Labels and times.
    let text: SmoothFont
    /// Values, the corner's "+2", the text beside a ring.
    let small: SmoothFont
    /// The percentage on a bar screen.
    let figures: SmoothFont
    /// The bar's height.
    let barHeight: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let ratio = Double(width) / Double(height)
        shape = ratio >= 1.6 ? .wide : ratio >= 1.2 ? .landscape : .upright
        margin = max(3, min(width, height) / 20)
        let line = min(Double(height) * 0.135, Double(width) * 0.17)
        let text = SmoothFont.text(fittingLineHeight: Int(line))
        self.text = text
        let index = SmoothFont.textSizes.firstIndex { $0.pixelSize == text.pixelSize } ?? 0
        small = SmoothFont.textSizes[max(0, index - 1)]
        let candidates = (SmoothFont.textSizes + SmoothFont.figureSizes).sorted { $0.figureHeight < $1.figureHeight }
        let room = width - 2 * max(3, min(width, height) / 20)
        // Figures a fifth of the glass's height, and at most 32 pixels: larger ones add little to a
        // 240-row screen and cost more at every step (a 1 % step stays under 2 % of a full frame).
        let tallest = min(Double(height) * 0.2, 32)
        figures = candidates.last { Double($0.figureHeight) <= tallest && $0.width(of: "100%") <= room * 2 / 3 } ?? candidates[0]
        barHeight = max(6, Int(Double(height) * 0.14))
    }

    /// The layout of `width` x `height` glass, worked out once a size: every frame needs it, and
    /// fitting the fonts costs more than drawing the bar.
    static func of(width: Int, height: Int) -> ColourScreenLayout {
        let size = Size(width: width, height: height)
        if let layout = laidOut.withLock({ $0[size] }) { return layout }
        let layout = ColourScreenLayout(width: width, height: height)
        laidOut.withLock { laidOut in
            // A display has one size (two with care's shift); a bound all the same.
            if laidOut.count >= 16 { laidOut.removeAll() }
            laidOut[size] = layout
        }
        return layout
    }

    private struct Size: Hashable {
        let width: Int
        let height: Int
    }

    private static let laidOut = Mutex<[Size: ColourScreenLayout]>([:])

    /// The width stripes and dots of a still or estimated fill are drawn at.
    var patternScale: Int { max(1, min(width, height) / 40) }

    /// The figure size whose "100%" fits `width` pixels and whose figures are at most `height` tall.
    static func figures(fitting width: Int, height: Int) -> SmoothFont {
        let candidates = (SmoothFont.textSizes + SmoothFont.figureSizes).sorted { $0.figureHeight < $1.figureHeight }
        return candidates.last { $0.width(of: "100%") <= width && $0.figureHeight <= height } ?? candidates[0]
    }
}
