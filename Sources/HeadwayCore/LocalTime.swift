/// A moment as the clock on the wall shows it: the local time of day, daylight saving included.
/// The service is given a function from seconds since 1970 to this (the system's time zone in the
/// daemon, a chosen zone in tests), as it is given its clock.
public struct LocalTime: Sendable, Equatable {
    /// The hour, 0…23.
    public var hour: Int
    /// The minute, 0…59.
    public var minute: Int
    /// The second, 0…60 (a leap second).
    public var second: Int

    /// A wall-clock time.
    public init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The minute of the day it falls in.
    public var timeOfDay: TimeOfDay { TimeOfDay(minuteOfDay: hour * 60 + minute) }
}

/// A time of day to the minute ("22:00"), as a configuration names one.
public struct TimeOfDay: Sendable, Equatable, Hashable {
    /// 0 … 1439.
    public let minuteOfDay: Int

    /// The time `minuteOfDay` minutes after midnight, taken modulo a day.
    public init(minuteOfDay: Int) { self.minuteOfDay = ((minuteOfDay % 1440) + 1440) % 1440 }

    /// `22:00`, `7:30`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else { return nil }
        self.init(minuteOfDay: hour * 60 + minute)
    }

    /// `07:05`.
    public var text: String {
        let hour = minuteOfDay / 60, minute = minuteOfDay % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
