/// Finds YAML anchors and aliases (`&name`, `*name`) in a configuration's text before it is parsed.
///
/// Aliases make YAML a compression format: a few hundred bytes of nested aliases expand to a tree
/// that takes minutes to compare or walk (the "billion laughs"). Headway's configuration never needs
/// them, so they are refused outright. The scan follows YAML's lexical rules as far as they decide
/// where a node starts: indentation, `- `, `? `, `: `, flow brackets and commas, tags; it skips
/// quoted scalars, comments and block scalars (`|`, `>`).
enum YAMLAnchors {
    /// The first line (1-based) that holds an anchor or an alias, if any.
    static func firstLine(in text: String) -> Int? {
        var blockIndent: Int?  // inside a block scalar: lines more indented than this are its text
        var quote: Character?  // a quoted scalar that runs over lines
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let characters = Array(line)
            let indent = characters.prefix { $0 == " " }.count
            if let block = blockIndent {
                if indent > block || characters.allSatisfy({ $0 == " " || $0 == "\r" }) { continue }
                blockIndent = nil
            }
            var index = 0
            var nodeStart = quote == nil
            while index < characters.count {
                let character = characters[index]
                if let open = quote {
                    if character == open {
                        if open == "'", index + 1 < characters.count, characters[index + 1] == "'" {
                            index += 2
                            continue
                        }
                        quote = nil
                    } else if character == "\\", open == "\"" {
                        index += 1
                    }
                    index += 1
                    continue
                }
                let spaceFollows = index + 1 == characters.count || characters[index + 1] == " " || characters[index + 1] == "\t"
                switch character {
                case " ", "\t", "\r":
                    index += 1
                    continue
                case "#" where index == 0 || characters[index - 1] == " " || characters[index - 1] == "\t":
                    index = characters.count
                    continue
                case "-" where spaceFollows && nodeStart, "?" where spaceFollows && nodeStart:
                    break  // a sequence entry or a complex key: a node starts after it
                case ":" where spaceFollows:
                    nodeStart = true  // a key ends: its value starts
                case "[", "{", ",":
                    nodeStart = true
                case "]", "}":
                    nodeStart = false
                case "!" where nodeStart:
                    while index < characters.count, characters[index] != " " { index += 1 }  // a tag; the node follows
                    continue
                case "&", "*":
                    if nodeStart { return number + 1 }
                case "\"", "'":
                    if nodeStart { quote = character }
                    nodeStart = false
                case "|" where nodeStart, ">" where nodeStart:
                    blockIndent = indent
                    index = characters.count
                    continue
                default:
                    // A plain scalar: `&` and `*` inside it are text, up to the next `: ` or flow indicator.
                    nodeStart = false
                }
                index += 1
            }
        }
        return nil
    }
}
