/// Plain (unquoted) scalars: the text as written, without its type resolved (`12`, `true`, `~`
/// stay texts; the configuration reader decides what a value means). A plain scalar ends before
/// `: ` and ` #`, and inside `[…]` and `{…}` before `,`, `[`, `]`, `{`, `}`; it may go on over
/// lines indented more than its parent, each line break folded into a space (a blank line keeps
/// a line break).
extension YAMLParser {
    /// A plain key: one line.
    mutating func plainKey() throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        try checkPlainStart(flow: false)
        let text = cursor.plainSegment(flow: false)
        return node(.scalar(cursor.text(text)), line: line)
    }

    /// A plain value, over as many lines as go on indented more than `parent` (any lines inside
    /// a flow collection).
    mutating func plainScalar(parent: Int, flow: Bool) throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        try checkPlainStart(flow: flow)
        var text = Array(cursor.bytes[cursor.plainSegment(flow: flow)])
        while let (next, breaks) = continuation(parent: parent, flow: flow) {
            cursor = next
            let segment = cursor.plainSegment(flow: flow)
            if breaks == 0 {
                text.append(YAMLCursor.space)
            } else {
                text += repeatElement(YAMLCursor.newline, count: breaks)
            }
            text += cursor.bytes[segment]
            if !flow, cursor.peekIs(":") {
                throw cursor.error("this line goes on with the text of line \(line), yet holds a key: value; indent it as a key of its own, or quote the text")
            }
        }
        return node(.scalar(String(decoding: text, as: UTF8.self)), line: line)
    }

    /// Where the next line of a plain scalar starts (and how many blank lines come before it), or
    /// nil when the scalar ends on this line.
    private func continuation(parent: Int, flow: Bool) -> (cursor: YAMLCursor, breaks: Int)? {
        var probe = cursor
        probe.skipBlanks()
        guard probe.peek() == YAMLCursor.newline else { return nil }
        probe.advance()
        var breaks = 0
        while true {
            while probe.peek() == YAMLCursor.space { probe.advance() }
            if !flow, probe.isBlank() {
                probe.skipBlanks()
                guard probe.peek() == YAMLCursor.newline else { return nil }  // a tab indents it: skipBlankLines says so
            }
            probe.skipBlanks()
            guard probe.peek() == YAMLCursor.newline else { break }
            probe.advance()
            breaks += 1
        }
        let indent = probe.column
        guard !probe.atEnd, !probe.atLineEnd, !probe.atDocumentMarker, flow || indent > parent else { return nil }
        var segment = probe
        guard !segment.plainSegment(flow: flow).isEmpty else { return nil }
        return (probe, breaks)
    }

    /// Refuses a plain scalar that would start with an indicator.
    private func checkPlainStart(flow: Bool) throws(YAMLError) {
        guard let first = cursor.peek() else { return }
        let character = Character(Unicode.Scalar(first))
        switch character {
        case ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`":
            throw cursor.error("a text cannot start with \(character) here (column \(cursor.characterColumn)); quote the text")
        case "-", "?", ":":
            let next = cursor.peek(1)
            if cursor.isWhiteOrEnd(1) || (flow && next.map(YAMLParser.isFlowIndicator) == true) {
                throw cursor.error("a text cannot start with \"\(character) \" here (column \(cursor.characterColumn)); quote the text, or check the indentation")
            }
        default:
            break
        }
    }

    /// `,` `[` `]` `{` `}`: the characters that end a plain scalar inside a flow collection.
    static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }
}

extension YAMLCursor {
    /// Reads the plain text on this line from here, up to `: `, ` #`, the line's end (and inside
    /// a flow collection, a flow indicator or `:` before one); stops after its last non-blank
    /// character and gives the range of its bytes.
    mutating func plainSegment(flow: Bool) -> Range<Int> {
        let start = index
        var probe = self
        var end = start
        while let byte = probe.peek(), byte != Self.newline {
            if byte == UInt8(ascii: ":"), probe.isWhiteOrEnd(1) || (flow && probe.peek(1).map(YAMLParser.isFlowIndicator) == true) { break }
            if byte == UInt8(ascii: "#"), probe.column == 0 || probe.isBlank(-1) { break }
            if flow, YAMLParser.isFlowIndicator(byte) { break }
            probe.advance()
            if byte != Self.space, byte != Self.tab { end = probe.index }
        }
        advance(end - start)
        return start..<end
    }
}
