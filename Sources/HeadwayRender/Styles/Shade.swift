/// What a part of a display picture is, and how bright it is drawn as a fraction of full light.
/// Styles say what a part is (its ``Role``); each medium maps the role to what its glass has: on a
/// greyscale display the track is dim and a stalled fill grey, on a 1-bit display every shade above
/// zero is simply lit, and a colour display takes the role's colour from the appearance.
public struct Shade: Sendable, Equatable {
    /// What a part of the picture is (progress, track, stalled, text, nothing).
    public typealias Role = SurfaceRole

    /// What the part is.
    public var role: Role
    /// How much of the full level, 0…1.
    public var fraction: Double

    /// A shade of `fraction` of the full level, clamped to 0…1, for a part that is `role`.
    public init(_ fraction: Double, role: Role = .fill) {
        self.fraction = min(1, max(0, fraction))
        self.role = role
    }

    /// Progress and icons.
    public static let full = Shade(1)
    /// Labels and figures.
    public static let text = Shade(1, role: .text)
    /// The track (the part not yet done): there, but out of the way.
    public static let track = Shade(0.3, role: .track)
    /// A stalled job's fill: plainly not progress.
    public static let stalled = Shade(0.5, role: .stalled)
    /// No light.
    public static let off = Shade(0, role: .off)

    /// The level for this shade on `Surface`, with `coverage` (0…1) of the pixel covered. Rounded
    /// down, so a partly covered pixel is never brighter than its share; on a 1-bit surface a
    /// pixel is lit only when wholly covered. Where the surface takes its colour from the role,
    /// the level is the coverage alone: the role's colour is as dim as the appearance makes it.
    func level<Surface: DisplaySurface>(on _: Surface.Type, coverage: Double = 1) -> UInt8 {
        guard fraction > 0, coverage > 0 else { return 0 }
        let top = Double(Surface.maxLevel)
        if Surface.maxLevel == 1 { return coverage >= 1 ? 1 : 0 }
        let share = Surface.takesColourFromRole ? coverage : fraction * coverage
        return UInt8(max(0, min(top, (share * top + 1e-9).rounded(.down))))
    }
}
