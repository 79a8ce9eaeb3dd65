import HeadwayCore

/// What a matrix style draws: for a matrix, its pixels on a ``MatrixCanvas``; for a segment
/// display, its digits; and, for either, how the lit part blinks (the chips that can blink do it
/// themselves, at no cost to the bus).
public struct MatrixPicture: Sendable, Equatable {
    /// What the module can show.
    public let face: MatrixFace
    /// A matrix's pixels (1x1 and unused on a segment display).
    public var canvas: MatrixCanvas
    /// A segment display's digits (none on a matrix).
    public var digits: SegmentPicture
    /// How the lit part blinks.
    public var blink: MatrixBlink = .steady
    /// The colour of each role at the moment drawn: what the job is doing decides progress's colour.
    public var palette = ColourPalette.standard

    /// A dark picture for `face`.
    public init(face: MatrixFace) {
        self.face = face
        switch face {
        case .pixels(let width, let height, _):
            canvas = MatrixCanvas(width: max(1, width), height: max(1, height))
            digits = SegmentPicture(count: 0)
        case .segments(let count, _, _):
            canvas = MatrixCanvas(width: 1, height: 1)
            digits = SegmentPicture(count: count)
        }
    }

    /// Everything dark and steady.
    public mutating func clear() {
        canvas.clear()
        digits = SegmentPicture(count: digits.digits.count)
        blink = .steady
    }

    /// Writes `text` on a segment display, right-aligned when `right` (see ``SegmentFont``).
    public mutating func write(_ text: String, right: Bool = false) {
        guard case .segments(let count, let kind, let colon) = face else { return }
        let width = SegmentFont.width(of: text)
        let padded = right && width < count ? String(repeating: " ", count: count - width) + text : text
        digits = SegmentFont.picture(padded, count: count, kind: kind, colon: colon)
    }
}
