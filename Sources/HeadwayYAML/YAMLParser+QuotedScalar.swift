/// Single-quoted (`'…'`, where `''` is a quote) and double-quoted (`"…"`, with backslash escapes)
/// scalars. Either may go on over lines: a line break and the white space around it fold into a
/// space, and each blank line keeps a line break.
extension YAMLParser {
    mutating func quotedScalar() throws(YAMLError) -> YAMLNode {
        let opening = cursor
        let quote = cursor.peek()!
        let isDouble = quote == UInt8(ascii: "\"")
        cursor.advance()
        var text: [UInt8] = []
        while true {
            guard let byte = cursor.peek() else { throw Self.unclosed(opening) }
            switch byte {
            case quote:
                cursor.advance()
                guard !isDouble, cursor.peekIs("'") else { return node(.scalar(String(decoding: text, as: UTF8.self)), line: opening.line) }
                text.append(byte)
                cursor.advance()
            case UInt8(ascii: "\\") where isDouble:
                try escape(into: &text, opening: opening)
            case YAMLCursor.space, YAMLCursor.tab:
                let start = cursor.index
                cursor.skipBlanks()
                if cursor.peek() != YAMLCursor.newline { text += cursor.bytes[start..<cursor.index] }
            case YAMLCursor.newline:
                let breaks = try lineBreaks(opening)
                if breaks == 0 {
                    text.append(YAMLCursor.space)
                } else {
                    text += repeatElement(YAMLCursor.newline, count: breaks)
                }
            default:
                text.append(byte)
                cursor.advance()
            }
        }
    }

    /// Passes a line break inside the quoted scalar opened at `opening`, the blank lines after it
    /// and the next line's leading white space; gives the number of blank lines.
    private mutating func lineBreaks(_ opening: YAMLCursor) throws(YAMLError) -> Int {
        var breaks = 0
        cursor.advance()
        while true {
            if cursor.atDocumentMarker {
                let unclosed = Self.unclosed(opening)
                throw YAMLError(line: unclosed.line, message: "a document marker (--- or ...) inside a quoted text: " + unclosed.message)
            }
            cursor.skipBlanks()
            guard cursor.peek() == YAMLCursor.newline else { break }
            cursor.advance()
            breaks += 1
        }
        if cursor.atEnd { throw Self.unclosed(opening) }
        return breaks
    }

    private static func unclosed(_ opening: YAMLCursor) -> YAMLError {
        let quote = opening.peekIs("\"") ? "\"" : "'"
        return opening.error("the \(quote) opened on line \(opening.line) (column \(opening.characterColumn)) is never closed; close the text with \(quote)")
    }

    /// Reads one backslash escape of the double-quoted scalar opened at `opening`.
    private mutating func escape(into text: inout [UInt8], opening: YAMLCursor) throws(YAMLError) {
        cursor.advance()
        guard let byte = cursor.peek() else { return }
        if byte == YAMLCursor.newline {
            // An escaped line break joins the lines without a space.
            let breaks = try lineBreaks(opening)
            text += repeatElement(YAMLCursor.newline, count: breaks)
            return
        }
        cursor.advance()
        let character = Character(Unicode.Scalar(byte))
        let scalar: Unicode.Scalar
        switch character {
        case "0": scalar = "\u{0}"
        case "a": scalar = "\u{7}"
        case "b": scalar = "\u{8}"
        case "t", "\t": scalar = "\t"
        case "n": scalar = "\n"
        case "v": scalar = "\u{B}"
        case "f": scalar = "\u{C}"
        case "r": scalar = "\r"
        case "e": scalar = "\u{1B}"
        case " ", "\"", "/", "\\": scalar = Unicode.Scalar(byte)
        case "N": scalar = "\u{85}"
        case "_": scalar = "\u{A0}"
        case "L": scalar = "\u{2028}"
        case "P": scalar = "\u{2029}"
        case "x": scalar = try hexEscape(digits: 2, character)
        case "u": scalar = try hexEscape(digits: 4, character)
        case "U": scalar = try hexEscape(digits: 8, character)
        default:
            throw cursor.error("\\\(Self.shown(character)) is not an escape (column \(cursor.characterColumn - 2)); write \\\\ for a backslash, or use single quotes")
        }
        text += Array(String(Character(scalar)).utf8)
    }

    /// The character `\x`, `\u` or `\U` with `digits` hexadecimal digits names.
    private mutating func hexEscape(digits: Int, _ letter: Character) throws(YAMLError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = cursor.peek(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw cursor.error("\\\(letter) takes \(digits) hexadecimal digits (column \(cursor.characterColumn)), like \\\(letter)\(String(repeating: "0", count: digits - 2))41")
            }
            value = value << 4 | UInt32(digit)
            cursor.advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw cursor.error("\\\(letter) names \(value), which is not a Unicode character")
        }
        return scalar
    }

    /// A character for a message: printable ASCII as itself, anything else by its code.
    private static func shown(_ character: Character) -> String {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x20, scalar.value < 0x7F else {
            return "U+" + String(character.unicodeScalars.first?.value ?? 0, radix: 16, uppercase: true)
        }
        return String(character)
    }
}
