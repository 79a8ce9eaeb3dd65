/// The fraction an indicator shows, easing toward the fraction the job reported.
///
/// Rules it keeps, whatever the reports do:
/// - it moves toward the reported fraction with an ease-out curve over a fixed duration, so it never
///   overshoots and never runs ahead of what was reported;
/// - it never goes backwards: a report that lowers the fraction (a larger total, say) makes it hold
///   still until the job catches up. Only ``reset(to:at:)`` moves it back;
/// - it is a pure function of time between reports, so any frame at any `t` can be rendered.
public struct DisplayedValue: Sendable, Equatable, Codable {
    /// How long an ease from one reported value to the next takes.
    public var duration: Seconds

    private var from: Double
    private var target: Double
    private var startedAt: Seconds

    /// A shown value at `fraction` from `time`, easing over `duration` seconds to each new target.
    public init(duration: Seconds, startingAt fraction: Double = 0, at time: Seconds = 0) {
        self.duration = duration
        from = fraction
        target = fraction
        startedAt = time
    }

    /// The shown fraction at `time`.
    public func fraction(at time: Seconds) -> Double {
        guard duration > 0 else { return target }
        let progress = min(1, max(0, (time - startedAt) / duration))
        let eased = 1 - (1 - progress) * (1 - progress) * (1 - progress)  // ease-out cubic: no overshoot
        return from + (target - from) * eased
    }

    /// Heads for `fraction` from wherever the display is at `time`; a lower fraction is held.
    public mutating func move(to fraction: Double, at time: Seconds) {
        let current = self.fraction(at: time)
        guard fraction > current else {
            // Holding: the display stays where it is until the job catches up.
            from = current
            target = current
            startedAt = time
            return
        }
        from = current
        target = fraction
        startedAt = time
    }

    /// Jumps back to `fraction` (default 0): the job started over.
    public mutating func reset(to fraction: Double = 0, at time: Seconds) {
        from = fraction
        target = fraction
        startedAt = time
    }
}

extension DisplayedValue {
    /// The value with the time its ease began moved by `delta` seconds.
    func shifted(by delta: Seconds) -> DisplayedValue {
        var moved = self
        moved.startedAt += delta
        return moved
    }
}
