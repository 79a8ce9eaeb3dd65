import Testing
@testable import HeadwayService

/// Expects `yaml` (read as test.yaml) to be refused with an error at `line` and `key` whose text
/// contains `message`.
func expectRefusal(_ yaml: String, line: Int, key: String?, says message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(sourceLocation: sourceLocation) {
        _ = try ConfigurationLoader.parse(yaml, source: "test.yaml")
    } throws: { error in
        guard let error = error as? ConfigurationError else { return false }
        return error.file == "test.yaml" && error.line == line && error.key == key && error.description.contains(message)
    }
}
