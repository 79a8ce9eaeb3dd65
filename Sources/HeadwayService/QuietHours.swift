import Headway

/// Hours of the day when outputs keep quiet — a build light in a bedroom at night: brightness is
/// capped (or the outputs go dark), a job that fails is still marked, and a button press lights
/// everything for a while. Local time, daylight saving included: the hours are read off the wall
/// clock, so a night that loses or gains an hour is an hour shorter or longer.
public struct QuietHours: Sendable, Equatable {
    /// When they begin, local time.
    public var from: TimeOfDay
    /// When they end, local time (the next day when earlier than `from`).
    public var to: TimeOfDay
    /// The most light outputs give meanwhile, 0…1; 0 is dark.
    public var brightness: Double
    /// Whether a job that failed meanwhile leaves a mark (one dim LED, a small box on a display)
    /// until somebody sees it.
    public var marksFailures: Bool
    /// How long a button press lights everything.
    public var wake: Seconds

    /// Quiet hours from `from` to `to`, each setting given.
    public init(from: TimeOfDay, to: TimeOfDay, brightness: Double = 0, marksFailures: Bool = true, wake: Seconds = 60) {
        self.from = from
        self.to = to
        self.brightness = min(1, max(0, brightness))
        self.marksFailures = marksFailures
        self.wake = wake
    }

    /// Whether the wall clock's `time` is within the hours (from inclusive, to exclusive; an
    /// evening start runs past midnight).
    public func contains(_ time: LocalTime) -> Bool {
        let minute = time.timeOfDay.minuteOfDay, start = from.minuteOfDay, end = to.minuteOfDay
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// "22:00–07:00, dark" or "… at 10 %", as messages say it.
    public var summary: String {
        "\(from.text)–\(to.text), " + (brightness == 0 ? "dark" : "at \(Int((brightness * 100).rounded())) %")
    }
}

/// An output's own quiet hours: the configuration's, none, or its own.
public enum QuietHoursChoice: Sendable, Equatable {
    /// The configuration's quiet hours.
    case inherited
    /// None: this output always shows at full brightness.
    case off
    /// Its own.
    case own(QuietHours)

    /// The hours that apply, given the configuration's.
    func resolved(_ shared: QuietHours?) -> QuietHours? {
        switch self {
        case .inherited: shared
        case .off: nil
        case .own(let hours): hours
        }
    }
}
