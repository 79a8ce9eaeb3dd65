import HeadwayToolProgress
import Testing

@Suite("restic's progress")
struct ResticTests {
    @Test func backupAsksForTextStatusAndWithholdsIt() throws {
        var run = try Run(["restic", "backup", "d6"])
        #expect(run.progress.invocation.environment.map { "\($0.0)=\($0.1)" } == ["RESTIC_PROGRESS_FPS=4"])
        #expect(run.progress.invocation.arguments == ["restic", "backup", "d6"])
        let fixture = try Run.fixture("restic/backup-0.14.stdout")
        run.feed(.output, fixture)
        // What restic prints without RESTIC_PROGRESS_FPS: everything but the status lines and the
        // current files under them.
        let plain = String(decoding: fixture, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("[") && !$0.hasPrefix("/") }.joined(separator: "\n")
        #expect(run.text(.output) == plain)
        #expect(run.labels.first == "restic: scanning")
        // Determinate once restic's scan has finished (its percent and ETA appear), never ahead of it.
        let first = try #require(run.determinate.first)
        #expect(first.label == "restic: backing up" && first.eta == 1)
        // Whole bytes at the low end of restic's rounding (26.529 MiB is at least 26.5285 MiB):
        // never more than restic has done. Its total is the figure as printed.
        #expect(first.total == (57.220 * 1_048_576).rounded(.up))
        #expect(first.value == (26.5285 * 1_048_576).rounded(.up))
        #expect(run.determinate.allSatisfy { $0.value! <= $0.total! })
        #expect(run.determinate.last!.value! <= 55.490 * 1_048_576)
        #expect(run.updates.last?.total != nil, "determinate to the end")
        #expect(run.progress.problem == nil)
    }

    @Test func checkGivesBackTheStatusResticPrintsAnyway() throws {
        for version in ["0.14", "0.18"] {
            var run = try Run(["restic", "check", "--read-data"])
            run.feed(.output, try Run.fixture("restic/check-\(version).stdout"))
            let plain = String(decoding: try Run.fixture("restic/check-\(version)-plain.stdout"), as: UTF8.self)
            // The temporary cache's name differs from run to run.
            func steady(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("using temporary cache") } }
            #expect(steady(run.text(.output)) == steady(plain), "restic \(version)")
            #expect(run.labels.contains("restic: checking snapshots") && run.labels.contains("restic: checking packs"))
            #expect(run.determinate.last.map { $0.value == 3 && $0.total == 3 } == true)
            #expect(run.determinate.allSatisfy { $0.label == "restic: checking packs" }, "the snapshots' count is not the job's")
        }
    }

    /// A backup shorter than restic's first whole second of ETA prints no percent: indeterminate
    /// throughout, scanning until it reads files, then backing up (restic 0.14, 60 files of 2 MB
    /// at 20 MB/s).
    @Test func aQuickBackupSaysWhatItDoesWithoutAPercent() throws {
        var run = try Run(["restic", "backup", "--repo", "r", "data"])
        run.feed(.output, Array("""
            [0:00] 1 files, 0 B, 0 errors
            [0:00] 0 files 0 B, total 1 files 1.907 MiB, 0 errors
            [0:00] 17 files 35.763 MiB, total 60 files 114.441 MiB, 0 errors
            [0:04] 60 files 114.441 MiB, total 60 files 114.441 MiB, 0 errors

            """.utf8))
        #expect(run.labels == ["restic: scanning", "restic: backing up"])
        #expect(run.determinate.isEmpty)
    }

    @Test func theUsersOwnJSONPassesUntouched() throws {
        var run = try Run(["restic", "backup", "--json", "--force", "d6"])
        #expect(run.progress.invocation.environment.isEmpty && run.progress.invocation.withholds.isEmpty)
        let fixture = try Run.fixture("restic/backup-0.14.json")
        run.feed(.output, fixture)
        #expect(run.passed[.output] == fixture)
        // restic gave no seconds_remaining (the run was quicker than a second): its total was never
        // known to be final, so the job stays indeterminate, scanning, then backing up.
        #expect(run.determinate.isEmpty && run.labels == ["restic: scanning", "restic: backing up"], "\(run.labels)")

        var restore = try Run(["restic", "restore", "--json", "latest", "--target", "x"])
        try restore.feed(.output, fixture: "restic/restore-0.18.json")
        #expect(restore.determinate.map(\.value) == [12_429_661, 18_912_292])
        #expect(restore.determinate.allSatisfy { $0.total == 27_017_560 && $0.label == "restic: restoring" })
    }

    @Test func nothingIsAskedWhenTheUserChoseOrResticIsQuiet() throws {
        #expect(try Run(["restic", "-q", "backup", "x"]).progress.invocation.environment.isEmpty)
        #expect(try Run(["restic", "backup", "x"], environment: ["RESTIC_PROGRESS_FPS": "1"]).progress.invocation.environment.isEmpty)
        #expect(try Run(["nice", "-n", "10", "restic", "backup", "x"]).progress.invocation.environment.count == 1)
        var shell = try Run(["sh", "-c", "restic backup x"], format: "restic")
        #expect(shell.progress.invocation.environment.isEmpty)
        #expect(shell.progress.takeProblem()?.contains("not on the command line") == true)
    }

    @Test func jsonOfAnotherShapeIsSaidOnceAndPasses() throws {
        var run = try Run(["restic", "backup", "--json", "x"])
        let lines = "{\"message_type\":\"status\",\"percent_done\":\"half\"}\n{\"type\":\"new\"}\n{broken\n{\"message_type\":\"status\",\"seconds_remaining\":5,\"total_bytes\":100,\"bytes_done\":250}\n"
        run.feed(.output, Array(lines.utf8))
        #expect(run.text(.output) == lines)
        #expect(run.progress.problem?.contains("message_type") == true)
        #expect(run.determinate.allSatisfy { $0.value! <= $0.total! })
    }

    /// prune's steps each count their own things from 0: it stays indeterminate, each step named.
    @Test func pruneNamesItsSteps() throws {
        var run = try Run(["restic", "forget", "--keep-last", "1", "--prune"])
        let lines = "[0:00] 100.00%  4 / 4 files deleted\n[0:00] 100.00%  1 / 1 snapshots\n[0:01] 40.00%  4 / 10 packs processed\n"
        run.feed(.output, Array(lines.utf8))
        #expect(run.determinate.isEmpty)
        #expect(run.labels == ["restic: pruning files deleted", "restic: pruning snapshots", "restic: pruning packs processed"])
    }
}
