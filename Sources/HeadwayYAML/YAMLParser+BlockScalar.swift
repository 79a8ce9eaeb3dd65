/// Block scalars: `|` keeps the lines as written (literal), `>` folds them (a line break between
/// two lines of text becomes a space; blank lines and lines indented more than the rest keep
/// theirs). The header may give the chomping (`-` drops the final line breaks, `+` keeps them all,
/// neither keeps one) and the indentation (a digit, counted from the parent's); without it the
/// first line with text sets the indentation.
extension YAMLParser {
    private enum Chomping { case strip, clip, keep }

    /// Returns with the cursor at the start of the first line after the scalar.
    mutating func blockScalar(parent: Int) throws(YAMLError) -> YAMLNode {
        let line = cursor.line
        let folded = cursor.peekIs(">")
        cursor.advance()
        var chomping = Chomping.clip
        var explicitIndent: Int?
        for _ in 0..<2 {
            if chomping == .clip, cursor.peekIs("-") || cursor.peekIs("+") {
                chomping = cursor.peekIs("-") ? .strip : .keep
            } else if explicitIndent == nil, let byte = cursor.peek(), (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) {
                explicitIndent = Int(byte - UInt8(ascii: "0"))
            } else {
                break
            }
            cursor.advance()
        }
        guard cursor.isWhiteOrEnd() else {
            throw cursor.error("after \(folded ? ">" : "|") only a chomping indicator (- or +) and an indentation digit (1–9) may follow, then the text on the next lines (column \(cursor.characterColumn))")
        }
        try cursor.finishLine()
        let lowest = max(parent + 1, 1)
        let indent = explicitIndent.map { max(parent, 0) + $0 } ?? detectedIndent(atLeast: lowest)
        let lines = scalarLines(indent: indent)
        var text = folded ? Self.fold(lines.text) : lines.text.joined(separator: "\n")
        switch chomping {
        case .strip:
            break
        case .clip:
            if !lines.text.isEmpty, lines.endsWithBreak { text += "\n" }
        case .keep:
            if !lines.text.isEmpty, lines.endsWithBreak { text += "\n" }
            text += String(repeating: "\n", count: lines.trailingBlankLines)
        }
        return node(.scalar(text), line: line)
    }

    /// The indentation of the scalar's text: that of its first line with text, or of its deepest
    /// blank line before that, and at least `lowest`.
    private func detectedIndent(atLeast lowest: Int) -> Int {
        var probe = cursor
        var deepest = 0
        while !probe.atEnd {
            while probe.peek() == YAMLCursor.space { probe.advance() }
            deepest = max(deepest, probe.column)
            guard probe.peek() == YAMLCursor.newline else { break }
            probe.advance()
        }
        return max(deepest, lowest)
    }

    /// The scalar's lines (from the first with text to the last, without their indentation), whether
    /// a line break ends the last one, and the blank lines after it. The scalar ends before the first
    /// line with text indented less than `indent`.
    private mutating func scalarLines(indent: Int) -> (text: [String], endsWithBreak: Bool, trailingBlankLines: Int) {
        var lines: [String] = []
        var blankLines = 0
        var endsWithBreak = false
        while !cursor.atEnd {
            var probe = cursor
            while probe.peek() == YAMLCursor.space, probe.column < indent { probe.advance() }
            if probe.peek() == YAMLCursor.newline {
                blankLines += 1
                probe.advance()
                cursor = probe
                continue
            }
            guard probe.column == indent, !probe.atEnd else { break }
            cursor = probe
            let start = cursor.index
            while !cursor.atLineBreak { cursor.advance() }
            lines += repeatElement("", count: blankLines)
            blankLines = 0
            lines.append(cursor.text(start..<cursor.index))
            endsWithBreak = !cursor.atEnd
            cursor.advance()
        }
        // Blank lines before the first line with text belong to the text.
        if lines.isEmpty { return ([], false, blankLines) }
        return (lines, endsWithBreak, blankLines)
    }

    /// Folds a `>` scalar's lines: lines of text next to each other join with a space; blank lines
    /// stay line breaks; the breaks around a line that starts with white space stay.
    private static func fold(_ lines: [String]) -> String {
        var text = ""
        var previous: String?
        var blankLines = 0
        for line in lines {
            if line.isEmpty {
                blankLines += 1
                continue
            }
            if let previous {
                let joins = !previous.hasPrefix(" ") && !previous.hasPrefix("\t") && !line.hasPrefix(" ") && !line.hasPrefix("\t")
                if joins, blankLines == 0 {
                    text += " "
                } else {
                    text += String(repeating: "\n", count: joins ? blankLines : blankLines + 1)
                }
            } else {
                text += String(repeating: "\n", count: blankLines)
            }
            text += line
            previous = line
            blankLines = 0
        }
        return text
    }
}
