import Foundation
import HeadwayCI
import Testing

/// The sample the package ships as /usr/share/doc/headway/examples/ci/ci.yaml reads as written.
@Suite("The sample ci.yaml")
struct SampleConfigurationTests {
    @Test func theShippedSampleReads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("examples/ci/ci.yaml"), encoding: .utf8)
        let file = try CIConfiguration.read(text)
        #expect(file.sources.count == 1)
    }
}
