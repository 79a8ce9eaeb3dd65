/// Numbers as tools print them: sizes with units, clock times, percentages.
public enum ToolNumbers {
    /// How a tool rounded a figure it printed.
    public enum Rounding {
        /// To the nearest unit.
        case nearest
        /// Down.
        case down
    }

    /// A size such as `7.629 MiB`, `909.250 KiB`, `0 B`, `7.63 MB`, `2929k`, `1.1M` or
    /// `195.312Ki`, in bytes: the lowest number of bytes the text can stand for, so that a value
    /// read from it never runs ahead of the tool's own (`7.629 MiB` rounded to nearest is at least
    /// 7.6285 MiB), in whole bytes (a byte is not split). Binary units for the IEC forms and for curl's single letters (`k`, `M`: 1024,
    /// `decimalLetters` false), decimal ones for `kB`, `MB`.
    public static func bytes(_ text: Substring, rounding: Rounding = .nearest, decimalLetters: Bool = false) -> Double? {
        let trimmed = text.drop { $0 == " " }
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !digits.isEmpty, let amount = Double(digits), amount.isFinite else { return nil }
        let unitText = trimmed.dropFirst(digits.count).drop { $0 == " " }.prefix { $0.isLetter }
        guard let unit = multiplier(unitText, decimalLetters: decimalLetters) else { return nil }
        let decimals = digits.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
        var step = 1.0
        for _ in 0..<decimals { step /= 10 }
        let low = rounding == .nearest ? max(0, amount - step / 2) : amount
        return unit == 1 ? amount : (low * unit).rounded(.up)
    }

    static func multiplier(_ unit: Substring, decimalLetters: Bool) -> Double? {
        let binary = 1024.0, decimal = 1000.0
        switch unit {
        case "", "B", "b", "bytes": return 1
        case "KiB", "Ki": return binary
        case "MiB", "Mi": return binary * binary
        case "GiB", "Gi": return binary * binary * binary
        case "TiB", "Ti": return binary * binary * binary * binary
        case "PiB", "Pi": return binary * binary * binary * binary * binary
        case "kB", "KB": return decimal
        case "MB": return decimal * decimal
        case "GB": return decimal * decimal * decimal
        case "TB": return decimal * decimal * decimal * decimal
        case "PB": return decimal * decimal * decimal * decimal * decimal
        case "k", "K": return decimalLetters ? decimal : binary
        case "M": return decimalLetters ? decimal * decimal : binary * binary
        case "G": return decimalLetters ? decimal * decimal * decimal : binary * binary * binary
        case "T": return decimalLetters ? decimal * decimal * decimal * decimal : binary * binary * binary * binary
        case "P": return decimalLetters ? decimal * decimal * decimal * decimal * decimal : binary * binary * binary * binary * binary
        default: return nil
        }
    }

    /// `1:02:03`, `02:03`, `0:00:05` → seconds; nil for `--:--:--` and anything else.
    public static func clock(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(part) else { return nil }
            seconds = seconds * 60 + number
        }
        return seconds.isFinite ? seconds : nil
    }

    /// `42`, `42.5` (a percentage, without its sign) → 0…100, nil for anything else.
    public static func percent(_ text: Substring) -> Double? {
        let trimmed = text.drop { $0 == " " }
        guard !trimmed.isEmpty, trimmed.count <= 12, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(trimmed) else { return nil }
        return value
    }

    /// An integer with thousands separators (`1,234,567`, rsync) → its value.
    public static func grouped(_ text: Substring) -> Double? {
        let digits = text.filter { $0 != "," && $0 != "." && $0 != "'" }
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Double(digits)
    }
}
