import Foundation
import Testing

/// `headway run` and `headway pipe` between a command and its reader, as a shell pipeline sees
/// them: output at the speed of a pipe, a reader that goes away seen as without Headway, and
/// Headway's own warnings on lines of their own.
extension EndToEnd {
@Suite("headway run and pipe in a pipeline")
struct RunPassageTests {
    /// Runs `script` with bash (`pipefail`: a pipeline's status is its last failing command's),
    /// ended after `seconds` (then its status is 124), with SIGPIPE's default handling as a terminal
    /// gives it (or ignored: `pipes`), whatever the test runner has.
    static func bash(_ script: String, in service: SimulatedService, seconds: Double, pipes: String = "--default-signal=PIPE") throws -> SimulatedService.Run {
        try SimulatedService.run(
            URL(fileURLWithPath: "/usr/bin/env"), [pipes, "timeout", String(Int(TestTime.scaled(seconds))), "/bin/bash", "-o", "pipefail", "-c", script],
            environment: ["HEADWAY_SOCKET": service.socket])
    }

    static func file(_ bytes: Int, lines: Bool) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("passage-\(UUID().uuidString)")
        var data = Data(capacity: bytes)
        if lines {
            var number = 0
            while data.count < bytes {
                number += 1
                data.append(contentsOf: Array("line \(number) of the build log, no progress here\n".utf8))
            }
        } else {
            var generator = SystemRandomNumberGenerator()
            data = Data((0..<bytes / 8).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } })
        }
        try data.write(to: url)
        return url
    }

    /// Regression: every line was decoded and matched by regular expressions, at about 1 MB/s
    /// (`headway run -- cat` of 200 MB took 3 minutes where `cat | cat` took 0.2 s). 64 MB of
    /// binary output and 60 MB of a build log's lines now pass in seconds, even in a debug build.
    @Test func outputPassesAtTheSpeedOfAPipe() throws {
        let service = try SimulatedService()
        for lines in [false, true] {
            let data = try Self.file(lines ? 60_000_000 : 64_000_000, lines: lines)
            defer { try? FileManager.default.removeItem(at: data) }
            let run = try Self.bash("headway --job copy run -- cat '\(data.path)' | cksum; cksum < '\(data.path)'", in: service, seconds: 60)
            let sums = run.stdout.split(separator: "\n")
            #expect(run.status == 0 && sums.count == 2 && sums[0] == sums[1], "passed byte for byte: \(run.stdout) \(run.stderr)")
            #expect(run.seconds < TestTime.scaled(10), "\(lines ? "lines" : "bytes"): \(run.seconds) s")
        }
    }

    /// Regression: `headway run -- yes | head -1` never ended (SIGPIPE ignored, writes unchecked).
    /// The command sees its reader go as without Headway, and the pipeline's status is 141, as
    /// `yes | head -1`'s is; `headway pipe` ends the same way.
    @Test func aReaderThatGoesAwayEndsThePipelineAsWithoutHeadway() throws {
        let service = try SimulatedService()
        let direct = try Self.bash("yes | head -1", in: service, seconds: 10)
        let run = try Self.bash("headway --job yes run -- yes | head -1", in: service, seconds: 10)
        #expect(direct.status == 141 && run.status == 141, "\(run.status) \(run.stderr)")
        #expect(run.stdout == "y\n")
        // The command was ended by SIGPIPE, as a shell shows: its job failed with that status.
        let stderrReader = try Self.bash("headway --job noisy run -- sh -c 'yes >&2' 2>&1 >/dev/null | head -c 4", in: service, seconds: 10)
        #expect(stderrReader.status == 141, "\(stderrReader.stderr)")
        let pipe = try Self.bash("yes | headway --job p pipe | head -c 100000 >/dev/null", in: service, seconds: 10)
        #expect(pipe.status == 141 && !pipe.stderr.contains("Broken pipe"), "\(pipe.status) \(pipe.stderr)")
        #expect(try BackgroundProcess.eventually(within: 3) { try service.status().first { $0.job == "yes" }?.phase == "failed" })
        // Started with SIGPIPE ignored (some CI runners do), yes gets EPIPE and says so, with and
        // without Headway alike.
        let ignoredDirect = try Self.bash("yes | head -1", in: service, seconds: 10, pipes: "--ignore-signal=PIPE")
        let ignored = try Self.bash("headway --job ignored run -- yes | head -1", in: service, seconds: 10, pipes: "--ignore-signal=PIPE")
        #expect(ignoredDirect.status == 1 && ignored.status == ignoredDirect.status, "\(ignoredDirect.status) \(ignored.status) \(ignored.stderr)")
        #expect(ignored.stderr.contains("Broken pipe"), "\(ignored.stderr)")
    }

    /// Regression: a warning of Headway's was appended to the tool's unfinished line (mid-meter).
    @Test func warningsStartOnALineOfTheirOwn() throws {
        let service = try SimulatedService()
        // A meter redrawn with carriage returns, then a problem Headway warns about.
        let run = try Self.bash(#"headway --job m run -- sh -c 'printf "50%%\r"; sleep 0.3; printf "40%%\r"; sleep 0.3' 2>&1"#, in: service, seconds: 10)
        let warning = run.stdout.range(of: "headway: warning: cannot read generic's progress")
        #expect(warning != nil, "\(run.stdout)")
        if let warning { #expect(run.stdout.utf8[..<warning.lowerBound].last == UInt8(ascii: "\n"), "\(run.stdout.debugDescription)") }
    }
}
}
