/// The generic reader's built-in forms, read from a line's bytes without decoding it: `42%` and
/// `42.5 %`, `[3/10]` and `(3 / 10)`, `3/10` as a word of its own, `3 of 10`. Each is the last of
/// its kind on the line (a bar redrawn in place leaves its latest figures last), and the first
/// kind found wins, in that order. They are the regular expressions `(\d+(?:\.\d+)?)\s?%`,
/// `[\[(](\d+)\s*\/\s*(\d+)[\])]`, `(?:^|\s)(\d+)\/(\d+)(?=\s|$|[:,.;])` and
/// `\b(\d+) of (\d+)\b`, matched left to right as Swift's `Regex` matches them, with ASCII
/// digits, Unicode's white space (a French `45 %` has a no-break space), and Unicode's word
/// boundaries (UAX #29: a digit run is a word with the letters, digits, marks and `_` beside it,
/// and with `.`, `,`, `;` or `'` between two digits). Two differences: a digit is an ASCII digit
/// (`Regex` takes any script's, and then gives up on the form when `Double` cannot read the
/// number), and a combining mark after a form's `%`, bracket or digit, which makes another
/// character of it for `Regex`, is not looked at.
enum ProgressForms {
    typealias Bytes = UnsafeRawBufferPointer

    /// (value, total) in `line`.
    static func progress(in line: Bytes) -> (Double, Double)? {
        if let found = lastPercent(line), let value = found { return (min(value, 100), 100) }
        if let found = lastBracketed(line), let pair = found { return pair }
        if let found = lastFraction(line), let pair = found { return pair }
        if let found = lastOf(line), let pair = found { return pair }
        return nil
    }

    // MARK: The forms. Each gives nil when it is not on the line, and .some(nil) when its last
    // match holds no usable numbers: then the next form is tried.

    /// The value of the last `N%` or `N.N %`.
    static func lastPercent(_ line: Bytes) -> Double?? {
        var index = line.count - 1
        while index >= 0 {
            defer { index -= 1 }
            guard line[index] == UInt8(ascii: "%") else { continue }
            var end = index
            if end > 0, !isDigit(line[end - 1]) {
                let space = spaceEnding(at: end, in: line)
                guard space > 0, end - space > 0, isDigit(line[end - space - 1]) else { continue }
                end -= space
            }
            guard end > 0, isDigit(line[end - 1]) else { continue }
            var start = digitsStart(endingAt: end, in: line)
            if start >= 2, line[start - 1] == UInt8(ascii: "."), isDigit(line[start - 2]) {
                start = digitsStart(endingAt: start - 1, in: line)
            }
            return .some(number(line, start, end))
        }
        return nil
    }

    /// The last `[N/M]` or `(N / M)` (either bracket on either side).
    static func lastBracketed(_ line: Bytes) -> (Double, Double)?? {
        var index = line.count - 1
        while index >= 0 {
            defer { index -= 1 }
            guard line[index] == UInt8(ascii: "]") || line[index] == UInt8(ascii: ")") else { continue }
            let totalEnd = index
            let totalStart = digitsStart(endingAt: totalEnd, in: line)
            guard totalStart < totalEnd else { continue }
            var slash = skipSpacesBackward(from: totalStart, in: line)
            guard slash > 0, line[slash - 1] == UInt8(ascii: "/") else { continue }
            slash -= 1
            let valueEnd = skipSpacesBackward(from: slash, in: line)
            let valueStart = digitsStart(endingAt: valueEnd, in: line)
            guard valueStart < valueEnd, valueStart > 0, line[valueStart - 1] == UInt8(ascii: "[") || line[valueStart - 1] == UInt8(ascii: "(") else { continue }
            return .some(pair(line, valueStart, valueEnd, totalStart, totalEnd))
        }
        return nil
    }

    /// The last `N/M` that stands alone: after the line's start or a space, before its end, a
    /// space or one of `:,.;`.
    static func lastFraction(_ line: Bytes) -> (Double, Double)?? {
        var index = line.count - 1
        while index >= 0 {
            defer { index -= 1 }
            guard line[index] == UInt8(ascii: "/") else { continue }
            let valueStart = digitsStart(endingAt: index, in: line)
            let totalEnd = digitsEnd(startingAt: index + 1, in: line)
            guard valueStart < index, totalEnd > index + 1 else { continue }
            guard valueStart == 0 || spaceEnding(at: valueStart, in: line) > 0 else { continue }
            if totalEnd < line.count {
                let next = line[totalEnd]
                guard spaceStarting(at: totalEnd, in: line) > 0 || next == UInt8(ascii: ":") || next == UInt8(ascii: ",") || next == UInt8(ascii: ".")
                    || next == UInt8(ascii: ";")
                else { continue }
            }
            return .some(pair(line, valueStart, index, index + 1, totalEnd))
        }
        return nil
    }

    /// The last `N of M`, both numbers words of their own, matched left to right (a match takes
    /// its numbers from the next: `1 of 2 of 3` is 1 of 2).
    static func lastOf(_ line: Bytes) -> (Double, Double)?? {
        let of = Array(" of ".utf8)
        var position = 0
        var found: (Int, Int, Int, Int)?
        var index = 1
        while index + 5 <= line.count {
            guard line[index] == of[0], line[index + 1] == of[1], line[index + 2] == of[2], line[index + 3] == of[3] else {
                index += 1
                continue
            }
            let valueStart = digitsStart(endingAt: index, in: line)
            let totalEnd = digitsEnd(startingAt: index + 4, in: line)
            if valueStart < index, valueStart >= position, totalEnd > index + 4, boundaryBefore(valueStart, in: line), boundaryAfter(totalEnd, in: line) {
                found = (valueStart, index, index + 4, totalEnd)
                position = totalEnd
                index = totalEnd
            } else {
                index += 1
            }
        }
        return found.map { pair(line, $0.0, $0.1, $0.2, $0.3) }
    }

    // MARK: Bytes

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    static func digitsStart(endingAt end: Int, in line: Bytes) -> Int {
        var start = end
        while start > 0, isDigit(line[start - 1]) { start -= 1 }
        return start
    }

    static func digitsEnd(startingAt start: Int, in line: Bytes) -> Int {
        var end = start
        while end < line.count, isDigit(line[end]) { end += 1 }
        return end
    }

    static func skipSpacesBackward(from end: Int, in line: Bytes) -> Int {
        var end = end
        while true {
            let space = spaceEnding(at: end, in: line)
            if space == 0 { return end }
            end -= space
        }
    }

    /// The length of the white space character that ends just before `end`, or 0.
    static func spaceEnding(at end: Int, in line: Bytes) -> Int {
        guard end > 0 else { return 0 }
        if isSpace(line[end - 1]) { return 1 }
        for length in 2...3 where end - length >= 0 && spaceLength(line, end - length) == length { return length }
        return 0
    }

    /// The length of the white space character that starts at `start`, or 0.
    static func spaceStarting(at start: Int, in line: Bytes) -> Int {
        guard start < line.count else { return 0 }
        return isSpace(line[start]) ? 1 : spaceLength(line, start)
    }

    /// ASCII's white space: tab, line feed, vertical tab, form feed, carriage return, space.
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The length of the other white space (Unicode's White_Space) encoded at `index`, or 0:
    /// U+0085, U+00A0, U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    static func spaceLength(_ line: Bytes, _ index: Int) -> Int {
        let first = line[index]
        guard first >= 0xC2 else { return 0 }
        if first == 0xC2, index + 1 < line.count, line[index + 1] == 0x85 || line[index + 1] == 0xA0 { return 2 }
        guard index + 2 < line.count else { return 0 }
        let second = line[index + 1], third = line[index + 2]
        switch (first, second) {
        case (0xE1, 0x9A): return third == 0x80 ? 3 : 0
        case (0xE2, 0x80): return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
        case (0xE2, 0x81): return third == 0x9F ? 3 : 0
        case (0xE3, 0x80): return third == 0x80 ? 3 : 0
        default: return 0
        }
    }

    /// Whether a word can start at the digit at `index` (UAX #29: not after a letter, a digit, a
    /// mark or a connector such as `_`, nor inside a number such as `1.3`).
    static func boundaryBefore(_ index: Int, in line: Bytes) -> Bool {
        guard index > 0 else { return true }
        let before = line[index - 1]
        if before >= 0x80 {
            var start = index - 1
            while start > 0, index - start < 4, line[start] & 0xC0 == 0x80 { start -= 1 }
            return !isWordScalar(line, at: start)
        }
        if isWordByte(before) { return false }
        return !(isMidNumber(before) && index >= 2 && isDigit(line[index - 2]))
    }

    /// Whether a word can end after the digit before `end`.
    static func boundaryAfter(_ end: Int, in line: Bytes) -> Bool {
        guard end < line.count else { return true }
        let after = line[end]
        if after >= 0x80 { return !isWordScalar(line, at: end) }
        if isWordByte(after) { return false }
        return !(isMidNumber(after) && end + 1 < line.count && isDigit(line[end + 1]))
    }

    @inline(__always) static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- 0x61 < 26 || byte == UInt8(ascii: "_")
    }

    /// Whether the character encoded at `index` belongs in a word with digits: a letter, a digit, a
    /// connector, or a mark (which joins the character before it). Bytes that are not UTF-8 do not.
    static func isWordScalar(_ line: Bytes, at index: Int) -> Bool {
        var iterator = UnsafeRawBufferPointer(rebasing: line[index...]).makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        // U+202F NARROW NO-BREAK SPACE joins words as `_` does (UAX #29's ExtendNumLet).
        if scalar.value == 0x202F { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark, .format, .decimalNumber: return true
        default: return properties.isAlphabetic
        }
    }

    @inline(__always) static func isMidNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "'")
    }

    static func number(_ line: Bytes, _ start: Int, _ end: Int) -> Double? {
        Double(String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<end]), as: UTF8.self))
    }

    /// A value and a total that make sense as progress (finite, the total above 0).
    static func pair(_ line: Bytes, _ valueStart: Int, _ valueEnd: Int, _ totalStart: Int, _ totalEnd: Int) -> (Double, Double)? {
        guard let value = number(line, valueStart, valueEnd), let total = number(line, totalStart, totalEnd), value.isFinite, total.isFinite, total > 0 else { return nil }
        return (value, total)
    }
}
