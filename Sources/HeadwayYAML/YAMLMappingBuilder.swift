import HeadwayCore

/// Collects a mapping's pairs in the file's order: keys are texts, each given once, and the merge
/// key `<<` (a plain `<<`, not a quoted one) brings in the pairs of other mappings.
///
/// Merging follows YAML's merge key type: `<<: *defaults` or `<<: [*a, *b]` adds the pairs of
/// those mappings whose keys the mapping does not give itself; of two merged mappings with the
/// same key, the earlier in the list wins. The merged pairs take the place of the `<<` pair.
struct YAMLMappingBuilder {
    private enum Entry {
        case pair(key: YAMLNode, value: YAMLNode)
        case merge([YAMLMapping])
    }

    private var entries: [Entry] = []
    /// The line of each key given, to name both lines of a key given twice.
    private var keyLines: [String: Int] = [:]
    private var mergeLine: Int?

    mutating func add(key: YAMLNode, value: YAMLNode, isPlainKey: Bool) throws(YAMLError) {
        guard let text = key.string else {
            throw YAMLError(line: key.line, message: "a key must be a text, not a list or a mapping; write key: value")
        }
        if isPlainKey, text == "<<" {
            try addMerge(value, line: key.line)
            return
        }
        if let first = keyLines[text] {
            throw Self.givenTwice(text, first: first, again: key.line)
        }
        keyLines[text] = key.line
        entries.append(.pair(key: key, value: value))
    }

    private mutating func addMerge(_ value: YAMLNode, line: Int) throws(YAMLError) {
        if let first = mergeLine { throw Self.givenTwice("<<", first: first, again: line) }
        mergeLine = line
        let refusal = YAMLError(line: line, message: "<< merges a mapping or a list of mappings, like <<: *defaults or <<: [*a, *b]")
        switch value.content {
        case .mapping(let mapping):
            entries.append(.merge([mapping]))
        case .sequence(let items):
            var mappings: [YAMLMapping] = []
            for item in items {
                guard let mapping = item.mapping else { throw refusal }
                mappings.append(mapping)
            }
            entries.append(.merge(mappings))
        case .scalar:
            throw refusal
        }
    }

    /// The pairs, merges resolved.
    func mapping() -> YAMLMapping {
        var given = Set(keyLines.keys)
        var mapping = YAMLMapping()
        for entry in entries {
            switch entry {
            case .pair(let key, let value):
                mapping.pairs.append((key, value))
            case .merge(let sources):
                for pair in sources.lazy.flatMap(\.pairs) {
                    guard let key = pair.key.string, given.insert(key).inserted else { continue }
                    mapping.pairs.append(pair)
                }
            }
        }
        return mapping
    }

    private static func givenTwice(_ key: String, first: Int, again: Int) -> YAMLError {
        YAMLError(
            line: again,
            message: "\"\(DisplayText.sanitised(key))\" appears more than once in the same mapping (lines \(first) and \(again)); give each key once")
    }
}
