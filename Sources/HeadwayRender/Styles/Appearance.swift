/// How an indicator looks: the colours and brightness every built-in style honours.
public struct Appearance: Sendable, Equatable {
    /// The colour of progress.
    public var tint: Colour
    /// The colour of the part not yet done; `nil` hides the track.
    public var track: Colour?
    /// The colour a stalled job turns to.
    public var stalled: Colour
    /// The colour of a job its reporter has lost sight of (stale: not known to run or to have
    /// stopped).
    public var stale: Colour
    /// The colour of a job that succeeded.
    public var success: Colour
    /// The colour of a job that failed.
    public var failure: Colour
    /// The colour of a job someone cancelled.
    public var cancelled: Colour
    /// The colour of a job that ended without saying how (neither success nor failure).
    public var ended: Colour
    /// The colour of a job running past the duration its past runs took.
    public var overdue: Colour
    /// Overall light, 0…1, applied in linear light (LED styles; displays map it to contrast).
    public var brightness: Double
    /// Whether displays print the percentage (the platform guidelines make it optional; a job can
    /// also hide it for itself).
    public var showsPercent: Bool

    /// An appearance of each colour given; the defaults are ``standard``'s.
    public init(
        tint: Colour = Colour(red: 0x00, green: 0xA0, blue: 0xFF),
        track: Colour? = Colour(red: 0x18, green: 0x18, blue: 0x20),
        stalled: Colour = Colour(red: 0xFF, green: 0x90, blue: 0x00),
        stale: Colour = Colour(red: 0x80, green: 0x80, blue: 0x80),
        success: Colour = Colour(red: 0x20, green: 0xE0, blue: 0x40),
        failure: Colour = Colour(red: 0xFF, green: 0x10, blue: 0x10),
        cancelled: Colour = Colour(red: 0x90, green: 0x90, blue: 0x90),
        ended: Colour = Colour(red: 0x70, green: 0x70, blue: 0xA0),
        overdue: Colour = Colour(red: 0xC0, green: 0x40, blue: 0xFF),
        brightness: Double = 1,
        showsPercent: Bool = true
    ) {
        self.tint = tint
        self.track = track
        self.stalled = stalled
        self.stale = stale
        self.success = success
        self.failure = failure
        self.cancelled = cancelled
        self.ended = ended
        self.overdue = overdue
        self.brightness = min(1, max(0, brightness))
        self.showsPercent = showsPercent
    }

    /// Headway's own colours at full brightness.
    public static let standard = Appearance()

    /// The tint as linear light, at the appearance's brightness, for LED styles to blend.
    public var tintLight: LinearColour { LinearColour(tint) }
    /// The track as linear light (black when hidden).
    public var trackLight: LinearColour { track.map(LinearColour.init) ?? .black }
}
