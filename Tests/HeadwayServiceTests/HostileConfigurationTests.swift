import Foundation
import HeadwayService
import Testing

/// Configuration files an attacker or an accident gives: each refused with what and where, without
/// reading more than the limit, without blocking, and with no outside text reaching a terminal raw.
@Suite("Hostile configuration files")
struct HostileConfigurationTests {
    static func refusal(_ path: String) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    static func folder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headway-hostile-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `/dev/zero` would be read for ever (the whole file read before its size was checked took
    /// 8.6 GB in 30 s); a FIFO would block for ever; a folder is not a file.
    @Test func devicesFIFOsAndFoldersAreRefusedBeforeAnyByteIsRead() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, says) in [("/dev/zero", "it is a device"), (fifo, "it is a FIFO"), (folder.path, "it is a folder")] {
            let error = try #require(Self.refusal(path), "\(path)")
            #expect(error.description.contains(says) && error.description.contains("cannot read the configuration"), "\(error)")
        }
    }

    /// A 1 GB file: at most the limit and one byte are read.
    @Test func aHugeFileIsRefusedAfterTheLimitAndOneByte() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.yaml").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 1 << 30) == 0)
        let before = Self.bytesReadByThisThread()
        let error = try #require(Self.refusal(path))
        let read = Self.bytesReadByThisThread() - before
        #expect(error.description.contains("it is larger than \(ConfigurationLoader.maxFileBytes) bytes"), "\(error)")
        #expect(read <= ConfigurationLoader.maxFileBytes + 1 + 4096, "read \(read) bytes of a 1 GB file")
    }

    /// What this thread has read through system calls (`rchar` of /proc/thread-self/io): the load
    /// runs on the calling thread, so other tests' reads do not count.
    static func bytesReadByThisThread() -> Int {
        let text = (try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") } ?? ""
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// An unknown key with an escape sequence in it, nested or not, and a 200 KB key: the error
    /// line carries neither the escape nor the whole key.
    @Test(arguments: [
        "outputs:\n  - name: a\n    driver: leds0\n    count: 8\n\"\\x1b]0;PWNED\\x07\": 1\n",
        "outputs:\n  - name: a\n    driver: leds0\n    count: 8\n    \"\\e[31mred\": 1\n",
        "outputs:\n  - name: a\n    driver: leds0\n    count: 8\n" + String(repeating: "k", count: 200_000) + ": 1\n",
    ])
    func unknownKeysAreShownFilteredAndShort(yaml: String) throws {
        do {
            _ = try ConfigurationLoader.parse(yaml, source: "evil\u{1B}[2J.yaml")
            Issue.record("refused")
        } catch {
            let line = error.description
            #expect(line.contains("unknown key"), "\(line.prefix(200))")
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription.prefix(300))")
            #expect(line.utf8.count < 1200, "\(line.utf8.count) bytes")
        }
    }
}
