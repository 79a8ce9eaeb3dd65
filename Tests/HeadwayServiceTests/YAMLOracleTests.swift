import Foundation
@testable import HeadwayYAML
import Testing

/// The reader against PyYAML: every YAML file in the repository (board and HAT presets, examples,
/// fixtures, the documentation's YAML blocks) and a corpus of generated documents must read as the
/// same trees.
@Suite("YAML reader against PyYAML")
struct YAMLOracleTests {
    @Test func theRepositorysFilesReadAsPyYAMLReadsThem() throws {
        let documents = try Self.repositoryDocuments()
        #expect(documents.count > 20)
        try expectSameTrees(documents)
    }

    @Test func generatedDocumentsReadAsPyYAMLReadsThem() throws {
        let documents = YAMLCorpus.documents(count: 400, seed: 0x4865_6164_7761_79)
        try expectSameTrees(documents.map { ("generated", $0) })
    }

    private func expectSameTrees(_ documents: [(name: String, text: String)]) throws {
        let expected = try YAMLOracle.read(documents.map(\.text))
        for ((name, text), tree) in zip(documents, expected) {
            if case .error(let message) = tree {
                Issue.record("PyYAML refuses \(name): \(message)\n\(text)")
                continue
            }
            do {
                let node = try YAMLComposer.compose(text)
                #expect(tree.matches(node), "\(name)\n\(text)\nPyYAML: \(tree)\nours:   \(node.map { "\(YAMLOracle.Tree($0))" } ?? "no document")")
            } catch {
                Issue.record("we refuse \(name) (line \(error.line ?? 0): \(error.message)); PyYAML reads \(tree)\n\(text)")
            }
        }
    }

    /// The package's root, found from this file's place in it.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every .yaml and .yml file outside the build folders, and every ```yaml block of the Markdown
    /// files; not the test servers' own configurations (Home Assistant's tags are its dialect).
    private static func repositoryDocuments() throws -> [(name: String, text: String)] {
        var documents: [(String, String)] = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            let path = String(url.path.dropFirst(root.path.count + 1))
            if path.hasPrefix(".") || path.contains("/.") {
                files?.skipDescendants()
                continue
            }
            switch url.pathExtension {
            case "yaml", "yml":
                guard let text = try? String(contentsOf: url, encoding: .utf8), !path.hasPrefix("Fuzz/Corpus"), !path.hasPrefix("Tests/Home/") else { continue }
                documents.append((path, text))
            case "md":
                let text = try String(contentsOf: url, encoding: .utf8)
                for (index, block) in text.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
                    documents.append(("\(path) YAML block \(index + 1)", block.components(separatedBy: "```").first ?? ""))
                }
            default:
                break
            }
        }
        return documents
    }
}
