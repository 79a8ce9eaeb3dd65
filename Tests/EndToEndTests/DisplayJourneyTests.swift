import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every OLED controller and module through the programs as a user runs them: `headway-sim render`
/// with a capture that `replay` decodes into the same glass, a configuration of every controller
/// on I2C and SPI served with a job on each, the demo on an SPI display, and the journey of a
/// module's owner: the preset, doctor's word on it, its picture, a job from a hook.
extension EndToEnd {
    @Suite("every display, end to end")
    struct DisplayJourneyTests {
        typealias Sim = HeadwaySimTests

        /// Every controller's modules, on I2C and on SPI (`CONTROLLER-WxH[@spi]`).
        static let devices = [
            "ssd1306-128x64", "ssd1306-128x32", "ssd1306-64x48", "sh1106-128x64", "ssd1309-128x64", "ssd1305-128x32", "ssd1305-128x64",
            "ssd1315-128x64", "sh1107-128x128", "sh1107-64x128", "ssd1327-128x128", "ssd1327-96x96",
        ].flatMap { [$0, $0 + "@spi"] }

        /// The picture file a display's snapshot is in: PGM for greyscale, else PBM.
        static func picture(_ folder: URL, _ name: String) throws -> Data {
            let grey = folder.appendingPathComponent(name + ".pgm")
            return try Data(contentsOf: FileManager.default.fileExists(atPath: grey.path) ? grey : folder.appendingPathComponent(name + ".pbm"))
        }

        /// Whether a PBM or PGM picture has a lit pixel (the raster after the header's last line).
        static func isLit(_ picture: Data) -> Bool {
            let bytes = Array(picture)
            let headerLines = bytes.starts(with: Array("P5".utf8)) ? 3 : 2
            var newlines = 0, index = 0
            while newlines < headerLines, index < bytes.count {
                if bytes[index] == 0x0A { newlines += 1 }
                index += 1
            }
            return bytes[index...].contains { $0 != 0 }
        }

        @Test(arguments: devices)
        func renderedThenReplayedTheGlassIsTheSame(device: String) throws {
            let folder = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let capture = folder.appendingPathComponent("c.jsonl").path
            let render = try Sim.run(["render", "--device", device, "--value", "0.42", "--label", "Build #1042", "--capture", capture, "--out", folder.appendingPathComponent("render").path])
            #expect(render.status == 0, "\(render.stderr)")
            let replay = try Sim.run(["replay", capture, "--device", device, "--out", folder.appendingPathComponent("replay").path])
            #expect(replay.status == 0, "\(replay.stderr)")
            let rendered = try Self.picture(folder.appendingPathComponent("render"), "oled"), replayed = try Self.picture(folder.appendingPathComponent("replay"), "oled")
            #expect(Self.isLit(rendered) && rendered == replayed, "the capture replays to the rendered glass")
        }

        /// The display presets drawn from their board and HAT, and their captures replayed from the
        /// same presets (the SPI ones with their D/C line's levels from the capture).
        @Test(arguments: ["waveshare-oled-hat", "adafruit-oled-bonnet-2in23", "sh1107-128x128", "seeed-grove-oled-1in12", "ssd1309-2in42", "ssd1306-spi"])
        func aPresetRendersAndReplays(hat: String) throws {
            let folder = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let capture = folder.appendingPathComponent("c.jsonl").path
            let preset = ["--board", "raspberry-pi-4", "--hat", hat]
            let render = try Sim.run(["render"] + preset + ["--value", "0.42", "--capture", capture, "--out", folder.appendingPathComponent("render").path])
            #expect(render.status == 0, "\(render.stderr)")
            let replay = try Sim.run(["replay", capture] + preset + ["--out", folder.appendingPathComponent("replay").path])
            #expect(replay.status == 0, "\(replay.stderr)")
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("render").path).first { $0.hasSuffix(".svg") }?.dropLast(4))
            let rendered = try Self.picture(folder.appendingPathComponent("render"), String(name))
            let replayed = try Self.picture(folder.appendingPathComponent("replay"), String(name))
            #expect(Self.isLit(rendered) && rendered == replayed)
        }

        /// One configuration with every controller, on I2C and on SPI, served; a job shows on each
        /// and no chip found a byte out of place.
        @Test func aJobShowsOnEveryControllerServed() throws {
            let yaml = """
                outputs:
                  - { name: s1306, driver: ssd1306, bus: i2c-1, address: 0x3c }
                  - { name: s1107, driver: sh1107, bus: i2c-1, address: 0x3d, rotation: 90, size: 64x128 }
                  - { name: s1327, driver: ssd1327, bus: i2c-2, size: 96x96, style: ring }
                  - { name: s1315, driver: ssd1315, bus: i2c-3 }
                  - { name: s1106, driver: sh1106, bus: spi0.0, dc: 24, reset: 25 }
                  - { name: s1309, driver: ssd1309, bus: spi0.1, dc: 22, reset: 27, rotation: 180 }
                  - { name: s1305, driver: ssd1305, bus: spi1.0, dc: 5, reset: 6, size: 128x32 }
                  - { name: grey, driver: ssd1327, bus: spi1.1, dc: 12, reset: 13 }
                timings:
                  grace: 0.2

                """
            let served = try SimulatedService.serving(yaml)
            try served.headway(["--job", "all", "begin", "--label", "every display", "--total", "100"])
            try served.headway(["--job", "all", "set", "42"])
            usleep(UInt32(TestTime.scaled(1.0) * 1_000_000))
            let snapshot = try served.snapshot("shown")
            for name in ["s1306", "s1107", "s1327", "s1315", "s1106", "s1309", "s1305", "grey"] {
                #expect(Self.isLit(try Self.picture(snapshot, name)), "\(name) shows the job")
            }
            let glass = try served.raw([#"{"v":1,"op":"glass"}"#]).first ?? ""
            #expect(glass.contains(#""errors":[]"#), "\(glass.prefix(600))")
        }

        @Test func theDemoPlaysOnAnSPIDisplay() throws {
            let run = try Sim.run(["demo", "--board", "raspberry-pi-5", "--hat", "waveshare-oled-hat", "--speed", "40", "--headless", "--stats"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("protocol or timing errors: 0"), "\(run.stdout)")
            #expect(run.stdout.contains("spi0.0 (SPI):"), "\(run.stdout)")
        }

        /// The journey of a Waveshare OLED HAT's owner, with the programs found on PATH from a
        /// folder of their own: the preset, doctor on it (a machine without SPI says how to turn
        /// it on), its picture, then a job begun and advanced from a hook on the served HAT.
        @Test func aHatOwnersJourney() throws {
            let home = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: home) }
            let path = ["PATH": Binaries.folder.path + ":/usr/bin:/bin"]
            let doctor = try SimulatedService.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["headwayd", "doctor", "--board", "raspberry-pi-4", "--hat", "waveshare-oled-hat", "--root", home.path],
                environment: path, directory: home)
            #expect(doctor.status == 1 && doctor.stdout.contains("oled-hat: /dev/spidev0.0 does not exist"), "\(doctor.stdout)")
            let render = try SimulatedService.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["headway-sim", "render", "--board", "raspberry-pi-4", "--hat", "waveshare-oled-hat", "--value", "0.42", "--out", "pictures"],
                environment: path, directory: home)
            #expect(render.status == 0 && render.stdout.contains("pictures/oled-hat.pbm"), "\(render.stderr)")

            let served = try SimulatedService.installed(arguments: ["--board", "raspberry-pi-4", "--hat", "waveshare-oled-hat"])
            let hook = served.folder.appendingPathComponent("job-started.sh")
            try "#!/bin/sh\nheadway --job hat-1 begin --label \"Nightly backup\" --total 10\nheadway --job hat-1 set 7\n".write(to: hook, atomically: true, encoding: .utf8)
            chmod(hook.path, 0o755)
            let ran = try SimulatedService.run(hook, [], environment: path.merging(["HEADWAY_SOCKET": served.socket]) { $1 }, directory: served.folder)
            #expect(ran.status == 0 && ran.stderr.isEmpty, "\(ran.stderr)")
            usleep(UInt32(TestTime.scaled(3.0) * 1_000_000))
            #expect(Self.isLit(try Self.picture(try served.snapshot("hook"), "oled-hat")), "the hook's job on the HAT")
            let jobs = try served.status()
            #expect(jobs.first?.job == "hat-1" && jobs.first?.percent == 70)
        }
    }
}
