/// The anchors (`&name`) defined so far in a document, and the budget of nodes their aliases
/// (`*name`) may repeat.
///
/// An alias stands for the whole node its anchor names, so aliases of aliases make YAML a
/// compression format: a few hundred bytes can stand for a tree of billions of nodes (the "billion
/// laughs") that would take hours to walk. The nodes every alias repeats are added up, and a
/// document that repeats more than ``maxRepeatedNodes`` is refused.
struct YAMLAnchorTable {
    /// Far more than a configuration repeats (a board's outputs: a few dozen nodes).
    static let maxRepeatedNodes = 10_000

    private struct Anchor {
        let node: YAMLNode
        let nodeCount: Int
        let line: Int
    }

    private var anchors: [String: Anchor] = [:]
    /// Anchors whose node is still being read: an alias of one would be a node inside itself.
    private var open: [String: Int] = [:]
    private var repeatedNodes = 0

    /// Notes that the node anchored as `name` starts on `line`.
    mutating func open(_ name: String, line: Int) throws(YAMLError) {
        if let first = anchors[name]?.line ?? open[name] {
            throw YAMLError(line: line, message: "the anchor &\(name) is defined twice (lines \(first) and \(line)); give each anchor its own name")
        }
        open[name] = line
    }

    /// Keeps the finished node anchored as `name`; it was made of `nodeCount` nodes.
    mutating func define(_ name: String, as node: YAMLNode, nodeCount: Int) {
        let line = open.removeValue(forKey: name) ?? node.line
        anchors[name] = Anchor(node: node, nodeCount: nodeCount, line: line)
    }

    /// The node `*name` on `line` stands for, and how many nodes it repeats.
    mutating func resolve(_ name: String, line: Int) throws(YAMLError) -> (node: YAMLNode, nodeCount: Int) {
        guard let anchor = anchors[name] else {
            if let start = open[name] {
                throw YAMLError(line: line, message: "*\(name) is inside the node it names (&\(name), line \(start)); a node cannot contain itself")
            }
            throw YAMLError(line: line, message: "*\(name) names no anchor; define &\(name) on a node above it (quote a text that starts with *)")
        }
        repeatedNodes += anchor.nodeCount
        guard repeatedNodes <= Self.maxRepeatedNodes else {
            throw YAMLError(line: line, message: "the aliases repeat more than \(Self.maxRepeatedNodes) nodes by here; write the values out instead of nesting aliases")
        }
        return (anchor.node, anchor.nodeCount)
    }
}
