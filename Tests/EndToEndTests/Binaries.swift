import Foundation

/// Where the executables under test are: beside the test bundle, in the build that runs the tests
/// (debug, release, a sanitizer build in its own folder, an arm64 build under emulation), or where
/// `HEADWAY_BINARIES` says. Never a fixed `.build/debug`, which may hold another build.
enum Binaries {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["HEADWAY_BINARIES"] { return URL(fileURLWithPath: path) }
        let bundle = Bundle(for: Marker.self).bundleURL.deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: bundle.appendingPathComponent("headway-sim").path) { return bundle }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for candidate in [runner, runner.deletingLastPathComponent()] where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("headway-sim").path) {
            return candidate
        }
        fatalError("headway-sim is not beside the test bundle (\(bundle.path)): build the executables with the tests (swift build --build-tests) or set HEADWAY_BINARIES")
    }()

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private final class Marker {}
}
