import HeadwayProtocol

/// Reading an API's JSON answer: the body must be UTF-8 JSON (the protocol's own parser, which
/// refuses what it does not know and never traps), and members are read by what they must be.
enum JSONBody {
    static func parse(_ body: [UInt8], from source: String) throws(SourceError) -> JSONValue {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw SourceError("\(source) answered with text that is not UTF-8; is the address its API's?")
        }
        do {
            return try JSONValue.parse(text)
        } catch {
            throw SourceError("\(source) answered with something that is not the JSON expected (\(error.description)); is the address its API's?")
        }
    }
}

extension JSONValue {
    var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }

    /// A whole number (ids, counts, run numbers) within ±2⁵³.
    var integer: Int? {
        guard let number, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    /// An id as text: a whole number, or a string.
    var idText: String? { integer.map(String.init) ?? string }
}
