import Foundation
@testable import HeadwayYAML

/// PyYAML (Debian's python3-yaml) as the reference reader: it composes each document with only
/// the merge key resolved (every other scalar stays the text it is written as, like ours),
/// applies `<<` merges, and answers with each document's tree as JSON, or the error it found.
enum YAMLOracle {
    /// A document's tree as PyYAML reads it: a text, a list, or a mapping's pairs (`merged`: a
    /// `<<` brought some in, so their order is PyYAML's own and only the pairs are compared).
    indirect enum Tree: Equatable, CustomStringConvertible {
        case scalar(String)
        case sequence([Tree])
        case mapping([Pair], merged: Bool)
        case error(String)

        struct Pair: Equatable {
            let key: Tree
            let value: Tree
        }

        var description: String {
            switch self {
            case .scalar(let text): return String(reflecting: text)
            case .sequence(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
            case .mapping(let pairs, _): return "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
            case .error(let message): return "error(\(message))"
            }
        }

        /// Whether `node` is this tree (nil: no document).
        func matches(_ node: YAMLNode?) -> Bool {
            guard let node else { return self == .scalar("<no document>") }
            return self.equalsIgnoringMergedOrder(Self(node))
        }

        init(_ node: YAMLNode) {
            switch node.content {
            case .scalar(let text): self = .scalar(text)
            case .sequence(let items): self = .sequence(items.map(Tree.init))
            case .mapping(let mapping): self = .mapping(mapping.pairs.map { Pair(key: Tree($0.key), value: Tree($0.value)) }, merged: false)
            }
        }

        private func equalsIgnoringMergedOrder(_ other: Tree) -> Bool {
            switch (self, other) {
            case (.scalar(let a), .scalar(let b)): return a == b
            case (.sequence(let a), .sequence(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.equalsIgnoringMergedOrder($1) }
            case (.mapping(let a, let merged), .mapping(let b, _)):
                guard a.count == b.count else { return false }
                let order: ([Pair]) -> [Pair] = { merged ? $0.sorted { "\($0.key)" < "\($1.key)" } : $0 }
                return zip(order(a), order(b)).allSatisfy { $0.key.equalsIgnoringMergedOrder($1.key) && $0.value.equalsIgnoringMergedOrder($1.value) }
            default: return false
            }
        }

        fileprivate init(json: Any) {
            if let text = json as? String {
                self = .scalar(text)
            } else if let items = json as? [Any] {
                self = .sequence(items.map(Tree.init(json:)))
            } else if let object = json as? [String: Any], let message = object["error"] as? String {
                self = .error(message)
            } else if let object = json as? [String: Any], let pairs = object["pairs"] as? [[Any]] {
                self = .mapping(pairs.map { Pair(key: Tree(json: $0[0]), value: Tree(json: $0[1])) }, merged: object["merged"] as? Bool ?? false)
            } else {
                self = .scalar("<no document>")
            }
        }
    }

    /// PyYAML's trees of `documents`, in order.
    static func read(_ documents: [String]) throws -> [Tree] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yaml-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("documents.json")
        try JSONSerialization.data(withJSONObject: documents).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let trees = try JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw OracleUnavailable()
        }
        return trees.map(Tree.init(json:))
    }

    struct OracleUnavailable: Error, CustomStringConvertible {
        var description: String { "python3 with PyYAML did not answer; install python3-yaml (Scripts/test does)" }
    }

    private static let script = #"""
        import json, re, sys, yaml
        from yaml.constructor import SafeConstructor, ConstructorError

        class MergeOnly(yaml.resolver.BaseResolver):
            pass
        MergeOnly.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])

        class Loader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, SafeConstructor, MergeOnly):
            def __init__(self, stream):
                yaml.reader.Reader.__init__(self, stream)
                yaml.scanner.Scanner.__init__(self)
                yaml.parser.Parser.__init__(self)
                yaml.composer.Composer.__init__(self)
                SafeConstructor.__init__(self)
                MergeOnly.__init__(self)

        def tree(loader, node):
            if isinstance(node, yaml.ScalarNode):
                return node.value
            if isinstance(node, yaml.SequenceNode):
                return [tree(loader, item) for item in node.value]
            merged = any(key.tag == "tag:yaml.org,2002:merge" for key, _ in node.value)
            loader.flatten_mapping(node)
            pairs = {}
            for key, value in node.value:
                pairs[tree(loader, key)] = tree(loader, value)
            return {"pairs": [[key, value] for key, value in pairs.items()], "merged": merged}

        results = []
        for document in json.load(open(sys.argv[1], encoding="utf-8")):
            loader = Loader(document)
            try:
                node = loader.get_single_node()
                results.append(None if node is None else tree(loader, node))
            except (yaml.YAMLError, ConstructorError) as error:
                results.append({"error": str(error)})
            finally:
                loader.dispose()
        json.dump(results, sys.stdout)
        """#
}
