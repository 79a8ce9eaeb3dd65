import Foundation
import Testing

/// ninja, make, cargo and swift build, the real programs, building what the test writes, under
/// `headway run`.
extension RealPrograms {
@Suite("Real tools: builds")
struct BuildToolJourneys {
    @Test(.enabled(if: try Needed.programs("ninja", "make"), "ninja or make is not installed (Scripts/test installs them)"))
    func ninjaAndMakeCountTheirSteps() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        let steps = (1...6).map { "build s\($0): wait\n" }.joined()
        try ("rule wait\n  command = sleep 0.25\n" + steps + "rule fail\n  command = false\nbuild bad: fail\n").write(to: folder.appendingPathComponent("build.ninja"), atomically: true, encoding: .utf8)
        let ninja = try await ToolJourney.walk(service, job: "ninja", ["ninja", "-j1", "s1", "s2", "s3", "s4", "s5", "s6"], directory: folder)
        ninja.expectHonest(label: "ninja", eta: ToolJourney.ToolETA.none)
        #expect(ninja.run.stdout.contains("[6/6]"))
        let broken = try await ToolJourney.walk(service, job: "ninja-bad", ["ninja", "bad"], directory: folder, failing: true)
        broken.expectFailure(label: "ninja")

        let makefile = "all:\n" + (1...5).map { "\t@echo '[\($0)/5] step \($0)'; sleep 0.25\n" }.joined() + "bad:\n\t@false\n"
        try makefile.write(to: folder.appendingPathComponent("Makefile"), atomically: true, encoding: .utf8)
        let make = try await ToolJourney.walk(service, job: "make", ["make", "all"], directory: folder)
        make.expectHonest(label: "make")
        let makeBad = try await ToolJourney.walk(service, job: "make-bad", ["make", "bad"], directory: folder, failing: true)
        makeBad.expectFailure(label: "make")
    }

    /// A workspace of five path crates (no registry, no network), built one unit at a time.
    @Test(.enabled(if: try Needed.programs("cargo"), "cargo is not installed (Scripts/test installs it)"))
    func cargoBuildsAWorkspace() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        let crates = ["a", "b", "c", "d"]
        try write("[workspace]\nmembers = [\"a\", \"b\", \"c\", \"d\", \"app\"]\nresolver = \"2\"\n", to: folder.appendingPathComponent("Cargo.toml"))
        for crate in crates {
            try write(manifest(crate), to: folder.appendingPathComponent("\(crate)/Cargo.toml"))
            try write("pub fn value() -> u32 { \(crate.unicodeScalars.first!.value) }\n", to: folder.appendingPathComponent("\(crate)/src/lib.rs"))
            // A build script that takes its time, as real ones do (a build this small is over in
            // a fraction of a second): each crate's units take about 0.3 s.
            try write("fn main() { std::thread::sleep(std::time::Duration::from_millis(300)); }\n", to: folder.appendingPathComponent("\(crate)/build.rs"))
        }
        try write(manifest("app") + crates.map { "\($0) = { path = \"../\($0)\" }\n" }.joined(), to: folder.appendingPathComponent("app/Cargo.toml"))
        try write("fn main() { println!(\"{}\", a::value() + b::value() + c::value() + d::value()); }\n", to: folder.appendingPathComponent("app/src/main.rs"))
        let build = try await ToolJourney.walk(service, job: "cargo", ["cargo", "build", "--offline", "-j1"], directory: folder)
        build.expectHonest(label: "cargo: building", eta: ToolJourney.ToolETA.none)
        // Five crates and the four build scripts, each compiled and run.
        #expect(build.determinate.allSatisfy { $0.total == 13 }, "\(build.determinate.map { "\($0.value!)/\($0.total!)" })")
        #expect(build.run.stderr.contains("Compiling app") && build.run.stderr.contains("Finished") && !build.run.stderr.contains("\r"), "only cargo's bar is withheld: \(build.run.stderr)")

        try write("fn main() { broken }\n", to: folder.appendingPathComponent("app/src/main.rs"))
        let broken = try await ToolJourney.walk(service, job: "cargo-bad", ["cargo", "build", "--offline", "-j1"], directory: folder, failing: true)
        broken.expectFailure(label: "cargo")
        #expect(broken.run.stderr.contains("error"))
    }

    /// A package of two libraries and a program: SwiftPM prints `[n/N]` steps without a terminal.
    /// Its total grows while it plans, so its own fraction may dip (the service holds the display
    /// still then); that the value stays within the total is checked.
    @Test(.enabled(if: try Needed.programs("swift", installedBy: "the toolchain that builds these tests"), "swift is not on PATH"))
    func swiftBuildCountsItsSteps() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        try write("""
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "tiny", targets: [
                .target(name: "A"), .target(name: "B", dependencies: ["A"]), .executableTarget(name: "app", dependencies: ["B"]),
            ])

            """, to: folder.appendingPathComponent("Package.swift"))
        try write("public func a() -> Int { 1 }\n", to: folder.appendingPathComponent("Sources/A/a.swift"))
        try write("import A\npublic func b() -> Int { a() + 1 }\n", to: folder.appendingPathComponent("Sources/B/b.swift"))
        try write("import B\nprint(b())\n", to: folder.appendingPathComponent("Sources/app/main.swift"))
        let build = try await ToolJourney.walk(service, job: "swift", ["swift", "build"], directory: folder)
        build.expectHonest(label: "swift build", monotonic: false, eta: ToolJourney.ToolETA.none)
        #expect(build.run.stdout.contains("Build complete!"))
    }

    private func manifest(_ name: String) -> String {
        "[package]\nname = \"\(name)\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n"
    }

    private func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
}
