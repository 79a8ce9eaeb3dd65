import HeadwayCore

/// Reads the one YAML document of a configuration file into ``YAMLNode``s, in Swift alone (no
/// system library), from YAML 1.2's rules for what configuration files are written with: block
/// and flow collections, plain, quoted and block scalars, comments, anchors, aliases and merge
/// keys (`<<`), `---` and `...` around the document.
///
/// What is refused, each with its line and what to write instead: tags (`!!str`), explicit keys
/// (`? `), keys that are lists or mappings, directives (`%YAML`), a second document, tabs that
/// indent, control characters, keys given twice in one mapping, nesting deeper than
/// ``YAMLParser/maxDepth`` and aliases that repeat more than ``YAMLAnchorTable/maxRepeatedNodes``
/// nodes.
public enum YAMLComposer {
    /// The document in `text`; nil when the text holds no document (empty, or only comments).
    public static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        let bytes = try checkedBytes(text)
        var parser = YAMLParser(YAMLCursor(bytes))
        try parser.cursor.skipBlankLines()
        if parser.cursor.peekIs("%"), parser.cursor.column == 0 {
            throw parser.cursor.error("directives (%YAML, %TAG) are not read; remove the line")
        }
        let root: YAMLNode
        if parser.cursor.atDocumentMarker, parser.cursor.peekIs("-") {
            parser.cursor.advance(3)
            root = try parser.blockValue(parent: -1, listAtParentColumn: false)
        } else if parser.cursor.atEnd || parser.cursor.atDocumentMarker {
            return try endOfStream(&parser.cursor, root: nil)
        } else {
            root = try parser.blockNode(parent: -1)
        }
        return try endOfStream(&parser.cursor, root: root)
    }

    /// After the document: `...` and comments may follow; another document or stray text may not.
    private static func endOfStream(_ cursor: inout YAMLCursor, root: YAMLNode?) throws(YAMLError) -> YAMLNode? {
        if cursor.atDocumentMarker, cursor.peekIs(".") {
            cursor.advance(3)
            try cursor.finishLine()
            try cursor.skipBlankLines()
        }
        guard !cursor.atEnd else { return root }
        if cursor.atDocumentMarker {
            throw cursor.error("a second document (after ---) where one is expected; keep one document per file")
        }
        throw cursor.error("this line does not belong to the document above it; check its indentation (a top-level key starts in the first column)")
    }

    /// The text's bytes with line breaks as "\n" and without a byte order mark; refuses control
    /// characters, which YAML does not allow in a file (an escape in a double-quoted text can
    /// still give one).
    private static func checkedBytes(_ text: String) throws(YAMLError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var line = 1
        var previous: UInt8 = 0
        for byte in text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? text.utf8.dropFirst(3) : text.utf8.dropFirst(0) {
            switch byte {
            case UInt8(ascii: "\n") where previous == UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                bytes.append(YAMLCursor.newline)
                line += 1
            case YAMLCursor.tab:
                bytes.append(byte)
            case 0..<0x20, 0x7F:
                throw YAMLError(line: line, message: "the control character U+\(String(byte, radix: 16, uppercase: true)) is not allowed in YAML; remove it (a double-quoted text may write it as an escape, like \\x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)))")
            default:
                bytes.append(byte)
            }
            previous = byte
        }
        return bytes
    }
}
