import HeadwayToolProgress
import Testing

/// Whatever a tool prints: no crash, nothing shown beyond what it has done, its output passed on
/// untouched, and one problem said.
@Suite("tool output that cannot be trusted")
struct BadInputTests {
    @Test func aToolThatLiesIsHeldToItsTotal() throws {
        var run = try Run(["sh", "-c", "lies"])
        let lines = "10%\n150%\n40%\n20%\nNaN%\n[5/3]\n[3/0]\n"
        run.feed(.output, Array(lines.utf8))
        #expect(run.text(.output) == lines)
        #expect(run.determinate.allSatisfy { $0.value! <= $0.total! && $0.value!.isFinite })
        #expect(run.progress.problem != nil)

        var apt = try Run(["apt-get", "install", "x"])
        apt.feed(.progress, Array("pmstatus:x:nan:Unpacking x\npmstatus:x:250:Unpacking x\npmstatus:x:-5:Unpacking x\nsomething else\n".utf8))
        #expect(apt.determinate.allSatisfy { $0.value! <= $0.total! && $0.value! >= 0 })
        #expect(apt.progress.problem != nil)
    }

    @Test func wrongNumbersAreSaidOnce() throws {
        var run = try Run(["rclone", "copy", "--use-json-log", "a", "b"])
        let records = """
            {"msg":"x","stats":{"bytes":500,"totalBytes":100}}
            {"msg":"x","stats":{"bytes":-1,"totalBytes":100}}
            {"msg":"x","stats":{"bytes":"many","totalBytes":100}}

            """
        run.feed(.errors, Array(records.utf8))
        #expect(run.determinate.allSatisfy { $0.value! <= 100 })
        var problems = 0
        while run.progress.takeProblem() != nil { problems += 1 }
        #expect(problems == 1)
    }

    @Test func aLineOf10MBPassesUntouchedInBoundedMemory() throws {
        for (arguments, stream) in [(["restic", "backup", "x"], ToolStream.output), (["sh", "-c", "x"], .output), (["dd", "of=x"], .errors)] {
            var run = try Run(arguments)
            var line = [UInt8](repeating: UInt8(ascii: "7"), count: 10_000_000)
            line += Array("%\n[0:01] 50.00%  1 / 2 packs\n".utf8)
            var passed: [UInt8] = []
            var start = 0
            var largest = 0
            while start < line.count {
                let end = min(line.count, start + 16384)
                let result = run.progress.feed(stream, line[start..<end])
                passed += result.passed
                // What waits is never more than a line's limit: memory stays bounded.
                largest = max(largest, end - start - result.passed.count)
                start = end
            }
            passed += run.progress.end(stream).passed
            #expect(passed.count >= 10_000_000)
            #expect(Array(passed.prefix(10_000_002)) == Array(line.prefix(10_000_002)), "\(arguments): passed untouched")
            #expect(largest <= ToolProgress.maxLineBytes)
            #expect(run.progress.problem?.contains("64 KiB") == true)
        }
    }

    @Test func binaryOutputPassesUntouched() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for arguments in [["restic", "backup", "x"], ["borg", "create", "::a", "x"], ["rsync", "-a", "s", "d"], ["pv", "x"], ["cat", "x"]] {
            for stream in [ToolStream.output, .errors] {
                var run = try Run(arguments)
                run.feed(stream, bytes, piece: 4096)
                let withholds = run.progress.invocation.withholds.contains(stream)
                if !withholds { #expect(run.passed[stream] == bytes, "\(arguments)") }
                #expect(run.determinate.allSatisfy { $0.value! <= $0.total! })
            }
        }
    }

    @Test func aPromptWithoutALineEndIsShownWhenReleased() throws {
        var run = try Run(["restic", "backup", "x"])
        let result = run.progress.feed(.output, Array("enter password for repository: ".utf8)[...])
        #expect(result.passed.isEmpty && run.progress.isWaiting(.output))
        #expect(String(decoding: run.progress.release(.output), as: UTF8.self) == "enter password for repository: ")
        #expect(String(decoding: run.progress.feed(.output, Array("\n".utf8)[...]).passed, as: UTF8.self) == "\n")
    }

    @Test func unknownFormatsAreRefused() {
        #expect(throws: ToolCatalogue.UnknownFormat.self) { try Run(["x"], format: "tar") }
    }
}
