/// Flow collections: `[a, b]` and `{a: 1, b: 2}`, nested at will, over as many lines as they
/// need. A list's entry may be a one-pair mapping (`[a: 1]`); a mapping's key without `:` has an
/// empty value (`{a, b: 1}`).
extension YAMLParser {
    /// The collection at `[` or `{`; returns after its closing bracket.
    mutating func flowCollection() throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        let isList = cursor.peekIs("[")
        let closing: Character = isList ? "]" : "}"
        let closingByte = UInt8(ascii: isList ? "]" : "}")
        cursor.advance()
        let content = try nested { parser throws(YAMLError) -> YAMLNode.Content in
            var items: [YAMLNode] = []
            var builder = YAMLMappingBuilder()
            while true {
                try parser.cursor.skipFlowWhite(closing: closing, openedOn: line)
                if parser.cursor.peek() == closingByte { break }
                let (key, isPlain) = try parser.flowNode()
                try parser.cursor.skipFlowWhite(closing: closing, openedOn: line)
                if parser.cursor.peekIs(":") {
                    parser.cursor.advance()
                    let value = try parser.flowValue(closing: closing, openedOn: line)
                    if isList {
                        var pair = YAMLMappingBuilder()
                        try pair.add(key: key, value: value, isPlainKey: isPlain)
                        items.append(parser.node(.mapping(pair.mapping()), line: key.line))
                    } else {
                        try builder.add(key: key, value: value, isPlainKey: isPlain)
                    }
                } else if isList {
                    items.append(key)
                } else {
                    try builder.add(key: key, value: parser.node(.scalar(""), line: key.line), isPlainKey: isPlain)
                }
                try parser.cursor.skipFlowWhite(closing: closing, openedOn: line)
                if parser.cursor.peekIs(",") {
                    parser.cursor.advance()
                } else if parser.cursor.peek() != closingByte {
                    throw parser.cursor.error("a , or \(closing) is expected at column \(parser.cursor.characterColumn), in the \(isList ? "[" : "{") opened on line \(line); quote a text that holds , [ ] { } or ': '")
                }
            }
            return isList ? .sequence(items) : .mapping(builder.mapping())
        }
        cursor.advance()
        return node(content, line: line)
    }

    /// The value after a `:` in a flow collection; empty before `,` or the closing bracket.
    private mutating func flowValue(closing: Character, openedOn line: Int) throws(YAMLError) -> YAMLNode {
        try cursor.skipFlowWhite(closing: closing, openedOn: line)
        if cursor.peekIs(",") || cursor.peekIs("]") || cursor.peekIs("}") { return emptyNode() }
        return try flowNode().node
    }

    /// One node inside a flow collection; `isPlain` when it is an unquoted text.
    private mutating func flowNode() throws(YAMLError) -> (node: YAMLNode, isPlain: Bool) {
        let anchor = try anchorProperty()
        var isPlain = false
        let node = try anchored(anchor) { parser throws(YAMLError) in
            switch parser.cursor.peek() {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                return try parser.flowCollection()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return try parser.quotedScalar()
            case UInt8(ascii: "*"):
                return try parser.alias()
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard anchor != nil else {
                    throw parser.cursor.error("a value is missing before this \(Character(Unicode.Scalar(parser.cursor.peek()!))) (column \(parser.cursor.characterColumn)); remove the extra comma")
                }
                return parser.emptyNode()
            case UInt8(ascii: "|"), UInt8(ascii: ">"):
                throw parser.cursor.error("block scalars (| and >) cannot stand inside [ ] or { }; quote the text")
            case UInt8(ascii: "?") where parser.cursor.isWhiteOrEnd(1):
                throw parser.cursor.error("explicit keys (? ) are not read here; write key: value")
            case UInt8(ascii: ":") where parser.cursor.isWhiteOrEnd(1):
                throw parser.cursor.error("a key is missing before this ':' (column \(parser.cursor.characterColumn))")
            default:
                isPlain = true
                return try parser.plainScalar(parent: -1, flow: true)
            }
        }
        return (node, isPlain)
    }
}
