#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system's real-time clock and the calendar in the system's time zone. The monotonic clock is
/// HeadwayCore's `MonotonicClock`: what is measured or waited for goes by that one.
package enum WallClock {
    /// Seconds since 1970 (UTC).
    package static var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `seconds` since 1970 in the system's time zone (`TZ`, else /etc/localtime), daylight saving
    /// included: localtime_r reads the zone's rules for that very moment.
    package static func local(_ seconds: Double) -> CalendarTime? {
        var clock = time_t(seconds.rounded(.down))
        var parts = tm()
        guard localtime_r(&clock, &parts) != nil else { return nil }
        return CalendarTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// The moment `time` names in the system's time zone (whether daylight saving applies is the
    /// zone's to say), as seconds since 1970; out-of-range parts carry over (a 32nd day is the next
    /// month's first).
    package static func seconds(local time: CalendarTime) -> Double {
        var parts = time.parts
        parts.tm_isdst = -1
        return Double(mktime(&parts))
    }

    /// The moment `time` names in UTC, as seconds since 1970.
    package static func seconds(utc time: CalendarTime) -> Double {
        var parts = time.parts
        return Double(timegm(&parts))
    }
}

/// A date and a time of day as a calendar and a clock on the wall show them.
package struct CalendarTime: Sendable, Equatable {
    package var year: Int
    /// 1 to 12.
    package var month: Int
    /// 1 to 31.
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    fileprivate var parts: tm {
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return parts
    }
}
