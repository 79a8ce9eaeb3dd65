/// Sparing an OLED's pixels, which wear (and burn in) the longer they stay lit: a build light's
/// label, a bar's track or a result left up for months leave their ghost on the glass.
///
/// - The picture moves: it is drawn ``shift`` pixels narrower and lower than the glass and placed
///   at a different corner of that room every ``shiftInterval``, as televisions and watches do.
///   Styles keep their layout (for the smaller picture); the whole picture moves.
/// - A picture that does not change for ``dimAfter`` is shown at ``dimmedBrightness`` of its
///   brightness, and at full brightness again with the next change.
/// - A blank picture turns the panel off (``sleepsWhenBlank``): no pixel is driven at all.
public struct DisplayCare: Sendable, Equatable {
    /// Pixels the picture moves across and down (0: it stays put).
    public var shift: Int
    /// How long the picture stays at each place.
    public var shiftInterval: Duration
    /// How long a picture may stay the same before it is dimmed (nil: never).
    public var dimAfter: Duration?
    /// The share of its brightness an unchanging picture keeps, 0…1.
    public var dimmedBrightness: Double
    /// Whether a blank picture turns the panel off (no pixel driven) until the next picture.
    public var sleepsWhenBlank: Bool

    /// The care with each setting given (out-of-range values are brought into range).
    public init(
        shift: Int = 1, shiftInterval: Duration = .seconds(120), dimAfter: Duration? = .seconds(300), dimmedBrightness: Double = 0.25, sleepsWhenBlank: Bool = true
    ) {
        self.shift = max(0, shift)
        self.shiftInterval = max(.seconds(1), shiftInterval)
        self.dimAfter = dimAfter
        self.dimmedBrightness = min(1, max(0, dimmedBrightness))
        self.sleepsWhenBlank = sleepsWhenBlank
    }

    /// Everything on, at the values above.
    public static let standard = DisplayCare()
    /// The picture on the whole glass, never moved, dimmed or slept.
    public static let off = DisplayCare(shift: 0, dimAfter: nil, dimmedBrightness: 1, sleepsWhenBlank: false)

    /// Where the picture's top-left corner is at `time`: the places of a (shift + 1)² square, row
    /// by row and back (each a pixel from the one before), one per ``shiftInterval``.
    public func offset(at time: Seconds) -> (x: Int, y: Int) {
        guard shift > 0, time.isFinite else { return (0, 0) }
        let side = shift + 1
        let step = Int((max(0, time) / shiftInterval.seconds).rounded(.down)) % (side * side)
        let row = step / side, along = step % side
        return (row % 2 == 0 ? along : shift - along, row)
    }
}
