import Foundation
import HeadwayRender
import Testing

/// Golden frames: the expected pixels of a style, kept as text under Golden/. A change in a style's
/// output fails the test with both pictures; run with HEADWAY_UPDATE_GOLDEN=1 to accept it after
/// looking at the difference.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func text(of bitmap: Bitmap) -> String {
        (0..<bitmap.height).map { y in String((0..<bitmap.width).map { bitmap[$0, y] ? "#" : "." }) }.joined(separator: "\n") + "\n"
    }

    static func text(of frame: LEDFrame) -> String {
        ColourPipeline().levels(for: frame).enumerated().map { index, level in
            let hex = [level.red, level.green, level.blue].map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }.joined()
            return "\(index) \(hex)"
        }.joined(separator: "\n") + "\n"
    }

    static func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = folder.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["HEADWAY_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden frame \(url.path); run the tests with HEADWAY_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "golden frame \(name) differs:\n--- expected\n\(expected)--- actual\n\(actual)", sourceLocation: sourceLocation)
    }
}
