extension Appearance {
    /// The colour a part of the picture is drawn in on a colour glass, by what it is: progress and
    /// text in the tint, the track in its colour, each state and outcome in its own; nil for no
    /// light (the background, or a hidden track).
    public func colour(for role: Shade.Role) -> Colour? {
        switch role {
        case .fill, .text: tint
        case .track: track
        case .stalled: stalled
        case .stale: stale
        case .overdue: overdue
        case .success: success
        case .failure: failure
        case .cancelled: cancelled
        case .ended: ended
        case .off: nil
        }
    }
}
