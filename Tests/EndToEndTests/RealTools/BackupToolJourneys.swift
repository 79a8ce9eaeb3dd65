import Foundation
import HeadwayCore
import Testing

/// restic, borg, rsync and rclone, the real programs, on data each test makes, under `headway run`.
extension RealPrograms {
@Suite("Real tools: backups")
struct BackupToolJourneys {
    @Test(.enabled(if: try Needed.programs("restic"), "restic is not installed (Scripts/test installs it)"))
    func resticBackupAndCheck() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        let environment = ["RESTIC_PASSWORD": "headway", "RESTIC_REPOSITORY": folder.appendingPathComponent("repository").path]
        _ = try await ToolJourney.blocking { try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/env"), ["restic", "init"], environment: environment) }
        try ToolData.files(in: folder.appendingPathComponent("data"), count: 64, size: 1_000_000)
        // restic shows its percent and ETA once its scan is done and its estimate of the time left
        // is a second or more (restic 0.14 divides by whole seconds elapsed): the upload is
        // throttled to about 8 MB/s, with packs of 4 MiB and one upload at a time so that little
        // is read ahead of it (15–20 MB), and 64 MB leave a second's work for most of the way.
        let backup = try await ToolJourney.walk(
            service, job: "restic", ["restic", "backup", "-o", "local.connections=1", "--pack-size", "4", "--limit-upload", "8000", "data"],
            environment: environment, directory: folder)
        backup.expectHonest(label: "restic: ", eta: .given)
        #expect(backup.samples.contains { $0.label == "restic: scanning" } || backup.samples.first?.label?.hasPrefix("restic backup") == true)
        #expect(backup.stepSamples.allSatisfy { $0.label == "restic: backing up" && $0.total! <= 64_000_000 && $0.unit == .binaryBytes }, "\(backup.determinate)")
        #expect(backup.statusLine?.contains(" MiB") == true, "restic's sizes read as restic prints them: \(backup.statusLine ?? "-")")
        // What restic prints without Headway: no status lines.
        #expect(backup.run.stdout.contains("processed 64 files") && !backup.run.stdout.contains("[0:0"), "\(backup.run.stdout)")

        let check = try await ToolJourney.walk(service, job: "check", ["restic", "check", "--read-data", "--limit-download", "20000"], environment: environment, directory: folder)
        check.expectHonest(label: "restic: checking")
        #expect(check.run.stdout.contains("100.00%"), "restic's own last status is shown: \(check.run.stdout)")

        let missing = try await ToolJourney.walk(service, job: "missing", ["restic", "backup", "no-such-folder"], environment: environment, directory: folder, failing: true)
        missing.expectFailure(label: "restic")
    }

    /// A dump piped into `borg create` and extracted again into a slow consumer, each about 2 s:
    /// borg's meter counts while it creates (it knows no total) and its percentage while it extracts.
    @Test(.enabled(if: try Needed.programs("borg"), "borg is not installed (Scripts/test installs borgbackup)"))
    func borgCreateAndExtract() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        let environment = ["BORG_PASSPHRASE": "headway", "BORG_REPO": folder.appendingPathComponent("repository").path, "BORG_BASE_DIR": folder.path]
        _ = try await ToolJourney.blocking { try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/env"), ["borg", "init", "-e", "repokey"], environment: environment) }
        let dump = ToolData.random(3_000_000)
        // Chunks of about 16 KiB (borg's default is 2 MiB): the extract's meter then moves in small steps.
        let create = try await ToolJourney.walk(
            service, job: "create", ["borg", "create", "--chunker-params", "buzhash,10,16,14,4095", "--stats", "--stdin-name", "dump.sql", "::first", "-"],
            environment: environment, directory: folder, pacing: .init(input: dump, inputRate: 1_500_000))
        // borg create knows no total: indeterminate, its label counting.
        create.expectHonest(label: "borg: ", determinate: false, eta: ToolJourney.ToolETA.none)
        #expect(create.samples.contains { $0.label?.hasSuffix("MB") == true && $0.total == nil }, "\(create.samples.compactMap(\.label))")
        #expect(!create.run.stderr.contains("\r"), "borg's meter is withheld")
        #expect(create.run.stdout.contains("Archive name: first") || create.run.stderr.contains("Archive name: first"), "--stats passes: \(create.run.stdout)")

        let extract = try await ToolJourney.walk(
            service, job: "extract", ["borg", "extract", "--stdout", "::first"], environment: environment, directory: folder, pacing: .init(outputRate: 1_500_000))
        extract.expectHonest(label: "borg: extracting", eta: ToolJourney.ToolETA.none)
        #expect(extract.run.output == dump, "the dump passes through headway untouched")

        let missing = try await ToolJourney.walk(service, job: "missing", ["borg", "extract", "::no-such-archive"], environment: environment, directory: folder, failing: true)
        missing.expectFailure(label: "borg")
    }

    /// borgmatic with examples/tools/borgmatic.yaml, pointed at this test's folders: run as from its
    /// timer, its own hooks report the run (begun with borgmatic's pid, a label for the backup,
    /// done); under `headway run -- borgmatic create`, Headway hands --progress to borg through
    /// borgmatic and borg's meter names the step; a repository that is not there fails through
    /// the on_error hook. The example is written for borgmatic 1.8 and later (Debian 13 has 1.9):
    /// Debian 12's 1.7 reads only the older format with sections, so it is skipped there.
    @Test(.enabled(if: try Needed.programs("borgmatic", "borg", installedBy: "Debian 13 has borgmatic 1.9") && Self.borgmaticReadsTheExample(), "needs borgmatic 1.8 or later (Debian 13's)"))
    func borgmaticWithItsHooks() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        let example = EndToEnd.HeadwaySimTests.packageRoot.appendingPathComponent("examples/tools/borgmatic.yaml")
        let configuration = try String(contentsOf: example, encoding: .utf8)
            .replacingOccurrences(of: "/home", with: folder.appendingPathComponent("data").path)
            .replacingOccurrences(of: "/mnt/backup/borg", with: folder.appendingPathComponent("repository").path)
            .replacingOccurrences(of: "cat /etc/borgmatic/passphrase", with: "echo headway")
        let file = folder.appendingPathComponent("borgmatic.yaml")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        try ToolData.files(in: folder.appendingPathComponent("data"), count: 3, size: 1_000_000)
        let environment = ["BORG_BASE_DIR": folder.path, "BORG_RELOCATED_REPO_ACCESS_IS_OK": "yes"]
        let initialised = try await ToolJourney.blocking {
            try ToolJourney.run(["borgmatic", "--config", file.path, "init", "--encryption", "repokey"], environment: environment, directory: folder, pacing: .none, program: nil)
        }
        #expect(initialised.status == 0, "\(initialised.stderr)")

        let hooks = try await ToolJourney.walk(service, job: "nightly-backup", ["borgmatic", "--config", file.path, "create"], environment: environment, directory: folder, underHeadway: false)
        #expect(hooks.run.status == 0, "\(hooks.run.stderr)")
        #expect((hooks.samples + [hooks.final].compactMap { $0 }).contains { $0.label == "borgmatic: creating archive" })
        #expect(hooks.final.map { ["succeeded", "hidden"].contains($0.phase) } == true, "\(String(describing: hooks.final))")

        let run = try await ToolJourney.walk(service, job: "borgmatic", ["borgmatic", "--config", file.path, "create"], environment: environment, directory: folder)
        run.expectHonest(label: "borg: ", determinate: false, eta: ToolJourney.ToolETA.none)
        #expect(!run.run.stderr.contains("\r"), "borg's meter is withheld")

        try configuration.replacingOccurrences(of: folder.appendingPathComponent("repository").path, with: folder.appendingPathComponent("no-such-repository").path)
            .write(to: file, atomically: true, encoding: .utf8)
        let failing = try await ToolJourney.walk(service, job: "nightly-backup", ["borgmatic", "--config", file.path, "create"], environment: environment, directory: folder, underHeadway: false)
        #expect(failing.run.status != 0)
        #expect(failing.final?.phase == "failed", "\(String(describing: failing.final))")
    }

    /// Whether the installed borgmatic is 1.8 or later.
    static func borgmaticReadsTheExample() -> Bool {
        guard let run = try? ToolJourney.run(["borgmatic", "--version"], environment: [:], directory: URL(fileURLWithPath: "/"), pacing: .none, program: nil),
            let major = run.stdout.split(separator: ".").first.flatMap({ Int($0) }), let minor = run.stdout.split(separator: ".").dropFirst().first.flatMap({ Int($0) })
        else { return false }
        return major > 1 || minor >= 8
    }

    @Test(.enabled(if: try Needed.programs("rsync"), "rsync is not installed (Scripts/test installs it)"))
    func rsyncBetweenFolders() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        // Two files of 1.5 MB at about 1 MB/s: rsync's total is known once the first is done
        // (to-chk), and its redraws within the second carry its ETA.
        try ToolData.files(in: folder.appendingPathComponent("source"), count: 2, size: 1_500_000)
        let copy = try await ToolJourney.walk(service, job: "rsync", ["rsync", "-a", "--bwlimit=1000", "source/", "copy/"], directory: folder)
        // rsync's ETA is the current file's: in a copy this short it reads 0:00:00 once the total
        // is known, which is never shown as time left (its reading: HeadwayToolProgressTests).
        copy.expectHonest(label: "rsync: ")
        #expect(copy.run.stdout.isEmpty, "the meter Headway asked for is withheld: \(copy.run.stdout.prefix(200))")
        #expect(FileManager.default.contentsEqual(atPath: folder.appendingPathComponent("copy/1").path, andPath: folder.appendingPathComponent("source/1").path))
        let missing = try await ToolJourney.walk(service, job: "missing", ["rsync", "-a", "no-such-folder/", "copy/"], directory: folder, failing: true)
        missing.expectFailure(label: "rsync")
    }

    @Test(.enabled(if: try Needed.programs("rclone"), "rclone is not installed (Scripts/test installs it)"))
    func rcloneBetweenFolders() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        try ToolData.files(in: folder.appendingPathComponent("source"), count: 30, size: 100_000)
        let environment = ["RCLONE_CONFIG": folder.appendingPathComponent("rclone.conf").path]
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("rclone.conf").path, contents: Data())
        // 3 MB at 1 MiB/s: three of rclone's stats lines, a second apart; its ETA, in whole seconds
        // rounded down, says "0s" with a quarter left, which is never shown as time left (its
        // reading: HeadwayToolProgressTests).
        let copy = try await ToolJourney.walk(service, job: "rclone", ["rclone", "copy", "--bwlimit", "1M", "source", "copy"], environment: environment, directory: folder)
        copy.expectHonest(label: "rclone: copying")
        #expect(copy.run.stderr.isEmpty, "the stats Headway asked for are withheld: \(copy.run.stderr.prefix(300))")
        // rclone rounds its total down (2.861 MiB): never above the 3,000,000 bytes.
        #expect(copy.determinate.allSatisfy { $0.total! <= 3_000_000 })
        #expect(FileManager.default.contentsEqual(atPath: folder.appendingPathComponent("copy/29").path, andPath: folder.appendingPathComponent("source/29").path))
        let missing = try await ToolJourney.walk(service, job: "missing", ["rclone", "copy", "no-such-folder", "copy"], environment: environment, directory: folder, failing: true)
        missing.expectFailure(label: "rclone")
    }
}
}
