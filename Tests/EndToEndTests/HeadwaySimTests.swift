import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every end-to-end suite starts processes that block while they run: one test at a time.
@Suite("End to end", .serialized)
enum EndToEnd {}

/// Runs the built `headway-sim` binary as a person would.
extension EndToEnd {
@Suite("headway-sim command line")
struct HeadwaySimTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL { Binaries.url("headway-sim") }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProgramEnvironment.with(environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headway-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func headlessDemoWritesSnapshots() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.run(["demo", "--speed", "20", "--headless", "--snapshot", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("demo finished"))
        for name in ["ring.ppm", "ring.svg", "strip.ppm", "strip.svg", "oled.pbm", "oled.svg"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        // The demo ends on its success signal: every LED shows the success colour.
        let ppm = try Data(contentsOf: folder.appendingPathComponent("ring.ppm"))
        let pixels = Array(ppm.suffix(24 * 3))
        for led in 0..<24 { #expect(pixels[led * 3 + 1] > 150 && pixels[led * 3] < 80, "LED \(led)") }
        let pbm = try Data(contentsOf: folder.appendingPathComponent("oled.pbm"))
        #expect(pbm.count == "P4\n128 64\n".utf8.count + 16 * 64)
    }

    @Test func plainTextWhenNotATerminal() throws {
        // Every phase gets a frame only while frames keep up with the demo's clock: slower under emulation.
        let result = try Self.run(["demo", "--speed", String(20 / TestTime.scale)])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}["), "no escape codes when stdout is a pipe")
        for phase in ["pending", "active", "stalled", "succeeded"] { #expect(result.stdout.contains(phase), "\(phase) line") }
        #expect(result.stdout.contains("ETA"))
        #expect(result.stdout.contains("Compiling 120 files"))
    }

    /// Regression: the demo's first impression was "Fetching sources stalled 2s": it opens on a
    /// working indeterminate job.
    @Test func theDemoOpensWorkingNotStalled() throws {
        let result = try Self.run(["demo", "--speed", "5"])
        let lines = result.stdout.split(separator: "\n")
        let beforeCompiling = lines.prefix { !$0.contains("Compiling") }
        #expect(beforeCompiling.contains { $0.contains("active") && $0.contains("Fetching sources [working]") }, "\(beforeCompiling)")
        #expect(!beforeCompiling.contains { $0.contains("stalled") }, "\(beforeCompiling)")
    }

    /// Regression: `--press 12:2`, as documented, exited 1: a long press cancels the demo's job.
    /// Regression: at --speed 50 and above (frames 1.7 s of demo time apart), the press was read
    /// after the script had finished the job, and nothing was cancelled.
    @Test(arguments: [10, 200])
    func aDocumentedLongPressCancelsTheDemoJob(speed: Double) throws {
        let result = try Self.run(["demo", "--speed", String(speed / TestTime.scale), "--press", "12:2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("cancelled"), "\(result.stdout)")
    }

    /// Runs `command` in a pseudo-terminal `columns` wide (util-linux `script`), for `seconds`.
    static func inTerminal(columns: Int, seconds: Int, _ command: String) throws -> String {
        // Without NO_COLOR, which the test runner may set: the live view is what is tested.
        let shell = "stty cols \(columns) rows 50; exec env -u NO_COLOR timeout -s INT \(seconds) \(command)"
        return try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qefc", shell, "/dev/null"], environment: ["TERM": "xterm-256color"]).stdout
    }

    /// Regression: at 60 columns the live view scrolled and garbled (TerminalSizeTests reads 60
    /// columns on the screen now); a terminal narrower than any layout gets the text lines, a wide
    /// one the live view.
    @Test func aNarrowTerminalGetsTextLines() throws {
        let demo = Binaries.url("headway-sim").path + " demo --speed 8"
        let narrow = try Self.inTerminal(columns: 19, seconds: 20, demo)
        #expect(narrow.contains("Too small") && narrow.contains("active ") && !narrow.contains("\u{1B}[38;2;"), "\(narrow.prefix(400).debugDescription)")
        let wide = try Self.inTerminal(columns: 100, seconds: 20, demo)
        #expect(wide.contains("\u{1B}[") && wide.contains("oled 128x64"), "\(wide.prefix(400).debugDescription)")
    }

    /// In a terminal, SIGHUP reloads `headway-sim serve` while the terminal is there, and the
    /// hangup of a closed terminal stops it (regression: it was left running, orphaned; then every
    /// SIGHUP stopped it, though `--help` calls SIGHUP a reload).
    @Test func aHangupReloadsAndClosingTheTerminalStopsAnInteractiveServe() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("s.sock").path
        let serve = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qefc", "exec \(Binaries.url("headway-sim").path) serve --socket \(socket)", "/dev/null"],
            environment: ["TERM": "xterm-256color"])
        #expect(BackgroundProcess.eventually(within: 5) { FileManager.default.fileExists(atPath: socket) })
        let simulator = try #require(BackgroundProcess.children(of: serve.pid).first)
        kill(simulator, SIGHUP)
        Thread.sleep(forTimeInterval: 1)
        #expect(kill(simulator, 0) == 0 && FileManager.default.fileExists(atPath: socket), "a SIGHUP with the terminal there is a reload")
        // The terminal goes: `script` holds its master side.
        kill(serve.pid, SIGKILL)
        #expect(BackgroundProcess.eventually(within: 3) { kill(simulator, 0) != 0 }, "serve stopped")
        #expect(!FileManager.default.fileExists(atPath: socket), "and removed its socket")
    }

    @Test func renderWritesTheStateAsked() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.run(["render", "--device", "strip60", "--value", "30", "--total", "60", "--out", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let ppm = Array(try Data(contentsOf: folder.appendingPathComponent("strip.ppm")))
        let pixels = Array(ppm.suffix(60 * 3))
        let lit = (0..<60).filter { pixels[$0 * 3 + 2] > 100 }
        #expect(lit.count == 30, "half of 60 LEDs lit, got \(lit.count)")
        // Each kind of output writes the files `render --help` names.
        let help = try Self.run(["render", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (device, files, words) in [
            ("oled128x64", ["oled.pbm", "oled.svg"], "NAME.pbm (NAME.pgm when greyscale) and NAME.svg for an OLED"),
            ("ssd1327", ["oled.pgm", "oled.svg"], "NAME.pbm (NAME.pgm when greyscale) and NAME.svg for an OLED"),
            ("display-hat-mini", ["tft.png", "tft.ppm"], "NAME.ppm and NAME.png for a colour TFT"),
        ] {
            let out = folder.appendingPathComponent(device)
            #expect(try Self.run(["render", "--device", device, "--value", "0.4", "--out", out.path]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == files, "\(device)")
            #expect(help.contains(words), "\(help)")
        }
    }

    @Test(arguments: [
        (["render", "--device", "lamp3", "--out", "/tmp/x"], "unknown device \"lamp3\""),
        (["render", "--device", "strip60", "--style", "bar", "--out", "/tmp/x"], "use --style led"),
        (["render", "--device", "oled128x64", "--value=-2", "--out", "/tmp/x"], "finite number ≥ 0"),
        (["render", "--device", "oled128x64", "--at", "1", "--out", "/tmp/x"], "grace delay"),
        (["render", "--device", "ring24", "--outcome", "won", "--out", "/tmp/x"], "succeeded, failed, cancelled"),
        (["demo", "--speed", "0"], "--speed 0"),
    ])
    func badInputSaysWhatToFix(arguments: [String], message: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}

}


extension EndToEnd {
@Suite("headway-sim captures")
struct CaptureTests {
    @Test func captureDecodesToTheSnapshotFrame() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("c.jsonl").path
        let demo = try HeadwaySimTests.run(["demo", "--speed", "20", "--headless", "--capture", capture, "--stats", "--snapshot", folder.appendingPathComponent("snap").path])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("protocol or timing errors: 0"))
        for bus in ["i2c-1 (I2C, 100 kHz):", "spi0.0 (SPI):", "spi1.0 (SPI):", "pinctrl-bcm2711 (GPIO"] {
            #expect(demo.stdout.contains(bus), "\(bus) in --stats")
        }
        #expect(demo.stdout.contains("per frame: bytes median"))
        let lines = try String(contentsOfFile: capture, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("{\"t\":") && $0.contains("\"bus\":\"i2c-1\",\"addr\":60,\"write\":\"00ae") })
        #expect(lines.contains { $0.contains("\"bus\":\"spi0.0\",\"hz\":2380952,\"mode\":0,\"write\":\"0000") })
        #expect(lines.contains { $0.contains("\"chip\":\"pinctrl-bcm2711\",\"lines\":[23,24],\"values\":[") })
        let replay = try HeadwaySimTests.run(["replay", capture, "--out", folder.appendingPathComponent("replayed").path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let snapshot = try Data(contentsOf: folder.appendingPathComponent("snap/oled.pbm"))
        let replayed = try Data(contentsOf: folder.appendingPathComponent("replayed/oled.pbm"))
        #expect(snapshot == replayed)
    }

    @Test func unpluggedDisplayComesBackWithoutRestart() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try HeadwaySimTests.run(["demo", "--speed", "20", "--headless", "--snapshot", folder.appendingPathComponent("clean").path])
        let faulty = try HeadwaySimTests.run(["demo", "--speed", "20", "--headless", "--unplug", "6:2", "--nack", "12", "--snapshot", folder.appendingPathComponent("faulty").path])
        #expect(clean.status == 0 && faulty.status == 0, "\(faulty.stderr)")
        #expect(faulty.stdout.contains("could not be drawn: no device at 0x3C on i2c-1"))
        let a = try Data(contentsOf: folder.appendingPathComponent("clean/oled.pbm"))
        let b = try Data(contentsOf: folder.appendingPathComponent("faulty/oled.pbm"))
        #expect(a == b, "after the faults the display shows the same final picture")
    }

    /// Regression: unplugged and plugged back while nothing was being sent (here during the grace
    /// delay), the OLED stayed dark for the rest of the job.
    @Test func aDisplayReplugedWhileIdleComesBack() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = try HeadwaySimTests.run(["demo", "--speed", "20", "--headless", "--snapshot", folder.appendingPathComponent("clean").path])
        let replugged = try HeadwaySimTests.run(["demo", "--speed", "4", "--headless", "--unplug", "0.5:0.5", "--snapshot", folder.appendingPathComponent("replugged").path])
        #expect(clean.status == 0 && replugged.status == 0, "\(replugged.stderr)")
        let a = try Data(contentsOf: folder.appendingPathComponent("clean/oled.pbm"))
        let b = try Data(contentsOf: folder.appendingPathComponent("replugged/oled.pbm"))
        #expect(a == b, "the re-plugged display shows the same final picture")
        #expect(b.dropFirst(10).contains { $0 != 0 }, "and it is not blank")
    }

    @Test func replayReportsProtocolErrors() throws {
        let folder = HeadwaySimTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("bad.jsonl")
        try Data("{\"t\":0,\"bus\":\"i2c-1\",\"addr\":60,\"write\":\"00208d\"}\n".utf8).write(to: capture)
        let replay = try HeadwaySimTests.run(["replay", capture.path, "--out", folder.path])
        #expect(replay.status != 0)
        #expect(replay.stderr.contains("memory addressing mode 0x8D is invalid"))
    }
}
}
