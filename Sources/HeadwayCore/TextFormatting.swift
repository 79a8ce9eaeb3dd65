import RealModule

/// Short, fixed forms for durations on small displays: "8s", "1m05s", "2h03m", "41d06h".
public enum DurationText {
    /// `90`, `90s`, `5m`, `1h30m`, `2h`, `1d` → seconds (0 included); nil for anything else.
    public static func parse(_ text: String) -> Seconds? {
        var total = 0.0, digits = "", any = false
        for character in text {
            if character.isASCII, character.isNumber || character == "." {
                digits.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let amount = Double(digits) else { return nil }
            total += amount * unit
            digits = ""
            any = true
        }
        if !digits.isEmpty {
            guard let seconds = Double(digits) else { return nil }
            total += seconds
            any = true
        }
        return any && total.isFinite ? total : nil
    }

    /// `seconds` in the short form, rounded by `rule` (ETAs round up, elapsed times down). Any
    /// number is accepted: NaN and negatives read as "0s", anything beyond 9999 days as ">9999d".
    public static func short(_ seconds: Seconds, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        let limit = 9999.0 * 86_400
        guard seconds < limit else { return ">9999d" }
        let whole = seconds.isNaN ? 0 : Int(max(0, seconds).rounded(rule))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(twoDigits(whole % 60))s" }
        if whole < 86_400 { return "\(whole / 3600)h\(twoDigits(whole % 3600 / 60))m" }
        return "\(whole / 86_400)d\(twoDigits(whole % 86_400 / 3600))h"
    }

    /// A countdown as every text tells it: "3m57s left of 4m" — time left, never a percentage,
    /// which falling from 98 % would read as a job nearly done.
    public static func countdown(left: Seconds, of whole: Seconds) -> String {
        var length = short(whole)
        // A whole given in round units reads as given: "4m", not "4m00s".
        while length.count > 2, length.hasSuffix("00s") || length.hasSuffix("00m") || length.hasSuffix("00h") {
            length.removeLast(3)
        }
        return "\(short(left, rounding: .up)) left of \(length)"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Numbers as people write them on a small display: "42", "3.5", "1200", "2.5e19".
public enum NumberText {
    /// `value` with at most one decimal; numbers of 10¹⁵ or more in scientific form, so any finite
    /// number (and, for safety, NaN and infinities) gives a short text.
    public static func compact(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "?" : value < 0 ? "-∞" : "∞" }
        if abs(value) >= 1e15 { return scientific(value) }
        if value == value.rounded() { return "\(Int(value))" }
        let tenths = (value * 10).rounded()
        let whole = Int(tenths / 10)
        let fraction = Int(abs(tenths).truncatingRemainder(dividingBy: 10))
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// A count of bytes as a label shows it, with at most one decimal: "7.6 MB", "512 B", or in
    /// binary multiples "7.2 MiB" when `binary`. Rounded down, so that a count of what is done
    /// never reads as more; "?" for a count that is not one.
    public static func bytes(_ count: Double, binary: Bool = false) -> String {
        guard count.isFinite, count >= 0 else { return "?" }
        let units = binary ? ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] : ["B", "kB", "MB", "GB", "TB", "PB", "EB"]
        let step = binary ? 1024.0 : 1000.0
        var value = count
        var unit = 0
        while value >= step, unit < units.count - 1 {
            value /= step
            unit += 1
        }
        return "\(compact(unit == 0 ? value.rounded(.down) : (value * 10).rounded(.down) / 10)) \(units[unit])"
    }

    /// One amount in `unit`: "1.2 GB", "2m05s", or a count as ``compact(_:)`` writes it.
    public static func amount(_ value: Double, unit: ValueUnit?) -> String {
        switch unit {
        case .bytes: bytes(value)
        case .binaryBytes: bytes(value, binary: true)
        case .seconds: DurationText.short(value, rounding: .down)
        case nil: compact(value)
        }
    }

    /// `value` of `total` in `unit`, as short as it reads: "42/120", "1.2/3.1 GB" (the unit said
    /// once when both share it), "512 MB/3.1 GB", "2m05s/40m00s".
    public static func amounts(_ value: Double, of total: Double, unit: ValueUnit?) -> String {
        let done = amount(value, unit: unit), whole = amount(total, unit: unit)
        switch unit {
        case .bytes?, .binaryBytes?:
            let doneParts = done.split(separator: " "), wholeParts = whole.split(separator: " ")
            if doneParts.count == 2, wholeParts.count == 2, doneParts[1] == wholeParts[1] { return "\(doneParts[0])/\(whole)" }
            return "\(done)/\(whole)"
        case .seconds?, nil:
            return "\(done)/\(whole)"
        }
    }

    /// "2.5e19": one decimal of mantissa, the exponent in full.
    private static func scientific(_ value: Double) -> String {
        var exponent = Int(Double.log10(abs(value)).rounded(.down))
        var mantissa = ((value / Double.pow(10, Double(exponent))) * 10).rounded() / 10
        if abs(mantissa) >= 10 {
            mantissa /= 10
            exponent += 1
        }
        return "\(compact(mantissa))e\(exponent)"
    }
}
