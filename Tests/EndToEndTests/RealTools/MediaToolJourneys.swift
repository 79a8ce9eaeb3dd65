import Foundation
import HeadwayCore
import Testing

/// ffmpeg, curl, wget, dd and pv, the real programs, under `headway run`.
extension RealPrograms {
@Suite("Real tools: media, downloads and copies")
struct MediaToolJourneys {
    @Test(.enabled(if: try Needed.programs("ffmpeg"), "ffmpeg is not installed (Scripts/test installs it)"))
    func ffmpegEncodesATestPattern() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        // -re reads the generated pattern in real time: 2 s for 2 s of video.
        let encode = try await ToolJourney.walk(
            service, job: "ffmpeg", ["ffmpeg", "-hide_banner", "-re", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-t", "2", "-c:v", "mpeg4", "out.mp4"],
            directory: service.folder)
        encode.expectHonest(label: "ffmpeg: encoding", eta: ToolJourney.ToolETA.none)
        #expect(encode.determinate.allSatisfy { $0.total == 2 && $0.unit == .seconds }, "seconds of output, read as a duration")
        #expect(encode.run.stderr.contains("frame="), "ffmpeg's own stats line passes")
        let missing = try await ToolJourney.walk(service, job: "missing", ["ffmpeg", "-i", "no-such-file.mp4", "out2.mp4"], directory: service.folder, failing: true)
        missing.expectFailure(label: "ffmpeg")
    }

    @Test(.enabled(if: try Needed.programs("curl", "wget", "python3"), "curl, wget or python3 is not installed (Scripts/test installs them)"))
    func curlAndWgetFromALocalServer() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let folder = service.folder
        // Five seconds each: long enough for the service to say how long is left (it says nothing
        // before three seconds of progress).
        let payload = ToolData.random(5_000_000)
        try payload.write(to: folder.appendingPathComponent("payload.bin"))
        let server = try await ToolJourney.blocking { try ThrottledServer(folder: folder, bytesPerSecond: 1_000_000) }
        let url = "http://127.0.0.1:\(server.port)/payload.bin"
        let curl = try await ToolJourney.walk(service, job: "curl", ["curl", "-o", "by-curl.bin", url], directory: folder)
        curl.expectHonest(label: "curl: downloading", eta: .given)
        #expect(curl.run.stderr.contains("% Total"), "curl's meter passes as it was")
        // curl cuts its sizes down (4882k): never above the 5,000,000 bytes.
        #expect(curl.determinate.allSatisfy { $0.total! <= 5_000_000 && $0.unit == .binaryBytes }, "curl counts in KiB")
        #expect(try Data(contentsOf: folder.appendingPathComponent("by-curl.bin")) == payload)
        let wget = try await ToolJourney.walk(service, job: "wget", ["wget", "-O", "by-wget.bin", url], directory: folder)
        wget.expectHonest(label: "wget: downloading", eta: .given)
        #expect(wget.determinate.allSatisfy { $0.total == 5_000_000 && $0.unit == .binaryBytes })
        #expect(wget.run.stderr.contains("Length: 5000000"), "wget's dots pass as they were")
        #expect(try Data(contentsOf: folder.appendingPathComponent("by-wget.bin")) == payload)
        let curlMissing = try await ToolJourney.walk(service, job: "curl-missing", ["curl", "-f", "-o", "x", "http://127.0.0.1:\(server.port)/none"], directory: folder, failing: true)
        curlMissing.expectFailure(label: "curl")
        let wgetMissing = try await ToolJourney.walk(service, job: "wget-missing", ["wget", "-O", "x", "http://127.0.0.1:\(server.port)/none"], directory: folder, failing: true)
        wgetMissing.expectFailure(label: "wget")
    }

    @Test(.enabled(if: try Needed.programs("pv"), "pv is not installed (Scripts/test installs it)"))
    func pvPassesItsDataAndCountsIt() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let payload = ToolData.random(2_000_000)
        try payload.write(to: service.folder.appendingPathComponent("payload.bin"))
        let copy = try await ToolJourney.walk(service, job: "pv", ["pv", "-L", "1m", "payload.bin"], directory: service.folder)
        copy.expectHonest(label: "pv: copying", eta: ToolJourney.ToolETA.none)
        #expect(copy.determinate.allSatisfy { $0.total == 2_000_000 && $0.unit == .binaryBytes })
        #expect(copy.run.output == payload && copy.run.stderr.isEmpty, "pv's numbers are withheld: \(copy.run.stderr.prefix(100))")
        let missing = try await ToolJourney.walk(service, job: "missing", ["pv", "no-such-file"], directory: service.folder, failing: true)
        missing.expectFailure(label: "pv")
    }

    /// dd copying what arrives on its standard input (`… | dd of=…`) at about 1 MB/s, so that it
    /// prints its progress: indeterminate without a size, determinate with `--size`.
    @Test(.enabled(if: try Needed.programs("dd", installedBy: "coreutils"), "dd is not installed"))
    func ddFromAPipe() async throws {
        let service = try await ToolJourney.blocking { try SimulatedService() }
        let payload = ToolData.random(2_000_000)
        let counted = try await ToolJourney.walk(service, job: "dd", ["dd", "of=copy.bin", "bs=64k"], directory: service.folder, pacing: .init(input: payload))
        // A pipe has no size: the label counts the bytes.
        counted.expectHonest(label: "dd: ", determinate: false, eta: ToolJourney.ToolETA.none)
        #expect(counted.samples.contains { $0.label?.hasSuffix("copied") == true })
        #expect(counted.run.stderr.contains("records out") && !counted.run.stderr.contains("\r"), "only the meter is withheld: \(counted.run.stderr)")
        #expect(try Data(contentsOf: service.folder.appendingPathComponent("copy.bin")) == payload)

        let sized = try await ToolJourney.walk(
            service, job: "dd-size", ["--size", "2000000", "--", "dd", "of=copy.bin", "bs=64k"], directory: service.folder, pacing: .init(input: payload))
        sized.expectHonest(label: "dd: copying", eta: ToolJourney.ToolETA.none)
        #expect(sized.determinate.allSatisfy { $0.total == 2_000_000 && $0.unit == .bytes }, "dd's bytes, read in MB")

        let failing = try await ToolJourney.walk(service, job: "missing", ["dd", "if=no-such-file", "of=x"], directory: service.folder, failing: true)
        failing.expectFailure(label: "dd")
    }
}
}
