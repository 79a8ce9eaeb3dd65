import HeadwayCore
import HeadwaySystem

extension LocalTime {
    /// The time of day `seconds` since 1970 is in the system's time zone, daylight saving included
    /// (00:00 when it cannot be told): the service's local time when tests do not inject one.
    static func of(wallClock seconds: Double) -> LocalTime {
        guard let time = WallClock.local(seconds) else { return LocalTime(hour: 0, minute: 0) }
        return LocalTime(hour: time.hour, minute: time.minute, second: time.second)
    }
}
