import Foundation

/// How many times slower than this kind of machine the programs under test run:
/// `HEADWAY_TEST_TIME_SCALE`, which Scripts/test-arm64 sets under qemu-user (about 15 times
/// slower). Limits that stand for "soon" (a reply, a process ending) are multiplied by it, and the
/// clients get the same factor on their time budget (`HEADWAY_TIMEOUT_MS`). What cannot be scaled
/// honestly, CPU seconds (the emulator's own work counts) and latency targets, is checked only
/// natively, where CI runs every suite too.
enum TestTime {
    static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["HEADWAY_TEST_TIME_SCALE"], let value = Double(text), value >= 1 else { return 1 }
        return value
    }()

    static var native: Bool { scale == 1 }

    static func scaled(_ seconds: Double) -> Double { seconds * scale }

    static func sleep(_ seconds: Double) { usleep(useconds_t(scaled(seconds) * 1_000_000)) }
}

/// The environment the programs under test start with: the test's own, without the CI runner's
/// variables that would give them a job, fenced from the person running the tests (their
/// `HEADWAY_SOCKET` unset, `XDG_RUNTIME_DIR` a folder of the test process's own, so that no
/// program under test meets their simulator or their service), with the executables under test
/// first on PATH, the clients' time budget stretched like every other limit, then `extra`.
enum ProgramEnvironment {
    static func with(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["GITHUB_RUN_ID", "GITHUB_JOB", "GITHUB_REPOSITORY", "CI_JOB_ID", "CI_JOB_STATUS", "BUILDKITE_JOB_ID", "HEADWAY_SOCKET"] { environment[key] = nil }
        environment["XDG_RUNTIME_DIR"] = runtimeFolder
        environment["PATH"] = Binaries.folder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        if !TestTime.native { environment["HEADWAY_TIMEOUT_MS"] = String(200 * TestTime.scale) }
        return environment.merging(extra) { $1 }
    }

    /// The runtime folder of the test process's own (mode 0700, as a login manager makes one):
    /// where a client that is given no socket looks first, so it finds nothing of the person's.
    static let runtimeFolder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headway-tests-runtime-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }()
}
