/// Node properties (an anchor `&name`; tags are refused) and aliases (`*name`).
extension YAMLParser {
    /// Reads the anchor before a node, if any, and the white space after it; refuses tags.
    mutating func anchorProperty() throws(YAMLError) -> String? {
        if cursor.peekIs("!") {
            throw cursor.error("tags (!, !!str …) are not read here; remove the tag (quote the value to keep it a text)")
        }
        guard cursor.peekIs("&") else { return nil }
        cursor.advance()
        let name = try anchorName("&")
        try anchors.open(name, line: cursor.line)
        cursor.skipBlanks()
        if cursor.peekIs("!") || cursor.peekIs("&") {
            throw cursor.error("a node has one anchor and no tag here; remove the second property")
        }
        return name
    }

    /// Reads the node after an anchor (or none) with `read`, and keeps it under that anchor.
    mutating func anchored(_ anchor: String?, _ read: (inout YAMLParser) throws(YAMLError) -> YAMLNode) throws(YAMLError) -> YAMLNode {
        let before = nodeCount
        let node = try read(&self)
        if let anchor { anchors.define(anchor, as: node, nodeCount: nodeCount - before) }
        return node
    }

    /// Reads `*name` and gives the node its anchor names.
    mutating func alias() throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        cursor.advance()
        let name = try anchorName("*")
        let (node, count) = try anchors.resolve(name, line: line)
        countRepeated(count)
        return node
    }

    /// An anchor's or alias's name: letters, digits, `-` and `_` (the names every YAML reader takes).
    private mutating func anchorName(_ indicator: String) throws(YAMLError) -> String {
        let start = cursor.index
        while let byte = cursor.peek(), Self.isNameByte(byte) { cursor.advance() }
        guard cursor.index > start else {
            throw cursor.error("\(indicator) must be followed by a name (letters, digits, - and _); quote a text that starts with \(indicator)")
        }
        let ends = cursor.isWhiteOrEnd() || cursor.peekIs(":") || cursor.peekIs(",") || cursor.peekIs("]") || cursor.peekIs("}")
        guard ends else {
            throw cursor.error("the name after \(indicator) has a character a name cannot have (column \(cursor.characterColumn)); names are letters, digits, - and _")
        }
        return cursor.text(start..<cursor.index)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
