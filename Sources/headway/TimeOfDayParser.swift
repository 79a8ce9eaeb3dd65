import HeadwaySystem

/// Times of day as people write them, in the local time zone, as seconds since 1970 (UTC).
struct TimeOfDayParser {
    /// Seconds since 1970 now.
    var now: () -> Double = { WallClock.now.rounded(.down) }

    /// `14:30` or `14:30:15` (today, or tomorrow when that has passed), or ISO 8601
    /// `2026-11-22T14:30:00Z` / `…+01:00` / `2026-11-22 14:30` (local).
    func parse(_ text: String) throws(ClientCommand.UsageError) -> Double {
        let wrong = ClientCommand.UsageError(message: "--until \"\(text)\" is not a time like 14:30, 14:30:15 or 2026-11-22T14:30:00Z")
        let current = now()
        var parts = WallClock.local(current) ?? CalendarTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        var zone: Int?  // seconds east of UTC, when the text gives one
        var body = Substring(text)
        if body.hasSuffix("Z") {
            zone = 0
            body = body.dropLast()
        } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-", let hours = Int(body.suffix(5).prefix(2)), let minutes = Int(body.suffix(2)) {
            zone = (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
            body = body.dropLast(6)
        }
        let halves = body.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard (1...2).contains(halves.count) else { throw wrong }
        if halves.count == 2 {
            let date = halves[0].split(separator: "-").compactMap { Int32($0) }
            guard date.count == 3 else { throw wrong }
            (parts.year, parts.month, parts.day) = (Int(date[0]), Int(date[1]), Int(date[2]))
        }
        let clockParts = halves.last!.split(separator: ":").map { Int32($0) }
        guard (2...3).contains(clockParts.count), clockParts.allSatisfy({ $0 != nil }) else { throw wrong }
        let (hour, minute, second) = (clockParts[0]!, clockParts[1]!, clockParts.count == 3 ? clockParts[2]! : 0)
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { throw wrong }
        (parts.hour, parts.minute, parts.second) = (Int(hour), Int(minute), Int(second))
        var seconds: Double
        if let zone {
            seconds = WallClock.seconds(utc: parts) - Double(zone)
        } else {
            seconds = WallClock.seconds(local: parts)
        }
        if halves.count == 1, seconds <= current { seconds += 86_400 }  // a time of day already past: tomorrow
        return seconds
    }
}
