import Headway

/// How the service spares a display: ``/Headway/DisplayCare`` (the picture moves, dims when unchanged,
/// sleeps when blank) and how long the last job's result stays up, dim, after its signal.
public struct OutputCare: Sendable, Equatable {
    /// How the display's pixels are spared.
    public var display: DisplayCare
    /// How long the last result stays up after a job's signal (0: the display goes dark at once).
    public var lastResult: Seconds
    /// The share of its brightness the last result is shown at.
    public var lastResultBrightness: Double

    /// Care of each setting given (out-of-range values are brought into range).
    public init(display: DisplayCare = .standard, lastResult: Seconds = 0, lastResultBrightness: Double = 0.3) {
        self.display = display
        self.lastResult = max(0, lastResult)
        self.lastResultBrightness = min(1, max(0, lastResultBrightness))
    }

    /// On, at the values a display left running all day should have.
    public static let standard = OutputCare()
    /// No care: the whole glass, never moved, dimmed or slept, and no last result.
    public static let off = OutputCare(display: .off)
}
