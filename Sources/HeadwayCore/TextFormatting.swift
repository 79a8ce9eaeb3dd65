/// Short, fixed forms for durations on small displays: "8s", "1m05s", "2h03m".
public enum DurationText {
    /// `seconds` in the short form, rounded by `rule` (ETAs round up, elapsed times down).
    public static func short(_ seconds: Seconds, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        let whole = Int(max(0, seconds).rounded(rule))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "\(whole / 3600)h\(twoDigits(whole % 3600 / 60))m"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Numbers as people write them on a small display: "42", "3.5", "1200".
public enum NumberText {
    public static func compact(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return "\(Int(value))" }
        let tenths = (value * 10).rounded()
        let whole = Int(tenths / 10)
        let fraction = Int(abs(tenths).truncatingRemainder(dividingBy: 10))
        return fraction == 0 ? "\(whole)" : "\(whole).\(fraction)"
    }
}
