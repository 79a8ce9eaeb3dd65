/// What a pixel of a display picture shows: progress, the track, a stalled fill, text, or nothing.
/// Styles say it with every shape they draw; a 1-bit or greyscale picture keeps only the level, a
/// ``RoleMap`` keeps the role too, so that a colour display can take each role's colour from the
/// appearance.
public enum SurfaceRole: UInt8, Sendable, Equatable, CaseIterable {
    /// Nothing: background.
    case off = 0
    /// Progress: the done part of a bar or ring, icons.
    case fill = 1
    /// The part not yet done.
    case track = 2
    /// A stalled (or stale) job's fill.
    case stalled = 3
    /// Labels and figures.
    case text = 4
}
