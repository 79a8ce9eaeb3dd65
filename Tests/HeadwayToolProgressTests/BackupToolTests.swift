import HeadwayToolProgress
import Testing

@Suite("borg's, rsync's and rclone's progress")
struct BackupToolTests {
    @Test func borgAddsProgressAfterTheSubcommandAndWithholdsTheMeter() throws {
        #expect(try Run(["borg", "create", "::a", "data"]).progress.invocation.arguments == ["borg", "create", "--progress", "::a", "data"])
        #expect(try Run(["borg", "--lock-wait", "5", "extract", "::a"]).progress.invocation.arguments == ["borg", "--lock-wait", "5", "extract", "--progress", "::a"])
        #expect(try Run(["borg", "create", "--progress", "::a", "x"]).progress.invocation.withholds.isEmpty)
        #expect(try Run(["borg", "list", "::a"]).progress.invocation.arguments == ["borg", "list", "::a"])
        for version in ["1.2", "1.4"] {
            var create = try Run(["borg", "create", "-C", "lzma,6", "::a", "b5"])
            let fixture = try Run.fixture("borg/create-\(version).stderr")
            create.feed(.errors, fixture)
            #expect(create.text(.errors) == withoutRedraws(fixture), "borg \(version): only the meter is withheld")
            // borg create knows no total: indeterminate, counting.
            #expect(create.determinate.isEmpty)
            #expect(create.labels.contains("borg: 0 files, 8.1 MB"), "\(create.labels)")
            #expect(create.labels.contains("borg: reading chunks") || create.labels.contains("borg: initializing cache transaction"))

            var extract = try Run(["borg", "extract", "::a"])
            try extract.feed(.errors, fixture: "borg/extract-\(version).stderr")
            #expect(extract.text(.errors).isEmpty)
            #expect(!extract.determinate.isEmpty && extract.determinate.allSatisfy { $0.label == "borg: extracting" && $0.total == 100 })
            // "  3.3% Extracting", " 41.7% Extracting": never ahead of borg's own rounded figure.
            let shown = version == "1.2" ? 3.3 : 41.7
            #expect(extract.determinate.contains { $0.value! > shown - 0.1 && $0.value! <= shown })
        }
    }

    @Test func borgsJSONRecordsAreReadAndOnlyTheAskedOnesWithheld() throws {
        var create = try Run(["borg", "create", "--log-json", "::e", "b5"])
        try create.feed(.errors, fixture: "borg/create-1.2-json.stderr")
        #expect(create.text(.errors).isEmpty, "every record is one --progress added")
        #expect(create.labels.contains("borg: 0 files, 8.1 MB"))
        var extract = try Run(["borg", "extract", "--log-json", "--progress", "::e"])
        let fixture = try Run.fixture("borg/extract-1.2-json.stderr")
        extract.feed(.errors, fixture)
        #expect(extract.passed[.errors] == fixture, "the user's own --progress: nothing withheld")
        #expect(!extract.determinate.isEmpty && extract.determinate.allSatisfy { $0.value! <= $0.total! })
        #expect(extract.progress.problem == nil)
    }

    @Test func borgmaticHandsProgressToBorg() throws {
        #expect(try Run(["borgmatic", "create", "--stats"]).progress.invocation.arguments == ["borgmatic", "create", "--progress", "--stats"])
        #expect(try Run(["borgmatic", "-c", "x.yaml", "extract", "--archive", "latest"]).progress.invocation.arguments == ["borgmatic", "-c", "x.yaml", "extract", "--progress", "--archive", "latest"])
        // Without an action borgmatic prunes, creates, compacts and checks: --progress belongs to an action.
        #expect(try Run(["borgmatic"]).progress.invocation.arguments == ["borgmatic"])
        var run = try Run(["borgmatic", "create"])
        try run.feed(.errors, fixture: "borg/create-1.4.stderr")
        #expect(run.labels.contains("borg: 0 files, 8.1 MB"))
    }

    @Test func rsyncProgress2IsAskedForAndWithheld() throws {
        #expect(try Run(["rsync", "-a", "src/", "dst/"]).progress.invocation.arguments == ["rsync", "--info=progress2", "-a", "src/", "dst/"])
        #expect(try Run(["rsync", "-aP", "src/", "dst/"]).progress.invocation.arguments == ["rsync", "-aP", "src/", "dst/"])
        #expect(try Run(["rsync", "-a", "--info=progress2", "s", "d"]).progress.invocation.withholds.isEmpty)
        var run = try Run(["rsync", "-a", "--bwlimit=3000", "data2/", "rs3/"])
        let fixture = try Run.fixture("rsync/progress2.stdout")
        run.feed(.output, fixture)
        #expect(run.text(.output).isEmpty)
        #expect(run.labels.first == "rsync: 32.7 kB, listing files", "indeterminate until rsync has its whole file list")
        #expect(run.determinate.count > 10 && run.determinate.allSatisfy { $0.label == "rsync: transferring" && $0.total == 100 })
        #expect(run.determinate.contains { $0.value == 97 })
        #expect(run.determinate.contains { $0.eta != nil })

        var given = try Run(["rsync", "-a", "--info=progress2", "data2/", "rs3/"])
        given.feed(.output, fixture)
        #expect(given.passed[.output] == fixture)
        #expect(!given.determinate.isEmpty)
    }

    @Test func rcloneStatsAreAskedForAndWithheld() throws {
        #expect(try Run(["rclone", "copy", "a", "b"]).progress.invocation.arguments == ["rclone", "--stats", "1s", "--stats-one-line", "--stats-log-level", "NOTICE", "copy", "a", "b"])
        #expect(try Run(["rclone", "copy", "-P", "a", "b"]).progress.invocation.withholds.isEmpty)
        var run = try Run(["rclone", "copy", "--bwlimit", "3M", "data2", "rdst"])
        let fixture = try Run.fixture("rclone/copy.stderr")
        run.feed(.errors, fixture)
        #expect(run.text(.errors) == String(decoding: fixture, as: UTF8.self).split(separator: "\n").prefix(1).joined() + "\n")
        let mib = 1_048_576.0
        #expect(run.determinate.count == 3 && run.determinate.allSatisfy { $0.label == "rclone: copying" && $0.total! >= 7.629 * mib })
        #expect(run.determinate[0].value! <= 3.049 * mib && run.determinate[0].value! <= 0.40 * run.determinate[0].total! && run.determinate[0].eta == nil)
        #expect(run.determinate[1].eta == 0)

        var json = try Run(["rclone", "copy", "--use-json-log", "a", "b"])
        try json.feed(.errors, fixture: "rclone/copy-json.stderr")
        #expect(json.text(.errors).split(separator: "\n").count == 1, "the config notice passes, the stats are withheld")
        #expect(json.determinate.last.map { $0.value == 8_000_000 && $0.total == 8_000_000 } == true)
    }
}
