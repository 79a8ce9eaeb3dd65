/// Block collections, laid out by indentation: a mapping's keys share a column, a list's `-`
/// share a column, and a node belongs to the key or `-` above it when it is indented more (a
/// list may stand at its key's own column, `key:` then `- item`).
///
/// Every function here returns with the cursor at the first character of the next line with
/// content (its column is that line's indentation), or at the end of the text.
extension YAMLParser {
    /// The node at the cursor, at the start of a line's content or after `- `: a list, a mapping
    /// (when a `key:` starts here) or a value. `parent` is the indentation of the collection
    /// around it (-1 at the top).
    mutating func blockNode(parent: Int) throws(YAMLError) -> YAMLNode {
        if startsListItem {
            return try blockSequence(indent: cursor.column, itemsOnly: true)
        }
        if cursor.peekIs("?"), cursor.isWhiteOrEnd(1) {
            throw cursor.error("explicit keys (? ) are not read here; write key: value on one line")
        }
        if keyAhead() { return try blockMapping(indent: cursor.column) }
        return try blockValue(parent: parent, listAtParentColumn: false)
    }

    /// The value after `key:`, `- ` or `---` on the same line, or on the lines below it when this
    /// line ends here. `listAtParentColumn`: a list may stand at the parent's own column (a key's
    /// value).
    mutating func blockValue(parent: Int, listAtParentColumn: Bool) throws(YAMLError) -> YAMLNode {
        cursor.skipBlanks()
        let anchor = try anchorProperty()
        return try anchored(anchor) { parser throws(YAMLError) in
            guard parser.cursor.atLineEnd else { return try parser.inlineValue(parent: parent) }
            let line = parser.cursor.line
            try parser.cursor.finishLine()
            return try parser.nodeBelow(parent: parent, listAtParentColumn: listAtParentColumn, emptyOn: line)
        }
    }

    /// The node that starts on a later line, or an empty scalar (on line `emptyOn`, the line of its
    /// key or `-`) when none is indented under the parent.
    private mutating func nodeBelow(parent: Int, listAtParentColumn: Bool, emptyOn line: Int) throws(YAMLError) -> YAMLNode {
        try cursor.skipBlankLines()
        guard !cursor.atEnd, !cursor.atDocumentMarker else { return node(.scalar(""), line: line) }
        if cursor.column > parent { return try blockNode(parent: parent) }
        if listAtParentColumn, cursor.column == parent, startsListItem {
            return try blockSequence(indent: parent, itemsOnly: false)
        }
        return node(.scalar(""), line: line)
    }

    /// A value that starts on the line of its key or `-`: a block scalar, a flow collection, a
    /// quoted or plain scalar, or an alias.
    private mutating func inlineValue(parent: Int) throws(YAMLError) -> YAMLNode {
        switch cursor.peek() {
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            let scalar = try blockScalar(parent: parent)
            try cursor.skipBlankLines()
            return scalar
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let collection = try flowCollection()
            try endLine()
            return collection
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let scalar = try quotedScalar()
            try endLine()
            return scalar
        case UInt8(ascii: "*"):
            let alias = try alias()
            try endLine()
            return alias
        default:
            if startsListItem {
                throw cursor.error("a list cannot start on the line of its key; put each - item on a line of its own below the key")
            }
            if cursor.peekIs("?"), cursor.isWhiteOrEnd(1) {
                throw cursor.error("explicit keys (? ) are not read here; write key: value on one line")
            }
            let scalar = try plainScalar(parent: parent, flow: false)
            try endLine()
            return scalar
        }
    }

    /// After a value: the rest of its line, then blank lines.
    private mutating func endLine() throws(YAMLError) {
        try cursor.finishLine()
        try cursor.skipBlankLines()
    }

    /// At `-` followed by white space.
    private var startsListItem: Bool { cursor.peekIs("-") && cursor.isWhiteOrEnd(1) }

    /// A list whose `-` stand at `indent`. `itemsOnly`: nothing but items may follow at this
    /// column (false for a list at its key's column, which the next key ends).
    private mutating func blockSequence(indent: Int, itemsOnly: Bool) throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        let items = try nested { parser throws(YAMLError) in
            var items: [YAMLNode] = []
            while true {
                parser.cursor.advance()
                items.append(try parser.listItem(dash: indent))
                guard !parser.cursor.atEnd, !parser.cursor.atDocumentMarker, parser.cursor.column >= indent else { break }
                if parser.cursor.column > indent {
                    throw parser.cursor.error("this line is indented \(parser.cursor.column) spaces, more than the - items of the list on line \(line) (\(indent)); line it up with them")
                }
                guard parser.startsListItem else {
                    if itemsOnly {
                        throw parser.cursor.error("a - item is expected here, in the list that starts on line \(line); indent a key more than the - above it")
                    }
                    break
                }
            }
            return items
        }
        return node(.sequence(items), line: line)
    }

    /// What follows a `-` at column `dash`.
    private mutating func listItem(dash: Int) throws(YAMLError) -> YAMLNode {
        cursor.skipBlanks()
        if cursor.atLineEnd {
            let line = cursor.line
            try cursor.finishLine()
            return try nodeBelow(parent: dash, listAtParentColumn: false, emptyOn: line)
        }
        return try blockNode(parent: dash)
    }

    /// A mapping whose keys stand at `indent`; the cursor is at its first key.
    private mutating func blockMapping(indent: Int) throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        let mapping = try nested { parser throws(YAMLError) in
            var builder = YAMLMappingBuilder()
            while true {
                if parser.startsListItem {
                    throw parser.cursor.error("a - item stands among the keys of the mapping that starts on line \(line); indent the list under a key")
                }
                let (key, isPlain) = try parser.blockKey()
                let value = try parser.blockValue(parent: indent, listAtParentColumn: true)
                try builder.add(key: key, value: value, isPlainKey: isPlain)
                guard !parser.cursor.atEnd, !parser.cursor.atDocumentMarker, parser.cursor.column >= indent else { break }
                if parser.cursor.column > indent {
                    throw parser.cursor.error("this line is indented \(parser.cursor.column) spaces, more than the keys of the mapping on line \(line) (\(indent)); line it up with them, or put it under a key that has no value on its line")
                }
            }
            return builder.mapping()
        }
        return node(.mapping(mapping), line: line)
    }

    /// A key and its `:`, on one line; `isPlain` when the key is an unquoted text (only a plain
    /// `<<` merges).
    private mutating func blockKey() throws(YAMLError) -> (key: YAMLNode, isPlain: Bool) {
        let anchor = try anchorProperty()
        var isPlain = false
        let key = try anchored(anchor) { parser throws(YAMLError) in
            switch parser.cursor.peek() {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return try parser.quotedScalar()
            case UInt8(ascii: "*"):
                return try parser.alias()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                throw parser.cursor.error("a key must be a text, not a list or a mapping; write key: value")
            case UInt8(ascii: "?") where parser.cursor.isWhiteOrEnd(1):
                throw parser.cursor.error("explicit keys (? ) are not read here; write key: value on one line")
            default:
                isPlain = true
                return try parser.plainKey()
            }
        }
        cursor.skipBlanks()
        guard cursor.peekIs(":"), cursor.isWhiteOrEnd(1) else {
            throw cursor.error("a key: value is expected here, in a mapping; add ':' after the key (and a space before the value), or check the indentation")
        }
        cursor.advance()
        return (key, isPlain)
    }

    /// Whether the line from the cursor starts with an implicit key: a text (plain or quoted, on
    /// this line) or an alias, followed by `:` and white space. Reads ahead without moving.
    func keyAhead() -> Bool {
        var probe = cursor
        while probe.peekIs("&") || probe.peekIs("!") {
            while !probe.isWhiteOrEnd() { probe.advance() }
            probe.skipBlanks()
        }
        switch probe.peek() {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let quote = probe.peek()
            let line = probe.line
            probe.advance()
            while let byte = probe.peek(), byte != YAMLCursor.newline {
                if byte == quote {
                    guard quote == UInt8(ascii: "'"), probe.peekIs("'", 1) else { break }
                    probe.advance()
                } else if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                    probe.advance()
                }
                probe.advance()
            }
            guard probe.peek() == quote, probe.line == line else { return false }
            probe.advance()
        case UInt8(ascii: "*"):
            while !probe.isWhiteOrEnd(), !probe.peekIs(":") { probe.advance() }
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "#"), nil:
            return false
        default:
            while !probe.atLineEnd {
                if probe.peekIs(":"), probe.isWhiteOrEnd(1) { return true }
                probe.advance()
            }
            return false
        }
        probe.skipBlanks()
        return probe.peekIs(":") && probe.isWhiteOrEnd(1)
    }
}
