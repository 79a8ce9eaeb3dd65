import HeadwayCore

/// Random YAML documents made of the forms configuration files are written with, for the oracle
/// test: block mappings and lists (a list at its key's column or indented, `- key: value` items),
/// flow collections, plain, quoted, multi-line and block scalars, comments, anchors, aliases and
/// merge keys. The same seed gives the same documents.
struct YAMLCorpus {
    static func documents(count: Int, seed: UInt64) -> [String] {
        var corpus = YAMLCorpus(seed: seed)
        return (0..<count).map { _ in corpus.document() }
    }

    private var random: SeededRandom
    private var anchors: [String] = []
    private var mappingAnchors: [String] = []
    private var nextAnchor = 0

    private init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private mutating func next() -> UInt64 { random.next() }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    private static let words = ["ring", "strip", "ws2812", "i2c-1", "0x3C", "24", "-3", "3.5", "1e3", "true", "no", "~", "null",
                                "café", "日本", "Tom & Jerry", "a#b", "50%", "x-y_z", "spi0.0", "/dev/leds0", "a*b", "a&b"]
    /// Plain texts that only block context takes as they are (flow ends a plain text at , [ ] { }).
    private static let blockOnlyWords = ["12:30", "http://example.org/a?b=1", "a,b", "x[1]", "{not flow}", "key:value"]
    private static let singleQuoted = ["'it''s'", "'a: b'", "'# no comment'", "'  spaced  '", "'[x, y]'", "''", "'*star'"]
    private static let doubleQuoted = [#""line\nbreak""#, #""tab\there""#, #""\"quoted\"""#, #""back\\slash""#, #""\x41\u00e9\U0001F600""#,
                                       #""\e[31m\0""#, #""a\ b""#, #""\_\N""#, "\"\"", ##""#ffaa00""##, ##""a: b # c""##]
    private static let keys = ["name", "driver", "bus", "count", "layout", "start", "lines", "colour", "size", "Key With Spaces", "x1", "δ"]

    private mutating func document() -> String {
        anchors = []
        mappingAnchors = []
        var text = chance(20) ? "# a generated document\n" : ""
        if chance(25) { text += "---\n" }
        switch below(10) {
        case 0: text += blockSequence(indent: 0, depth: 0)
        case 1: text += inlineScalar(flow: false) + "\n"
        case 2: text += flowCollection(depth: 0, indent: 0) + "\n"
        default: text += blockMapping(indent: 0, depth: 0)
        }
        if chance(15) { text += "...\n" }
        if chance(15) { text += "\n# the end\n" }
        return text
    }

    private static func pad(_ indent: Int) -> String { String(repeating: " ", count: indent) }

    private mutating func comment() -> String { chance(20) ? " # note: \(below(100))" : "" }

    private mutating func anchor() -> (String, String)? {
        guard chance(15) else { return nil }
        nextAnchor += 1
        return ("a\(nextAnchor)", "&a\(nextAnchor) ")
    }

    private mutating func define(_ anchor: (String, String)?, mapping: Bool) {
        guard let (name, _) = anchor else { return }
        anchors.append(name)
        if mapping { mappingAnchors.append(name) }
    }

    private mutating func inlineScalar(flow: Bool) -> String {
        switch below(flow ? 7 : 8) {
        case 0: return pick(Self.singleQuoted)
        case 1: return pick(Self.doubleQuoted)
        case 2 where !flow: return pick(Self.blockOnlyWords)
        default: return pick(Self.words)
        }
    }

    /// A mapping's lines at `indent`, each ending with a line break.
    private mutating func blockMapping(indent: Int, depth: Int) -> String {
        var text = ""
        if !mappingAnchors.isEmpty, chance(30) {
            let first = pick(mappingAnchors), second = pick(mappingAnchors)
            text += Self.pad(indent) + (first == second ? "<<: *\(first)\n" : "<<: [*\(first), *\(second)]\n")
        }
        var used: Set<String> = []
        for _ in 0..<(1 + below(4)) {
            let key = pick(Self.keys)
            guard used.insert(key).inserted else { continue }
            // Blank and comment lines only between keys: a `- key:` item's first key is on the `-` line.
            if !text.isEmpty, chance(10) { text += "\n" }
            if !text.isEmpty, chance(10) { text += Self.pad(indent) + "# about \(key)\n" }
            let written = chance(15) ? "\"\(key)\"" : key
            text += Self.pad(indent) + written + ":" + value(indent: indent, depth: depth, listAtKeyColumn: true)
        }
        return text
    }

    /// A list's lines at `indent`.
    private mutating func blockSequence(indent: Int, depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + below(4)) {
            if depth < 3, chance(25) {
                let lines = blockMapping(indent: indent + 2, depth: depth + 1)
                text += Self.pad(indent) + "- " + lines.dropFirst(indent + 2)
            } else {
                text += Self.pad(indent) + "-" + value(indent: indent, depth: depth, listAtKeyColumn: false)
            }
        }
        return text
    }

    /// What follows `key:` or `-` (whose column is `indent`): from a space and a value to the line
    /// break, or a line break and the lines of a nested node.
    private mutating func value(indent: Int, depth: Int, listAtKeyColumn: Bool) -> String {
        let anchor = self.anchor()
        let property = anchor.map { " " + $0.1.dropLast() } ?? ""
        let text: String
        var isMapping = false
        switch below(depth < 3 ? 12 : 7) {
        case 0:
            guard !anchors.isEmpty else { fallthrough }
            return " *\(pick(anchors))" + comment() + "\n"
        case 1:
            text = property + (chance(50) ? "\n" : " # empty\n")
        case 2:
            text = property + " " + multiLineScalar(indent: indent)
        case 3:
            text = property + " " + blockScalar(indent: indent)
        case 4:
            text = property + " " + flowCollection(depth: depth, indent: indent) + comment() + "\n"
        case 7, 8:
            isMapping = true
            text = property + comment() + "\n" + blockMapping(indent: indent + 2, depth: depth + 1)
        case 9, 10:
            text = property + "\n" + blockSequence(indent: listAtKeyColumn && chance(50) ? indent : indent + 2, depth: depth + 1)
        case 11:
            isMapping = true
            text = property + " " + flowMapping(depth: depth, indent: indent) + "\n"
        default:
            text = property + " " + inlineScalar(flow: false) + comment() + "\n"
        }
        define(anchor, mapping: isMapping)
        return text
    }

    /// A plain, single- or double-quoted text over several lines, indented under its parent.
    private mutating func multiLineScalar(indent: Int) -> String {
        let continuation = "\n" + (chance(30) ? "\n" : "") + Self.pad(indent + 2 + below(3))
        switch below(3) {
        case 0: return "first words" + continuation + "then more" + continuation + "end" + "\n"
        case 1: return "'single" + continuation + "quoted'' text'\n"
        default: return "\"double" + continuation + "quoted \\t" + (chance(50) ? "\\" : "") + continuation + "text\"\n"
        }
    }

    /// `|` or `>` with its lines (some more indented, some blank) under `indent`.
    private mutating func blockScalar(indent: Int) -> String {
        let moreIndentedFirst = chance(20)
        var header = pick(["|", ">"]) + pick(["", "-", "+"])
        if moreIndentedFirst { header += "2" }
        var text = header + comment() + "\n"
        let pad = Self.pad(indent + 2)
        for line in 0..<(1 + below(5)) {
            if line > 0, chance(20) { text += "\n" }
            let deeper = line == 0 ? moreIndentedFirst : chance(15)
            text += pad + (deeper ? "  " : "") + pick(["text", "more text", "# not a comment", "a: b", "- item", "tab\there"]) + "\n"
        }
        if chance(30) { text += "\n" }
        return text
    }

    private mutating func flowCollection(depth: Int, indent: Int) -> String {
        chance(60) ? flowSequence(depth: depth, indent: indent) : flowMapping(depth: depth, indent: indent)
    }

    private mutating func separator(indent: Int) -> String {
        chance(10) ? "\n" + Self.pad(indent + 1 + below(4)) : pick([" ", "", "  "])
    }

    private mutating func flowItem(depth: Int, indent: Int) -> String {
        if depth < 4, chance(20) { return flowCollection(depth: depth + 1, indent: indent) }
        if !anchors.isEmpty, chance(10) { return "*\(pick(anchors))" }
        return inlineScalar(flow: true)
    }

    private mutating func flowSequence(depth: Int, indent: Int) -> String {
        let items = (0..<below(4)).map { _ in separator(indent: indent) + flowItem(depth: depth, indent: indent) }
        return "[" + items.joined(separator: ",") + (chance(20) && !items.isEmpty ? "," : "") + separator(indent: indent) + "]"
    }

    private mutating func flowMapping(depth: Int, indent: Int) -> String {
        var used: Set<String> = []
        var pairs: [String] = []
        for _ in 0..<below(4) {
            let key = pick(Self.keys)
            guard used.insert(key).inserted else { continue }
            pairs.append(separator(indent: indent) + key + (chance(10) ? "" : ":" + " " + flowItem(depth: depth, indent: indent)))
        }
        return "{" + pairs.joined(separator: ",") + separator(indent: indent) + "}"
    }
}
