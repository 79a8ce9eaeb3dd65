import Foundation
import Testing

/// README's Swift snippets are the code of examples/swift-package, which Scripts/test-examples
/// builds as another package would and runs on virtual devices.
@Suite("README")
struct ReadmeTests {
    static let root = EndToEnd.HeadwaySimTests.packageRoot

    /// The lines of `text` without their common indentation and trailing blanks.
    static func dedented(_ lines: [Substring]) -> [String] {
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    @Test func swiftSnippetsAreTheExamplePackagesCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var snippets: [[String]] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```swift" { current = [] } else if line.hasPrefix("```"), let lines = current {
                snippets.append(Self.dedented(lines))
                current = nil
            } else { current?.append(line) }
        }
        #expect(snippets.count == 6)
        let source = try String(contentsOf: Self.root.appendingPathComponent("examples/swift-package/Sources/ReadmeExamples/Snippets.swift"), encoding: .utf8)
        var regions: [[String]] = []
        current = nil
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// README end", let lines = current {
                regions.append(Self.dedented(lines))
                current = nil
            } else if trimmed.hasPrefix("// README ") {
                current = []
            } else { current?.append(line) }
        }
        for snippet in snippets {
            #expect(regions.contains(snippet), "README shows code that examples/swift-package does not have:\n\(snippet.joined(separator: "\n"))")
        }
    }
}
