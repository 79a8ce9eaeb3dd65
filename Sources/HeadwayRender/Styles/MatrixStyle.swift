import HeadwayCore

/// The built-in style for LED matrices, bar graphs and segment displays: one code path for every
/// face (what to show is decided once, then drawn as pixels or digits), at whatever depth the glass has.
///
/// On a matrix seven or more rows tall: the percentage in a 3x5 font at the top right, the label
/// (scrolling at a readable speed when it does not fit) or the time left beside it where there is
/// room, and the bar along the bottom rows. On shorter matrices (the 24-bar bargraph, the LED SHIM)
/// the bar alone. Then by phase:
/// - Reported progress: a solid bar whose leading edge goes dark for 0.1 s every 2 s (alive); an
///   estimate from past runs: a dotted bar and `~` before the percentage; overdue: in the overdue
///   colour.
/// - Indeterminate: a spinner (a three-pixel arc circling an 8x8 square) on tall matrices, a
///   sweeping segment on bars.
/// - Stalled: the picture in the stalled colour, blinking at 1 Hz; stale: in the stale colour at
///   0.5 Hz; paused: steady, with a pause mark; queued: the bar's first position, blinking at
///   0.5 Hz. Chips that blink do it themselves: nothing is sent while it lasts.
/// - Finished: a check mark, a cross, a dash or a dot with DONE, FAIL, STOP or END where it fits;
///   on bars the bar in the outcome's colour, a failure blinking at 2 Hz.
///
/// On a segment display: the percentage, then the time left (`12:30`, `1h05`; an estimate ends in
/// a point), taking turns every 3 s (side by side on eight digits); a 14-segment display first
/// scrolls the label. Indeterminate: a segment circling the last digit. `done`, `FAIL`, `StOP`,
/// `End` when it ends; dashes while nothing moves.
public struct MatrixStyle: ProgressStyle {
    /// The font of a matrix's figures and label.
    public var font: BitmapFont
    /// How fast a label scrolls on a matrix, in pixels a second.
    public var pixelsPerSecond: Double
    /// How fast a label scrolls on a segment display, in characters a second.
    public var charactersPerSecond: Double

    /// The matrix style in `font`, labels scrolling at the speeds given.
    public init(font: BitmapFont = .fixed3x5, pixelsPerSecond: Double = 12, charactersPerSecond: Double = 3) {
        self.font = font
        self.pixelsPerSecond = max(1, pixelsPerSecond)
        self.charactersPerSecond = max(0.5, charactersPerSecond)
    }

    public func render(_ configuration: ProgressStyleConfiguration, into picture: inout MatrixPicture) {
        picture.clear()
        let look = MatrixLook(configuration)
        picture.blink = look.blink
        picture.palette = ColourPalette(configuration)
        switch picture.face {
        case .pixels: drawPixels(look, configuration, &picture.canvas)
        case .segments: drawSegments(look, configuration, &picture)
        }
    }

    /// The width in pixels of `text` in the style's font (no spacing after the last glyph).
    func textWidth(_ text: String) -> Int { max(0, font.width(of: text) - 1) }
}
