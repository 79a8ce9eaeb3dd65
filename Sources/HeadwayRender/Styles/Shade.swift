/// How bright a part of a display picture is drawn, as a fraction of full light. Styles say what a
/// part is; the surface turns it into its levels: on a greyscale display the track is dim and a
/// stalled fill grey, on a 1-bit display every shade above zero is simply lit.
public struct Shade: Sendable, Equatable {
    /// How much of the full level, 0…1.
    public var fraction: Double

    /// A shade of `fraction` of the full level, clamped to 0…1.
    public init(_ fraction: Double) { self.fraction = min(1, max(0, fraction)) }

    /// Progress, text and icons.
    public static let full = Shade(1)
    /// The track (the part not yet done): there, but out of the way.
    public static let track = Shade(0.3)
    /// A stalled job's fill: plainly not progress.
    public static let stalled = Shade(0.5)
    /// No light.
    public static let off = Shade(0)

    /// The level for this shade on `Surface`, with `coverage` (0…1) of the pixel covered. Rounded
    /// down, so a partly covered pixel is never brighter than its share; on a 1-bit surface a
    /// pixel is lit only when wholly covered.
    func level<Surface: DisplaySurface>(on _: Surface.Type, coverage: Double = 1) -> UInt8 {
        guard fraction > 0, coverage > 0 else { return 0 }
        let top = Double(Surface.maxLevel)
        if Surface.maxLevel == 1 { return coverage >= 1 ? 1 : 0 }
        return UInt8(max(0, min(top, (fraction * coverage * top + 1e-9).rounded(.down))))
    }
}
