import Foundation
import Testing

/// What a test needs from the machine — a real program, a server's venv — and what its absence
/// means: a bare `swift test` skips the test, saying why (the trait's comment); with `CI` set the
/// test fails instead, naming what is missing and who installs it, so that a suite that needs a
/// real program never passes without it. Used as `.enabled(if: try Needed.programs("restic"), …)`:
/// a condition that throws is recorded as the test's failure.
enum Needed {
    /// What is missing, in a run that must have it.
    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) is needed and missing here (CI is set, so this fails rather than skips)" }
    }

    /// Whether the machine has `present`: true when it does; false (skipped) when it does not,
    /// outside CI; a ``Missing`` error in CI.
    static func that(_ present: Bool, _ what: @autoclosure () -> String) throws -> Bool {
        if present { return true }
        if ProcessInfo.processInfo.environment["CI"] != nil { throw Missing(what: what()) }
        print("skipping: \(what()) is not here")
        return false
    }

    /// Whether every program in `names` is on PATH (as ``that(_:_:)`` says it).
    static func programs(_ names: String..., installedBy how: String = "Scripts/test installs it") throws -> Bool {
        let missing = names.filter { !onPath($0) }
        return try that(missing.isEmpty, "\(missing.joined(separator: ", ")) (\(how))")
    }

    /// Whether `program` is on PATH, or at `program` when it is a path.
    static func onPath(_ program: String) -> Bool {
        if program.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: program) }
        return (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }
}
