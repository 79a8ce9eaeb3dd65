/// A position in a YAML text, kept as UTF-8 bytes (every YAML indicator is ASCII), with its line
/// and the lexical steps the reader's parts share: white space, comments, line ends, blank lines.
///
/// Line breaks are "\n" only: the composer turns "\r\n" and a lone "\r" into "\n" first.
struct YAMLCursor {
    static let newline = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    let bytes: [UInt8]
    private(set) var index = 0
    /// 1-based.
    private(set) var line = 1
    private var lineStart = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bytes since the start of the line: the indentation, when only spaces precede.
    var column: Int { index - lineStart }
    var atEnd: Bool { index >= bytes.count }

    func peek(_ offset: Int = 0) -> UInt8? {
        bytes.indices.contains(index + offset) ? bytes[index + offset] : nil
    }

    func peekIs(_ character: Unicode.Scalar, _ offset: Int = 0) -> Bool {
        peek(offset) == UInt8(ascii: character)
    }

    /// A space or a tab.
    func isBlank(_ offset: Int = 0) -> Bool {
        peek(offset) == Self.space || peek(offset) == Self.tab
    }

    /// Blank, a line break or the end of the text: what must follow `-`, `:` and `?` as indicators.
    func isWhiteOrEnd(_ offset: Int = 0) -> Bool {
        guard let byte = peek(offset) else { return true }
        return byte == Self.space || byte == Self.tab || byte == Self.newline
    }

    /// At a line break or the end of the text.
    var atLineBreak: Bool { peek() == nil || peek() == Self.newline }

    /// At a line break, the end, or a comment (a `#` after white space or at the line's start).
    var atLineEnd: Bool { atLineBreak || (peekIs("#") && (column == 0 || isBlank(-1))) }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < bytes.count {
            if bytes[index] == Self.newline {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
    }

    mutating func skipBlanks() {
        while isBlank() { advance() }
    }

    /// The text of `bytes[range]`.
    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The 1-based column in characters (not bytes), for messages.
    var characterColumn: Int { text(lineStart..<index).count + 1 }

    func error(_ message: String, line: Int? = nil) -> YAMLError {
        YAMLError(line: line ?? self.line, message: message)
    }

    /// At `---` or `...` in the first column followed by white space: a document's start or end.
    var atDocumentMarker: Bool {
        guard column == 0, let first = peek(), first == UInt8(ascii: "-") || first == UInt8(ascii: ".") else { return false }
        return peek(1) == first && peek(2) == first && isWhiteOrEnd(3)
    }

    /// Ends the line a node ended on: only white space and a comment may follow it. The cursor
    /// moves to the next line's start.
    mutating func finishLine() throws(YAMLError) {
        skipBlanks()
        guard atLineEnd else {
            if peekIs(":") {
                throw error("a ':' follows this value on the same line (column \(characterColumn)); a mapping cannot start on the line of its key: put it on the next lines, indented, or quote the text if ':' belongs to it")
            }
            throw error("unexpected text at column \(characterColumn) after the value; quote the whole value if this belongs to it")
        }
        while !atLineBreak { advance() }
        advance()
    }

    /// From a line's start, passes blank and comment lines and stops at the first character of the
    /// next line with content (its column is that line's indentation), or at the end.
    mutating func skipBlankLines() throws(YAMLError) {
        while !atEnd {
            while peek() == Self.space { advance() }
            if isBlank() {
                skipBlanks()
                if !atLineEnd {
                    throw error("a tab indents this line; YAML indents with spaces (replace the tab with spaces)")
                }
            }
            guard atLineEnd else { return }
            while !atLineBreak { advance() }
            advance()
        }
    }

    /// Passes white space, line breaks and comments between the parts of a flow collection
    /// (`[…]`, `{…}`); a document marker there means a bracket was never closed.
    mutating func skipFlowWhite(closing: Character, openedOn line: Int) throws(YAMLError) {
        while !atEnd {
            if isBlank() || peek() == Self.newline {
                advance()
                if column == 0, atDocumentMarker { break }
            } else if atLineEnd {
                while !atLineBreak { advance() }
            } else {
                return
            }
        }
        throw error("the \(closing == "]" ? "[" : "{") opened on line \(line) is never closed; add \(closing)", line: line)
    }
}
