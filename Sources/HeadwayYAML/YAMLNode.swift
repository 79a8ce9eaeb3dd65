/// A node of a YAML document as the configuration reader walks it: the text of a scalar (tags
/// are not resolved: the reader decides what a value means), a sequence or a mapping, with the line
/// (1-based) where it starts, for error messages.
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping(YAMLMapping)
    }

    public let content: Content
    public let line: Int

    /// The scalar's text; nil for a sequence or a mapping.
    public var string: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }

    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var mapping: YAMLMapping? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }
}

/// A mapping's pairs in the file's order (no key appears twice: the composer refuses that).
public struct YAMLMapping: Sendable {
    public var pairs: [(key: YAMLNode, value: YAMLNode)] = []

    public var keys: [YAMLNode] { pairs.map(\.key) }

    /// The value of the scalar key `key`.
    public subscript(key: String) -> YAMLNode? {
        pairs.first { $0.key.string == key }?.value
    }
}
