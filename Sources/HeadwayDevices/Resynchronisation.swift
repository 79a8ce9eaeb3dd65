import HeadwayCore

/// When a driver sends everything again although no write failed: what a display or LED
/// controller holds cannot be read back, and a module that lost power between two writes (a loose
/// connector, a brown-out, an SPI module, which acknowledges nothing) cannot tell the driver, so
/// this bounds how long such a module stays wrong.
public struct Resynchronisation: Sendable, Equatable {
    /// Resynchronise at most this long after the last time (nil: only on errors and after blank).
    public var interval: Seconds?
    /// Resynchronise when a picture follows a blank one (the module was idle: nothing was sent,
    /// so one re-plugged meanwhile would otherwise stay dark).
    public var afterBlank: Bool

    /// Resynchronisation at most every `interval` seconds, and after a blank picture when `afterBlank`.
    public init(interval: Seconds? = 30, afterBlank: Bool = true) {
        self.interval = interval
        self.afterBlank = afterBlank
    }

    /// How many frames a step of a resynchronisation waits for a frame that changes the picture
    /// and has room for it (where a peer's driver would send its whole frame): past them it goes
    /// with the next frame, whatever that frame is.
    public static let patience = 30

    /// Every 30 s, and after a blank picture.
    public static let standard = Resynchronisation()
    /// Only after bus errors: every picture costs exactly what changed (benchmarks, tests).
    public static let onErrorsOnly = Resynchronisation(interval: nil, afterBlank: false)

    /// Whether the next picture is sent whole, the driver's knowledge of the module forgotten: the
    /// last picture sent (at `last`) was blank and this one is not (`lastBlank`, `blank`), or the
    /// interval has passed by `now`.
    public func isDue(lastResynchronised last: Seconds, at now: Seconds, lastBlank: Bool, blank: @autoclosure () -> Bool) -> Bool {
        (afterBlank && lastBlank && !blank()) || (interval.map { now - last >= $0 } ?? false)
    }
}
