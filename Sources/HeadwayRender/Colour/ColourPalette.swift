import HeadwayCore
import Synchronization

/// The colour of each ``/HeadwaySurfaces/SurfaceRole`` on a colour display at one moment: the appearance's colours,
/// chosen by what the job is doing. Progress is the tint while the job runs, the overdue colour
/// past its estimate, the stale colour when its reporter lost sight of it, and the outcome's colour
/// once it finished; a stalled fill is the stalled colour (the stale one for a stale job); an idle
/// picture's progress role is the last result's colour and its stalled role carries the mark of
/// failures nobody has seen (the failure colour).
public struct ColourPalette: Sendable, Hashable {
    /// Progress, icons.
    public var fill: Colour
    /// The part not yet done (black when the appearance hides it).
    public var track: Colour
    /// A stalled fill, or an idle picture's failure mark.
    public var stalled: Colour
    /// Labels and figures.
    public var text: Colour

    /// Labels and figures: a white a little short of full, so that text never outshines progress.
    public static let textColour = Colour(red: 0xF0, green: 0xF0, blue: 0xF0)

    /// The standard appearance's colours for a running job.
    public static let standard = ColourPalette(
        fill: Appearance.standard.tint, track: Appearance.standard.track ?? .black, stalled: Appearance.standard.stalled, text: textColour)

    private init(fill: Colour, track: Colour, stalled: Colour, text: Colour) {
        self.fill = fill
        self.track = track
        self.stalled = stalled
        self.text = text
    }

    /// The palette for drawing `configuration`.
    public init(_ configuration: ProgressStyleConfiguration) {
        let look = configuration.appearance
        let snapshot = configuration.snapshot
        text = Self.textColour
        track = look.track ?? .black
        stalled = snapshot.phase.isStale ? look.stale : look.stalled
        switch snapshot.phase {
        case .finished(.succeeded): fill = look.success
        case .finished(.failed): fill = look.failure
        case .finished(.cancelled): fill = look.cancelled
        case .finished(.ended): fill = look.ended
        case .stale: fill = look.stale
        default: fill = snapshot.overdue != nil ? look.overdue : look.tint
        }
        if !snapshot.isVisible {
            switch configuration.notices.lastResult?.outcome {
            case .succeeded?: fill = look.success
            case .failed?: fill = look.failure
            case .cancelled?: fill = look.cancelled
            case .ended?: fill = look.ended
            case nil: fill = look.tint
            }
            stalled = look.failure
        }
    }

    /// The colour of `role` (black for `.off`).
    public func colour(of role: SurfaceRole) -> Colour {
        switch role {
        case .off: .black
        case .fill: fill
        case .track: track
        case .stalled: stalled
        case .text: text
        }
    }

    /// For each byte a ``/HeadwaySurfaces/RoleMap`` pixel can be, the bytes of its colour in `format`: the role's
    /// colour over black at the pixel's level, mixed in linear light (so an anti-aliased edge is as
    /// bright as the share of the pixel it covers).
    public func lookup(_ format: PixelFormat) -> [UInt8] {
        var table: [UInt8] = []
        let size = format == .rgb565 ? 2 : 3
        table.reserveCapacity(256 * size)
        let lights = SurfaceRole.allCases.map { LinearColour(colour(of: $0)) }
        for byte in 0..<256 {
            let role = SurfaceRole(rawValue: UInt8(byte >> 5)), level = byte & 0x1F
            var colour = Colour.black
            if let role, level > 0 {
                colour = lights[Int(role.rawValue)].scaled(by: Float(level) / Float(RoleMap.maxLevel)).sRGB
            }
            table += ColourPicture.encode(RGB8(red: colour.red, green: colour.green, blue: colour.blue), as: format)
        }
        return table
    }

    /// `roles` in this palette's colours, in `format`.
    public func picture(_ roles: RoleMap, format: PixelFormat) -> ColourPicture {
        ColourPicture(roles, format: format, lookup: cachedLookup(format))
    }

    /// The look-ups of the palettes drawn lately: a display's palette changes with the job's phase
    /// only, and working one out costs hundreds of powers.
    private static let lookups = Mutex<[Key: [UInt8]]>([:])

    private struct Key: Hashable {
        let palette: ColourPalette
        let sixBits: Bool
    }

    /// ``lookup(_:)``, worked out once for the palettes drawn lately.
    package func cachedLookup(_ format: PixelFormat) -> [UInt8] {
        let key = Key(palette: self, sixBits: format == .rgb666)
        if let table = Self.lookups.withLock({ $0[key] }) { return table }
        let table = lookup(format)
        Self.lookups.withLock { lookups in
            if lookups.count >= 16 { lookups.removeAll() }
            lookups[key] = table
        }
        return table
    }
}
