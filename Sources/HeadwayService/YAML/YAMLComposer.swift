import CYAML
import Headway

/// What is wrong with a YAML text, and the line (1-based) where it was found, when known.
struct YAMLError: Error, Sendable {
    let line: Int?
    let message: String
}

/// Builds the tree of one YAML document from libyaml's parser events.
///
/// Anchors and aliases are refused at the first one met: aliases make YAML a compression format
/// (a few hundred bytes of nested aliases stand for a tree that takes minutes to walk, the "billion
/// laughs"), and Headway's files never need them. Keys repeated in one mapping and nesting deeper
/// than ``maxDepth`` are refused too, each with its line.
enum YAMLComposer {
    /// Deeper than any configuration (outputs, an output, its lines: three levels).
    static let maxDepth = 64

    /// The document in `text`; nil when the text holds no document (empty, or only comments).
    static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        var bytes = Array(text.utf8)
        let result: Result<YAMLNode?, YAMLError> = bytes.withUnsafeMutableBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return .failure(YAMLError(line: nil, message: "out of memory")) }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = TreeBuilder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return .failure(syntaxError(parser)) }
                defer { yaml_event_delete(&event) }
                do throws(YAMLError) {
                    if try builder.take(event) { return .success(builder.root) }
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// The parser's own account of a syntax error: its problem, what it was reading, the line.
    private static func syntaxError(_ parser: yaml_parser_t) -> YAMLError {
        guard parser.error != YAML_MEMORY_ERROR else { return YAMLError(line: nil, message: "out of memory reading the YAML") }
        var message = "not valid YAML: " + (parser.problem.map { String(cString: $0) } ?? "unreadable")
        if let context = parser.context { message += " " + String(cString: context) }
        // A reader error (bad encoding) has an offset, not a mark.
        let line = parser.error == YAML_READER_ERROR ? nil : Int(parser.problem_mark.line) + 1
        return YAMLError(line: line, message: message)
    }
}

/// The nodes being built: a stack of the sequences and mappings still open.
private struct TreeBuilder {
    private enum Open {
        case sequence(items: [YAMLNode], line: Int)
        case mapping(YAMLMapping, pendingKey: YAMLNode?, line: Int)
    }

    private var open: [Open] = []
    private(set) var root: YAMLNode?

    /// Takes one event; true once the stream has ended.
    mutating func take(_ event: yaml_event_t) throws(YAMLError) -> Bool {
        let line = Int(event.start_mark.line) + 1
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            if root != nil { throw YAMLError(line: line, message: "a second document (after ---) where one is expected; keep one document per file") }
        case YAML_ALIAS_EVENT:
            throw Self.anchorRefusal(line)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            if scalar.anchor != nil { throw Self.anchorRefusal(line) }
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            try add(YAMLNode(content: .scalar(text), line: line))
        case YAML_SEQUENCE_START_EVENT:
            if event.data.sequence_start.anchor != nil { throw Self.anchorRefusal(line) }
            try push(.sequence(items: [], line: line), line: line)
        case YAML_MAPPING_START_EVENT:
            if event.data.mapping_start.anchor != nil { throw Self.anchorRefusal(line) }
            try push(.mapping(YAMLMapping(), pendingKey: nil, line: line), line: line)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            switch open.removeLast() {
            case .sequence(let items, let start): try add(YAMLNode(content: .sequence(items), line: start))
            case .mapping(let mapping, _, let start): try add(YAMLNode(content: .mapping(mapping), line: start))
            }
        default:
            break  // stream start, document end, no-event: nothing to build
        }
        return false
    }

    private mutating func push(_ node: Open, line: Int) throws(YAMLError) {
        guard open.count < YAMLComposer.maxDepth else {
            throw YAMLError(line: line, message: "nested more than \(YAMLComposer.maxDepth) levels deep; a configuration needs a few")
        }
        open.append(node)
    }

    /// Puts a finished node into the sequence or mapping that holds it, or makes it the root.
    private mutating func add(_ node: YAMLNode) throws(YAMLError) {
        guard let innermost = open.popLast() else {
            root = node
            return
        }
        switch innermost {
        case .sequence(var items, let line):
            items.append(node)
            open.append(.sequence(items: items, line: line))
        case .mapping(var mapping, let pendingKey?, let line):
            mapping.pairs.append((pendingKey, node))
            open.append(.mapping(mapping, pendingKey: nil, line: line))
        case .mapping(let mapping, nil, let line):
            if let key = node.string, let first = mapping.pairs.first(where: { $0.key.string == key }) {
                throw YAMLError(
                    line: node.line,
                    message: "\"\(DisplayText.sanitised(key))\" appears more than once in the same mapping (lines \(first.key.line) and \(node.line)); give each key once")
            }
            open.append(.mapping(mapping, pendingKey: node, line: line))
        }
    }

    private static func anchorRefusal(_ line: Int) -> YAMLError {
        YAMLError(line: line, message: "YAML anchors and aliases (&name, *name) are not accepted here; write the values out (quote a text that starts with & or *)")
    }
}
