import Foundation
import Testing

/// restic, borg, rsync and rclone, the real programs, on data each test makes, under `headway run`.
extension EndToEnd {
@Suite("Real tools: backups", .serialized)
struct BackupToolJourneys {
    @Test(.enabled(if: ToolJourney.has("restic")))
    func resticBackupAndCheck() throws {
        let service = try SimulatedService()
        let folder = service.folder
        let environment = ["RESTIC_PASSWORD": "headway", "RESTIC_REPOSITORY": folder.appendingPathComponent("repository").path]
        _ = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/env"), ["restic", "init"], environment: environment)
        // 25,000 small files: restic needs a few seconds, so its scan ends and its percent and ETA show.
        try ToolData.files(in: folder.appendingPathComponent("data"), count: 25_000, size: 1024)
        let backup = try ToolJourney(service, job: "restic", ["restic", "backup", "data"], environment: environment, directory: folder)
        backup.expectHonest(label: "restic: ")
        #expect(backup.samples.contains { $0.label == "restic: scanning" } || backup.samples.first?.label == "restic backup data")
        #expect(backup.determinate.allSatisfy { $0.label == "restic: backing up" && $0.total! <= 25_000 * 1024 + 1024 }, "\(backup.determinate)")
        // What restic prints without Headway: no status lines.
        #expect(backup.run.stdout.contains("processed 25000 files") && !backup.run.stdout.contains("[0:0"), "\(backup.run.stdout)")

        let check = try ToolJourney(service, job: "check", ["restic", "check", "--read-data"], environment: environment, directory: folder)
        check.expectHonest(label: "restic: checking")
        #expect(check.run.stdout.contains("100.00%"), "restic's own last status is shown: \(check.run.stdout)")

        let missing = try ToolJourney(service, job: "missing", ["restic", "backup", "no-such-folder"], environment: environment, directory: folder)
        missing.expectHonest(label: "restic", determinate: false, status: 1)
    }

    @Test(.enabled(if: ToolJourney.has("borg")))
    func borgCreateAndExtract() throws {
        let service = try SimulatedService()
        let folder = service.folder
        let environment = ["BORG_PASSPHRASE": "headway", "BORG_REPO": folder.appendingPathComponent("repository").path, "BORG_BASE_DIR": folder.path]
        _ = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/env"), ["borg", "init", "-e", "repokey"], environment: environment)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try ToolData.text(8_000_000).write(to: folder.appendingPathComponent("data/big.txt"))
        // lzma makes borg take a few seconds over 8 MB.
        let create = try ToolJourney(service, job: "create", ["borg", "create", "-C", "lzma,6", "--stats", "::first", "data"], environment: environment, directory: folder)
        // borg create knows no total: indeterminate, its label counting.
        create.expectHonest(label: "borg: ", determinate: false)
        #expect(create.samples.contains { $0.label?.hasSuffix("MB") == true && $0.total == nil }, "\(create.samples.compactMap(\.label))")
        #expect(!create.run.stderr.contains("\r"), "borg's meter is withheld")
        #expect(create.run.stdout.contains("Archive name: first") || create.run.stderr.contains("Archive name: first"), "--stats passes: \(create.run.stdout)")

        let target = folder.appendingPathComponent("restore")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let extract = try ToolJourney(service, job: "extract", ["borg", "extract", "::first"], environment: environment, directory: target)
        extract.expectHonest(label: "borg: extracting")
        #expect(FileManager.default.contentsEqual(atPath: target.appendingPathComponent("data/big.txt").path, andPath: folder.appendingPathComponent("data/big.txt").path))

        let missing = try ToolJourney(service, job: "missing", ["borg", "extract", "::no-such-archive"], environment: environment, directory: target)
        missing.expectHonest(label: "borg", determinate: false, status: 2)
    }

    @Test(.enabled(if: ToolJourney.has("rsync")))
    func rsyncBetweenFolders() throws {
        let service = try SimulatedService()
        let folder = service.folder
        try ToolData.files(in: folder.appendingPathComponent("source"), count: 40, size: 100_000)
        let copy = try ToolJourney(service, job: "rsync", ["rsync", "-a", "--bwlimit=1500", "source/", "copy/"], directory: folder)
        copy.expectHonest(label: "rsync: ")
        #expect(copy.run.stdout.isEmpty, "the meter Headway asked for is withheld: \(copy.run.stdout.prefix(200))")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy/0/39").path))
        let missing = try ToolJourney(service, job: "missing", ["rsync", "-a", "no-such-folder/", "copy/"], directory: folder)
        missing.expectHonest(label: "rsync", determinate: false, status: 23)
    }

    @Test(.enabled(if: ToolJourney.has("rclone")))
    func rcloneBetweenFolders() throws {
        let service = try SimulatedService()
        let folder = service.folder
        try ToolData.files(in: folder.appendingPathComponent("source"), count: 40, size: 100_000)
        let environment = ["RCLONE_CONFIG": folder.appendingPathComponent("rclone.conf").path]
        FileManager.default.createFile(atPath: folder.appendingPathComponent("rclone.conf").path, contents: Data())
        let copy = try ToolJourney(service, job: "rclone", ["rclone", "copy", "--bwlimit", "1.5M", "source", "copy"], environment: environment, directory: folder)
        copy.expectHonest(label: "rclone: copying")
        #expect(copy.run.stderr.isEmpty, "the stats Headway asked for are withheld: \(copy.run.stderr.prefix(300))")
        // rclone rounds its total to 3.815 MiB.
        #expect(copy.determinate.allSatisfy { $0.total! <= 4_001_000 })
        let missing = try ToolJourney(service, job: "missing", ["rclone", "copy", "no-such-folder", "copy"], environment: environment, directory: folder)
        missing.expectHonest(label: "rclone", determinate: false, status: 3)
    }
}
}
