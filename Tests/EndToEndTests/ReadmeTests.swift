import Foundation
import Testing

/// The Swift snippets of docs/swift.md (and the one README.md shows) are the code of
/// examples/swift-package, which Scripts/test-examples builds as another package would and runs on
/// virtual devices.
@Suite("README")
struct ReadmeTests {
    static let root = EndToEnd.HeadwaySimTests.packageRoot

    /// The lines of `text` without their common indentation and trailing blanks.
    static func dedented(_ lines: [Substring]) -> [String] {
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// The ```swift blocks of a Markdown file of the package.
    static func swiftSnippets(in path: String) throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var snippets: [[String]] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```swift" { current = [] } else if line.hasPrefix("```"), let lines = current {
                snippets.append(dedented(lines))
                current = nil
            } else { current?.append(line) }
        }
        return snippets
    }

    /// The regions of the example package's code between `// snippet NAME` and `// snippet end`.
    static func exampleRegions() throws -> [[String]] {
        let source = try String(contentsOf: root.appendingPathComponent("examples/swift-package/Sources/ReadmeExamples/Snippets.swift"), encoding: .utf8)
        var regions: [[String]] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// snippet end", let lines = current {
                regions.append(dedented(lines))
                current = nil
            } else if trimmed.hasPrefix("// snippet ") {
                current = []
            } else { current?.append(line) }
        }
        return regions
    }

    @Test func swiftSnippetsAreTheExamplePackagesCode() throws {
        let guide = try Self.swiftSnippets(in: "docs/swift.md")
        let front = try Self.swiftSnippets(in: "README.md")
        #expect(guide.count == 6)
        #expect(!front.isEmpty)
        let regions = try Self.exampleRegions()
        #expect(regions.count == 6)
        for (file, snippets) in [("docs/swift.md", guide), ("README.md", front)] {
            for snippet in snippets {
                #expect(regions.contains(snippet), "\(file) shows code that examples/swift-package does not have:\n\(snippet.joined(separator: "\n"))")
            }
        }
    }
}
