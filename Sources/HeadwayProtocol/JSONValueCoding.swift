/// `Codable` values to and from ``JSONValue``, the project's Foundation-free JSON: what the service
/// writes into its state folder (the jobs it keeps through a restart) and reads back. Numbers are
/// doubles (every integer the state holds fits in 53 bits); a value that does not decode is an
/// error with the path to it, never a crash.
package enum JSONValueCoding {
    /// Why a value did not decode: where, and what was found.
    package struct Mismatch: Error, CustomStringConvertible {
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// `value` as JSON.
    package static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: ValueEncoder(node: root, path: []))
        return root.json
    }

    /// A `T` read from `json`.
    package static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: json, path: []))
    }
}

/// What an encoder or a container writes into: a tree whose nodes containers share, made into
/// JSON once the whole value is encoded.
private final class Node {
    enum Kind {
        case value(JSONValue)
        case object([(String, Node)])
        case array([Node])
    }

    var kind = Kind.value(.null)

    var json: JSONValue {
        switch kind {
        case .value(let value): value
        case .object(let members): .object(members.map { ($0.0, $0.1.json) })
        case .array(let items): .array(items.map(\.json))
        }
    }

    /// The member `key`, made (or made again) as an empty node.
    func member(_ key: String) -> Node {
        let child = Node()
        if case .object(var members) = kind {
            members.removeAll { $0.0 == key }
            members.append((key, child))
            kind = .object(members)
        }
        return child
    }

    /// A new last item.
    func item() -> Node {
        let child = Node()
        if case .array(var items) = kind {
            items.append(child)
            kind = .array(items)
        }
        return child
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

// MARK: - Encoding

private struct ValueEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: Node = Node(), path: [any CodingKey]) {
        self.node = node
        codingPath = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else { node.kind = .object([]) }
        return KeyedEncodingContainer(KeyedEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.kind {} else { node.kind = .array([]) }
        return UnkeyedEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleEncoder(node: node, codingPath: codingPath) }
}

private func number(_ value: some BinaryInteger) -> JSONValue { .number(Double(value)) }

private struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, for key: Key) { node.member(key.stringValue).kind = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.number(value), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.number(Double(value)), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(number(value), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(number(value), for: key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        try value.encode(to: ValueEncoder(node: node.member(key.stringValue), path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ValueEncoder(node: node.member(key.stringValue), path: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ValueEncoder(node: node.member(key.stringValue), path: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.member("super"), path: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(node: node.member(key.stringValue), path: codingPath + [key]) }
}

private struct UnkeyedEncoder: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let items) = node.kind { return items.count }
        return 0
    }

    private func next() -> ValueEncoder { ValueEncoder(node: node.item(), path: codingPath + [AnyKey(intValue: count)]) }

    mutating func encodeNil() throws { node.item().kind = .value(.null) }
    mutating func encode(_ value: some Encodable) throws { try value.encode(to: next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleEncoder: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.kind = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.kind = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.kind = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.kind = .value(.number(value)) }
    mutating func encode(_ value: Float) throws { node.kind = .value(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: Int8) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: Int16) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: Int32) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: Int64) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: UInt) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: UInt8) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: UInt16) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: UInt32) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: UInt64) throws { node.kind = .value(number(value)) }
    mutating func encode(_ value: some Encodable) throws { try value.encode(to: ValueEncoder(node: node, path: codingPath)) }
}

// MARK: - Decoding

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let path: [any CodingKey]
    var codingPath: [any CodingKey] { path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object", path) }
        return KeyedDecodingContainer(KeyedDecoder<Key>(members: members, codingPath: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array", path) }
        return UnkeyedDecoder(items: items, codingPath: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleDecoder(value: value, codingPath: path) }
}

private func mismatch(_ wanted: String, _ path: [any CodingKey]) -> JSONValueCoding.Mismatch {
    let place = path.map(\.stringValue).joined(separator: ".")
    return JSONValueCoding.Mismatch(description: "\(place.isEmpty ? "the top" : place): expected \(wanted)")
}

/// The scalars every container reads the same way.
private func scalar<T>(_ value: JSONValue, _ path: [any CodingKey], as type: T.Type) throws -> T {
    switch (type, value) {
    case (is Bool.Type, .bool(let b)): return b as! T
    case (is String.Type, .string(let s)): return s as! T
    case (is Double.Type, .number(let n)): return n as! T
    case (is Float.Type, .number(let n)): return Float(n) as! T
    default: throw mismatch("\(type)", path)
    }
}

private func integer<T: FixedWidthInteger>(_ value: JSONValue, _ path: [any CodingKey], as type: T.Type) throws -> T {
    guard case .number(let n) = value, n == n.rounded(), let exact = T(exactly: n) else { throw mismatch("a whole number (\(type))", path) }
    return exact
}

private struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(String, JSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.0 == key.stringValue } }

    private func value(_ key: Key) throws -> JSONValue {
        guard let found = members.last(where: { $0.0 == key.stringValue }) else { throw mismatch("a member \(key.stringValue)", codingPath) }
        return found.1
    }

    func decodeNil(forKey key: Key) throws -> Bool { (try? value(key)) == .null || !contains(key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(try value(key), codingPath + [key], as: type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(try value(key), codingPath + [key], as: type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(try value(key), codingPath + [key], as: type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: ValueDecoder(value: try value(key), path: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(key), path: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), path: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), path: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: try value(key), path: codingPath + [key]) }
}

private struct UnkeyedDecoder: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else { throw mismatch("another item", codingPath) }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [AnyKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try T(from: ValueDecoder(value: value, path: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, path: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, path: path)
    }
}

private struct SingleDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(value, codingPath, as: type) }
    func decode(_ type: String.Type) throws -> String { try scalar(value, codingPath, as: type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(value, codingPath, as: type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(value, codingPath, as: type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(value, codingPath, as: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, codingPath, as: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, codingPath, as: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, codingPath, as: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, codingPath, as: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(value, codingPath, as: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, codingPath, as: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, codingPath, as: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, codingPath, as: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, codingPath, as: type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: ValueDecoder(value: value, path: codingPath)) }
}
