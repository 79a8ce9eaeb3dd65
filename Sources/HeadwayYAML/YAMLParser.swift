/// Reads the nodes of one YAML document from a cursor, by recursive descent over YAML 1.2's
/// grammar: block collections by indentation (YAMLParser+Block), flow collections (+Flow), plain,
/// quoted and block scalars (+PlainScalar, +QuotedScalar, +BlockScalar), anchors and aliases
/// (+Anchors). Every node made is counted, so an anchor knows how many nodes its aliases repeat.
struct YAMLParser {
    /// Deeper than any configuration (outputs, an output, its lines: three levels); the limit
    /// keeps the recursion's stack small whatever the input.
    static let maxDepth = 64

    var cursor: YAMLCursor
    var anchors = YAMLAnchorTable()
    /// Collections open around the current position.
    private var depth = 0
    /// Nodes made so far, aliases counting the nodes they repeat.
    private(set) var nodeCount = 0

    init(_ cursor: YAMLCursor) {
        self.cursor = cursor
    }

    mutating func node(_ content: YAMLNode.Content, line: Int) -> YAMLNode {
        nodeCount += 1
        return YAMLNode(content: content, line: line)
    }

    /// The empty scalar a key or list item without a value has (YAML's null, kept as text).
    mutating func emptyNode() -> YAMLNode {
        node(.scalar(""), line: cursor.line)
    }

    /// Counts the nodes an alias repeats.
    mutating func countRepeated(_ nodes: Int) {
        nodeCount += nodes
    }

    /// Runs `body`, which reads a collection, one level deeper.
    mutating func nested<T>(_ body: (inout YAMLParser) throws(YAMLError) -> T) throws(YAMLError) -> T {
        guard depth < Self.maxDepth else {
            throw cursor.error("nested more than \(Self.maxDepth) levels deep; a configuration needs a few")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }
}
