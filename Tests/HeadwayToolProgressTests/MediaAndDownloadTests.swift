import HeadwayToolProgress
import Testing

@Suite("ffmpeg's, apt's, curl's, wget's, dd's and pv's progress")
struct MediaAndDownloadTests {
    @Test func ffmpegWritesProgressToADescriptorOfItsOwn() throws {
        let run = try Run(["ffmpeg", "-y", "-i", "in.mp4", "out.mp4"])
        #expect(run.progress.invocation.arguments == ["ffmpeg", "-progress", "pipe:3", "-y", "-i", "in.mp4", "out.mp4"])
        #expect(run.progress.invocation.usesDescriptor)
        #expect(try Run(["ffmpeg", "-progress", "p.txt", "-i", "a", "b"]).progress.invocation.usesDescriptor == false)
    }

    @Test func ffmpegsTotalIsTheInputsDuration() throws {
        var run = try Run(["ffmpeg", "-re", "-i", "t.mp4", "-c:v", "mpeg4", "o.mp4"])
        let stderr = try Run.fixture("ffmpeg/encode.stderr")
        run.feed(.errors, stderr)
        try run.feed(.progress, fixture: "ffmpeg/encode.progress")
        #expect(run.passed[.errors] == stderr)
        #expect(run.determinate.count > 3 && run.determinate.allSatisfy { $0.total == 3 && $0.label == "ffmpeg: encoding" && $0.value! <= 3 })
        #expect(run.determinate.last!.value! > 2.9)
    }

    @Test func ffmpegsTotalFromTheCommandLine() throws {
        var run = try Run(["ffmpeg", "-re", "-f", "lavfi", "-i", "testsrc", "-t", "2", "o2.mp4"])
        try run.feed(.errors, fixture: "ffmpeg/lavfi.stderr")
        try run.feed(.progress, fixture: "ffmpeg/lavfi.progress")
        #expect(!run.determinate.isEmpty && run.determinate.allSatisfy { $0.total == 2 })
        var told = try Run(["ffmpeg", "-re", "-f", "lavfi", "-i", "testsrc", "o2.mp4"], total: 4)
        try told.feed(.progress, fixture: "ffmpeg/lavfi.progress")
        #expect(!told.determinate.isEmpty && told.determinate.allSatisfy { $0.total == 4 })
        var unknown = try Run(["ffmpeg", "-f", "lavfi", "-i", "testsrc", "o2.mp4"])
        try unknown.feed(.errors, fixture: "ffmpeg/lavfi.stderr")
        try unknown.feed(.progress, fixture: "ffmpeg/lavfi.progress")
        #expect(unknown.determinate.isEmpty && unknown.labels == ["ffmpeg: encoding"], "Duration: N/A")
    }

    @Test func aptReportsThroughItsStatusDescriptor() throws {
        let run = try Run(["apt-get", "install", "-y", "nginx"])
        #expect(run.progress.invocation.arguments == ["apt-get", "-o", "APT::Status-Fd=3", "install", "-y", "nginx"])
        #expect(try Run(["apt", "list", "--installed"]).progress.invocation.arguments == ["apt", "list", "--installed"])
    }

    @Test func aptsDownloadAndInstallShareOneScaleThatNeverGoesBack() throws {
        var run = try Run(["apt-get", "install", "-y", "hello"])
        try run.feed(.progress, fixture: "apt/install.status")
        let values = run.determinate.map { $0.value! }
        #expect(values.count > 4 && zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }, "\(values)")
        #expect(run.determinate.allSatisfy { $0.total == 100 && $0.value! <= 100 })
        #expect(run.labels.contains("apt: downloading"))
        #expect(run.labels.contains { $0.hasPrefix("apt: unpacking headway-demo-") }, "\(run.labels)")
        #expect(run.labels.contains { $0.hasPrefix("apt: configuring ") || $0.hasPrefix("apt: setting up ") || $0.hasPrefix("apt: installed ") }, "\(run.labels)")
        // The download is the first half, a stage of its own: the installation starts at 50.
        let firstInstall = try #require(run.determinate.first { $0.label != "apt: downloading" })
        #expect(firstInstall.value! >= 50)
        #expect(run.determinate.filter { $0.label == "apt: downloading" }.allSatisfy { $0.stageEnd == 50 })
        #expect(run.determinate.filter { $0.label != "apt: downloading" }.allSatisfy { $0.stageEnd == nil })
        #expect(run.progress.problem == nil)
    }

    @Test func curlsMeterPassesAndIsRead() throws {
        var run = try Run(["curl", "-o", "c.out", "http://127.0.0.1/www.bin"])
        #expect(run.progress.invocation.arguments == ["curl", "-o", "c.out", "http://127.0.0.1/www.bin"])
        let fixture = try Run.fixture("curl/download.stderr")
        run.feed(.errors, fixture)
        #expect(run.passed[.errors] == fixture)
        #expect(run.determinate.count == 4 && run.determinate.allSatisfy { $0.total == 2929 * 1024 && $0.label == "curl: downloading" })
        #expect(run.determinate[0].value == 576 * 1024 && run.determinate[0].eta == 3)
        var bar = try Run(["curl", "-#", "-o", "c.out", "http://127.0.0.1/www.bin"])
        try bar.feed(.errors, fixture: "curl/bar.stderr")
        #expect(bar.determinate.count > 3 && bar.determinate.allSatisfy { $0.value! < 100 })
    }

    @Test func wgetsDotsAndBarAreRead() throws {
        var dots = try Run(["wget", "-O", "w.out", "http://127.0.0.1/www.bin"])
        let fixture = try Run.fixture("wget/dots.stderr")
        dots.feed(.errors, fixture)
        #expect(dots.passed[.errors] == fixture)
        #expect(dots.determinate.count > 20 && dots.determinate.allSatisfy { $0.total == 3_000_000 && $0.value! <= 3_000_000 })
        #expect(dots.determinate.contains { $0.eta == 2 })
        var bar = try Run(["wget", "--progress=bar:force", "-O", "w.out", "http://127.0.0.1/www.bin"])
        try bar.feed(.errors, fixture: "wget/bar.stderr")
        #expect(bar.determinate.count > 3 && bar.determinate.contains { $0.eta != nil })
    }

    @Test func ddsProgressIsAskedForAndOnlyItWithheld() throws {
        #expect(try Run(["dd", "if=a", "of=b"]).progress.invocation.arguments == ["dd", "if=a", "of=b", "status=progress"])
        #expect(try Run(["dd", "if=a", "of=b", "status=none"]).progress.invocation.withholds.isEmpty)
        var run = try Run(["dd", "of=/dev/null", "bs=64k"], size: 3_000_000)
        let fixture = try Run.fixture("dd/progress.stderr")
        run.feed(.errors, fixture)
        // The summary dd prints anyway has the meter's form after a line feed: it passes.
        #expect(run.text(.errors).hasPrefix("28+29 records in\n28+29 records out\n3000000 bytes (3.0 MB, 2.9 MiB) copied, "))
        #expect(run.text(.errors).split(separator: "\n").count == 3)
        #expect(run.determinate.map(\.value) == [1_114_112, 2_162_688])
        // dd's own knowledge of its total: count times bs, or the input file's size.
        var counted = try Run(["dd", "if=/dev/zero", "of=x", "bs=1M", "count=3"])
        try counted.feed(.errors, fixture: "dd/progress.stderr")
        #expect(counted.determinate.allSatisfy { $0.total == 3 * 1_048_576 })
        var file = try Run(["dd", "if=www.bin", "of=x"], files: ["www.bin": 3_000_000])
        try file.feed(.errors, fixture: "dd/progress.stderr")
        #expect(file.determinate.allSatisfy { $0.total == 3_000_000 })
        var unknown = try Run(["dd", "of=/dev/null"])
        try unknown.feed(.errors, fixture: "dd/progress.stderr")
        #expect(unknown.determinate.isEmpty && unknown.labels.last == "dd: 2.1 MB copied")
    }

    @Test func pvCountsBytesOfItsFilesOrSize() throws {
        #expect(try Run(["pv", "-L", "1m", "www.bin"]).progress.invocation.arguments == ["pv", "-n", "-b", "-L", "1m", "www.bin"])
        var run = try Run(["pv", "-L", "1m", "www.bin"], files: ["www.bin": 3_000_000])
        try run.feed(.errors, fixture: "pv/bytes.stderr")
        #expect(run.text(.errors).isEmpty)
        #expect(run.determinate.map(\.value) == [1_048_576, 2_097_152, 3_000_000] && run.determinate.allSatisfy { $0.total == 3_000_000 })
        var stdin = try Run(["pv"], size: 4_000_000)
        try stdin.feed(.errors, fixture: "pv/bytes.stderr")
        #expect(stdin.determinate.allSatisfy { $0.total == 4_000_000 })
        var percent = try Run(["pv", "-n", "www.bin"])
        let fixture = try Run.fixture("pv/percent.stderr")
        percent.feed(.errors, fixture)
        #expect(percent.passed[.errors] == fixture && percent.determinate.map(\.value) == [34, 69, 100])
    }

    /// dd, rsync and curl begin each redraw with a carriage return and end it only with the next
    /// one (dd's comes a second later): a whole redraw is read at once, not a redraw late, and still
    /// withheld when it ends.
    @Test func aRedrawIsReadBeforeTheNextEndsIt() throws {
        var dd = try Run(["dd", "of=x"], size: 2_000_000)
        let meter = Array("\r1114112 bytes (1.1 MB, 1.1 MiB) copied, 1 s, 1.0 MB/s".utf8)
        let partial = dd.progress.feed(.errors, meter[0..<30])
        #expect(partial.updates.isEmpty, "half a redraw is not read")
        #expect(dd.progress.feed(.errors, meter[30...]).updates.map(\.value) == [1_114_112])
        #expect(dd.progress.feed(.errors, Array("\n2000000 bytes (2.0 MB, 1.9 MiB) copied, 1.9 s, 1.0 MB/s\n".utf8)[...]).passed == Array("2000000 bytes (2.0 MB, 1.9 MiB) copied, 1.9 s, 1.0 MB/s\n".utf8))

        var rsync = try Run(["rsync", "-a", "s/", "d/"])
        _ = rsync.progress.feed(.output, Array("\r      1,000,000  33%    1.74MB/s    0:00:00 (xfr#1, to-chk=2/4)\r".utf8)[...])
        let redraw = rsync.progress.feed(.output, Array("      1,688,128  56%    1.47MB/s    0:00:02  ".utf8)[...])
        #expect(redraw.updates.map(\.value) == [56] && redraw.updates.first?.eta == 2 && redraw.passed.isEmpty)

        var curl = try Run(["curl", "-o", "f", "u"])
        let line = curl.progress.feed(.errors, Array("\r 45 2000k   45  900k    0     0   998k      0  0:00:02  0:00:01  0:00:01  998k".utf8)[...])
        #expect(line.updates.first.map { $0.value == 900 * 1024 && $0.total == 2000 * 1024 && $0.eta == 1 } == true)
    }
}
