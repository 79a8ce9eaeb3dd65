/// A JSON value, parsed and printed without Foundation (the client must start in milliseconds).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
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

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// Compact JSON text, members in the order given.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
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
    public let offset: Int
    public let problem: String
    public var description: String { "not valid JSON at byte \(offset): \(problem)" }
}

extension JSONValue {
    /// Parses one JSON value occupying all of `text` (surrounding white space allowed).
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

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 32 else { throw error("nested too deeply") }
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected \(word)")
        }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected : after \"\(key)\"") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected , or } in an object")
        }
    }

    mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected , or ] in an array")
        }
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) {
            if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                flush(&run, into: &scalars)
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character inside a string") }
            if byte == UInt8(ascii: "\\") {
                flush(&run, into: &scalars)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
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
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default: throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                continue
            }
            run.append(byte)
            index += 1
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw error("\\u needs four hex digits")
        }
        index += 4
        return code
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
        guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            index = start
            throw error("expected a value")
        }
        return value
    }
}
