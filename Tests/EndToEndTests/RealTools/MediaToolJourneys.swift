import Foundation
import Testing

/// ffmpeg, curl, wget, dd, pv, ninja and make, the real programs, under `headway run`.
extension EndToEnd {
@Suite("Real tools: media, downloads and builds", .serialized)
struct MediaToolJourneys {
    @Test(.enabled(if: ToolJourney.has("ffmpeg")))
    func ffmpegEncodesATestPattern() throws {
        let service = try SimulatedService()
        // -re reads the generated pattern in real time: 3 s for 3 s of video.
        let encode = try ToolJourney(
            service, job: "ffmpeg", ["ffmpeg", "-hide_banner", "-re", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "3", "-c:v", "mpeg4", "out.mp4"],
            directory: service.folder)
        encode.expectHonest(label: "ffmpeg: encoding")
        #expect(encode.determinate.allSatisfy { $0.total == 3 })
        #expect(encode.run.stderr.contains("frame="), "ffmpeg's own stats line passes")
        let missing = try ToolJourney(service, job: "missing", ["ffmpeg", "-i", "no-such-file.mp4", "out2.mp4"], directory: service.folder)
        missing.expectHonest(label: "ffmpeg", determinate: false, status: 1)
    }

    @Test(.disabled("hangs in the test harness after the local server starts (curl and wget work under headway run by hand): to be found"), .enabled(if: ToolJourney.has("curl") && ToolJourney.has("wget") && ToolJourney.has("python3")))
    func curlAndWgetFromALocalServer() throws {
        let service = try SimulatedService()
        let folder = service.folder
        let payload = ToolData.random(2_500_000)
        try payload.write(to: folder.appendingPathComponent("payload.bin"))
        let server = try ThrottledServer(folder: folder, bytesPerSecond: 1_000_000)
        let url = "http://127.0.0.1:\(server.port)/payload.bin"
        let curl = try ToolJourney(service, job: "curl", ["curl", "-o", "by-curl.bin", url], directory: folder)
        curl.expectHonest(label: "curl: downloading")
        #expect(curl.run.stderr.contains("% Total"), "curl's meter passes as it was")
        #expect(try Data(contentsOf: folder.appendingPathComponent("by-curl.bin")) == payload)
        let wget = try ToolJourney(service, job: "wget", ["wget", "-O", "by-wget.bin", url], directory: folder)
        wget.expectHonest(label: "wget: downloading")
        #expect(wget.determinate.allSatisfy { $0.total == 2_500_000 })
        #expect(try Data(contentsOf: folder.appendingPathComponent("by-wget.bin")) == payload)
        let curlMissing = try ToolJourney(service, job: "curl-missing", ["curl", "-f", "-o", "x", "http://127.0.0.1:\(server.port)/none"], directory: folder)
        curlMissing.expectHonest(label: "curl", determinate: false, status: 22)
        let wgetMissing = try ToolJourney(service, job: "wget-missing", ["wget", "-O", "x", "http://127.0.0.1:\(server.port)/none"], directory: folder)
        wgetMissing.expectHonest(label: "wget", determinate: false, status: 8)
    }

    @Test(.enabled(if: ToolJourney.has("pv")))
    func pvPassesItsDataAndCountsIt() throws {
        let service = try SimulatedService()
        let payload = ToolData.random(2_500_000)
        try payload.write(to: service.folder.appendingPathComponent("payload.bin"))
        let copy = try ToolJourney(service, job: "pv", ["pv", "-L", "1m", "payload.bin"], directory: service.folder)
        copy.expectHonest(label: "pv: copying")
        #expect(copy.determinate.allSatisfy { $0.total == 2_500_000 })
        #expect(Data(copy.run.stdout.utf8).count > 0 && copy.run.stderr.isEmpty, "pv's numbers are withheld: \(copy.run.stderr.prefix(100))")
        let missing = try ToolJourney(service, job: "missing", ["pv", "no-such-file"], directory: service.folder)
        missing.expectHonest(label: "pv", determinate: false, status: 10)
    }

    @Test(.enabled(if: ToolJourney.has("dd")))
    func ddFromASlowFifo() throws {
        let service = try SimulatedService()
        let fifo = service.folder.appendingPathComponent("slow")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // A writer feeding 3 MB at about 1 MB/s, so that dd prints its progress.
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            for _ in 0..<30 {
                handle.write(Data(count: 100_000))
                usleep(100_000)
            }
            try? handle.close()
        }
        writer.start()
        let copy = try ToolJourney(service, job: "dd", ["dd", "if=slow", "of=copy.bin", "bs=64k", "iflag=fullblock"], directory: service.folder)
        // A FIFO has no size: the total comes from --size.
        copy.expectHonest(label: "dd: ", determinate: false)
        #expect(copy.run.stderr.contains("records out") && !copy.run.stderr.contains("\r"), "only the meter is withheld: \(copy.run.stderr)")
        #expect(copy.samples.contains { $0.label?.hasSuffix("copied") == true })
        let failing = try ToolJourney(service, job: "missing", ["dd", "if=no-such-file", "of=x"], directory: service.folder)
        failing.expectHonest(label: "dd", determinate: false, status: 1)
    }

    @Test(.enabled(if: ToolJourney.has("dd")))
    func ddWithItsSizeGiven() throws {
        let service = try SimulatedService()
        let fifo = service.folder.appendingPathComponent("slow")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            for _ in 0..<30 {
                handle.write(Data(count: 100_000))
                usleep(100_000)
            }
            try? handle.close()
        }
        writer.start()
        let copy = try ToolJourney(service, job: "dd-size", ["--size", "3000000", "--", "dd", "if=slow", "of=copy.bin", "bs=64k"], directory: service.folder)
        copy.expectHonest(label: "dd: copying")
    }

    @Test(.enabled(if: ToolJourney.has("ninja") && ToolJourney.has("make")))
    func ninjaAndMakeCountTheirSteps() throws {
        let service = try SimulatedService()
        let folder = service.folder
        let steps = (1...6).map { "build s\($0): wait\n" }.joined()
        try ("rule wait\n  command = sleep 0.4\n" + steps + "rule fail\n  command = false\nbuild bad: fail\n").write(to: folder.appendingPathComponent("build.ninja"), atomically: true, encoding: .utf8)
        let ninja = try ToolJourney(service, job: "ninja", ["ninja", "-j1", "s1", "s2", "s3", "s4", "s5", "s6"], directory: folder)
        ninja.expectHonest(label: "ninja")
        #expect(ninja.run.stdout.contains("[6/6]"))
        let broken = try ToolJourney(service, job: "ninja-bad", ["ninja", "bad"], directory: folder)
        broken.expectHonest(label: "ninja", determinate: false, status: 1)

        let makefile = "all:\n" + (1...5).map { "\t@echo '[\($0)/5] step \($0)'; sleep 0.4\n" }.joined() + "bad:\n\t@false\n"
        try makefile.write(to: folder.appendingPathComponent("Makefile"), atomically: true, encoding: .utf8)
        let make = try ToolJourney(service, job: "make", ["make", "all"], directory: folder)
        make.expectHonest(label: "make")
        let makeBad = try ToolJourney(service, job: "make-bad", ["make", "bad"], directory: folder)
        makeBad.expectHonest(label: "make", determinate: false, status: 2)
    }
}
}
