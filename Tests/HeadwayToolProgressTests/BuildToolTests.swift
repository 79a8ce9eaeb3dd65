import HeadwayToolProgress
import Testing

@Suite("cargo's progress")
struct BuildToolTests {
    @Test func cargosBarIsAskedForAndWithheld() throws {
        let asked = try Run(["cargo", "build", "--release"]).progress.invocation
        #expect(asked.arguments == ["cargo", "build", "--release"])
        #expect(asked.environment.map { "\($0.0)=\($0.1)" } == ["CARGO_TERM_PROGRESS_WHEN=always", "CARGO_TERM_PROGRESS_WIDTH=80"])
        #expect(asked.withholds == [.errors])
        #expect(try Run(["cargo", "build", "-q"]).progress.invocation.environment.isEmpty)
        #expect(try Run(["cargo", "build"], environment: ["CARGO_TERM_PROGRESS_WHEN": "never"]).progress.invocation.environment.isEmpty)

        for version in ["1.65", "1.95"] {
            var run = try Run(["cargo", "build", "-j1"])
            let fixture = try Run.fixture("cargo/build-\(version).stderr")
            run.feed(.errors, fixture)
            // cargo's own lines pass; only the bar is withheld.
            #expect(run.text(.errors) == withoutRedraws(fixture), "cargo \(version)")
            #expect(run.text(.errors).contains("Compiling app v0.1.0") && run.text(.errors).contains("Finished"))
            #expect(run.determinate.map(\.value) == [0, 1, 2, 3, 4] && run.determinate.allSatisfy { $0.total == 5 })
            #expect(run.labels.count == 5 && run.labels.allSatisfy { $0.hasPrefix("cargo: building ") } && run.labels.last == "cargo: building app")
        }
    }

    @Test func aBarTheUserAskedForPassesAndIsRead() throws {
        var run = try Run(["cargo", "build"], environment: ["CARGO_TERM_PROGRESS_WHEN": "always"])
        let fixture = try Run.fixture("cargo/build-1.95.stderr")
        run.feed(.errors, fixture)
        #expect(run.passed[.errors] == fixture)
        #expect(run.determinate.count == 5)
    }

    @Test func downloadsNameTheStepWithoutACount() throws {
        var run = try Run(["cargo", "build"])
        run.feed(.errors, Array("    Downloading [=====>    ] 3/10: serde, libc\r    Building [=>    ] 1/40: serde(build.rs)\r".utf8))
        #expect(run.text(.errors).isEmpty)
        #expect(run.updates.first?.label == "cargo: downloading serde" && run.updates.first?.value == nil)
        #expect(run.determinate.map(\.value) == [1] && run.determinate.first?.label == "cargo: building serde")
    }
}
