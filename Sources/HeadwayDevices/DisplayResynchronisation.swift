import HeadwayCore

/// When a display driver sends the whole picture again although no write failed: a display on a
/// write-only bus cannot say that it lost power, so the driver bounds how long it may be wrong.
public struct DisplayResynchronisation: Sendable, Equatable {
    /// Resynchronise at most this long after the last time (nil: only on errors and after blank).
    public var interval: Seconds?
    /// Resynchronise when a picture follows a blank one (the display was idle).
    public var afterBlank: Bool

    /// Resynchronisation at most every `interval` seconds, and after a blank picture when `afterBlank`.
    public init(interval: Seconds? = 30, afterBlank: Bool = true) {
        self.interval = interval
        self.afterBlank = afterBlank
    }

    /// Every 30 s, and after a blank picture.
    public static let standard = DisplayResynchronisation()
    /// Only after bus errors: every picture costs exactly what changed (benchmarks, tests).
    public static let onErrorsOnly = DisplayResynchronisation(interval: nil, afterBlank: false)
}
