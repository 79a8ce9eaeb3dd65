/// The times servers write, read without Foundation and without trusting the text: a malformed
/// or absurd time is nil, never a trap.
public enum ServerTime {
    /// ISO 8601 as the CI APIs write it (GitHub's and GitLab's `2026-11-20T09:30:05Z`, with
    /// fractions `…05.506Z` or an offset `…05.6362160+01:00`, as cctray.org's example): seconds
    /// since 1970, UTC. A time without a zone is read as UTC.
    public static func iso8601(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes.count <= 40, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
              let base = seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return base + fraction }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return index + 1 == bytes.count ? base + fraction : nil
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "+") ? 1.0 : -1.0
            let rest = Array(bytes[(index + 1)...])
            let digits = rest.filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 4, rest.count == 4 || (rest.count == 5 && rest[2] == UInt8(ascii: ":")),
                  let hours = number(digits, 0, 2), let minutes = number(digits, 2, 2), hours < 24, minutes < 60 else { return nil }
            return base + fraction - sign * Double(hours * 3600 + minutes * 60)
        default:
            return nil
        }
    }

    /// An HTTP date (RFC 9110 §5.6.7's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), as in `Date`
    /// and `Retry-After`: seconds since 1970.
    public static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), let year = Int(parts[3]),
              let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].firstIndex(of: String(parts[2]))
        else { return nil }
        let clock = Array(parts[4].utf8)
        guard clock.count == 8, clock[2] == UInt8(ascii: ":"), clock[5] == UInt8(ascii: ":"),
              let hour = number(clock, 0, 2), let minute = number(clock, 3, 2), let second = number(clock, 6, 2)
        else { return nil }
        return seconds(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    /// Seconds since 1970 of a UTC calendar time; nil outside 1970…9999 or for a date that does not exist.
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double? {
        guard (1970...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second <= 60 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from 1970-01-01 to the date (the proleptic Gregorian calendar, counted from March so
        // that the leap day comes last in its year).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
