/// A JSON value, parsed and printed without Foundation (the client must start in milliseconds).
public enum JSONValue: Sendable, Equatable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (finite: JSON has no others).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in the order they came.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object (the last one if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The string, when this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, when this is one.
    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    /// The boolean, when this is one.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// Compact JSON text, members in the order given. Made in one allocation of its final size:
    /// a reply of 10,000 jobs grown by doubling left the allocator holding the halves it outgrew,
    /// resident memory that each client that never reads multiplied.
    public var text: String {
        var out = ""
        out.reserveCapacity(textLength)
        write(to: &out)
        return out
    }

    /// The bytes of ``text``, counted without making it.
    var textLength: Int {
        switch self {
        case .null: 4
        case .bool(let b): b ? 4 : 5
        case .number(let n): Self.format(n).utf8.count
        case .string(let s): Self.quotedLength(s)
        case .array(let items): items.reduce(2 + max(0, items.count - 1)) { $0 + $1.textLength }
        case .object(let members): members.reduce(2 + max(0, members.count - 1)) { $0 + Self.quotedLength($1.0) + 1 + $1.1.textLength }
        }
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.format(n)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    /// The bytes `quote` writes for `s`.
    static func quotedLength(_ s: String) -> Int {
        var length = 2
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"", "\\", "\n", "\r", "\t": length += 2
            case _ where scalar.value < 0x20: length += 6
            default: length += UTF8.width(scalar)
            }
        }
        return length
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Why a line is not JSON, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the text stopped being JSON, in bytes from its start.
    public let offset: Int
    /// What was wrong there.
    public let problem: String
    public var description: String { "not valid JSON at byte \(offset): \(problem)" }
}

extension JSONValue {
    /// Parses one JSON value occupying all of `text` (surrounding white space allowed), by the
    /// grammar of RFC 8259: strict numbers, `\u` escapes of exactly four hex digits, surrogates only
    /// in pairs, at most 32 levels of nesting. Anything else is a ``JSONSyntaxError``, never a trap.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    func error(_ problem: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, problem: problem) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 32 else { throw error("nested too deeply") }
        skipSpace()
        guard let byte = current else { throw error("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw error("expected \(word)")
        }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected : after a member name") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw error("unexpected end inside an object")
            default: throw error("expected , or } in an object")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            case nil: throw error("unexpected end inside an array")
            default: throw error("expected , or ] in an array")
            }
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(upTo end: Int) {
            if end > runStart { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        }
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                flush(upTo: index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character inside a string (escape it as \\u00XX)") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            flush(upTo: index)
            index += 1
            guard let escape = current else { break }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
            default:
                // The byte quoted as itself only when it is printable: this text reaches terminals.
                let shown = (0x21...0x7E).contains(escape) ? "\\" + String(Character(Unicode.Scalar(escape))) : "\\ followed by byte 0x" + String(escape, radix: 16, uppercase: true)
                throw error("unknown escape \(shown)")
            }
            runStart = index
        }
        throw error("unterminated string")
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), joining a surrogate pair.
    mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let code = try hex4()
        switch code {
        case 0xD800..<0xDC00:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("a high surrogate \\u\(String(code, radix: 16)) must be followed by a low one (\\uDC00…\\uDFFF)")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("a high surrogate must be followed by a low one (\\uDC00…\\uDFFF), not \\u\(String(low, radix: 16))")
            }
            return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00..<0xE000:
            throw error("a low surrogate \\u\(String(code, radix: 16)) without a high one before it")
        default:
            return Unicode.Scalar(code)!
        }
    }

    /// Exactly four hex digits.
    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u needs four hex digits")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }

    /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite.
    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let leadingZero = current == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0 else {
            index = start
            throw error("expected a value")
        }
        if leadingZero, whole > 1 { throw error("a number may not start with 0 (write 1, not 01)") }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit must follow the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("an exponent needs digits") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            throw JSONSyntaxError(offset: start, problem: "number out of range")
        }
        return value
    }
}
