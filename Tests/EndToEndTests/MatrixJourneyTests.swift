import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every LED matrix chip, layout and preset through the programs as a user runs them: rendered
/// with a capture that replays to the same glass, a configuration of every one served with a job
/// from a hook, and the walk of a bargraph's owner: the preset, doctor, a backup under
/// `headway run` filling the 24 bars, a stall blinking them, success.
extension EndToEnd {
    @Suite("every LED matrix, end to end")
    struct MatrixJourneyTests {
        typealias Sim = HeadwaySimTests

        static let devices = [
            "ht16k33-bargraph24", "ht16k33-matrix8x8", "ht16k33-matrix8x8-bicolour", "ht16k33-matrix16x8", "ht16k33-segments4", "ht16k33-alnum4",
            "is31fl3731-scroll-phat-hd", "is31fl3731-led-shim", "is31fl3731-charlieplex16x9", "max7219-fc16-4", "max7219-segments8-1", "panel8x8", "panel32x8",
        ]

        static let presets = [
            "adafruit-bicolour-bargraph", "adafruit-8x8-matrix", "adafruit-7segment", "pimoroni-scroll-phat-hd", "pimoroni-led-shim", "max7219-4in1",
            "ws2812-matrix-8x8", "ws2812-matrix-32x8",
        ]

        /// Whether a snapshot's PPM has a lit pixel.
        static func isLit(_ url: URL) throws -> Bool { try ppmPixels(url).contains { $0 != (0, 0, 0) } }

        /// Renders `source` (a --device or a preset's arguments) with a capture, replays it, and
        /// compares every picture.
        static func renderAndReplay(_ source: [String], value: String = "0.42") throws {
            let folder = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let capture = folder.appendingPathComponent("c.jsonl").path
            let render = try Sim.run(["render"] + source + ["--value", value, "--label", "Backup", "--capture", capture, "--out", folder.appendingPathComponent("render").path])
            #expect(render.status == 0, "\(render.stderr)")
            let replay = try Sim.run(["replay", capture] + source + ["--out", folder.appendingPathComponent("replay").path])
            #expect(replay.status == 0, "\(replay.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("render").path).sorted()
            #expect(!files.isEmpty)
            for file in files {
                let rendered = try Data(contentsOf: folder.appendingPathComponent("render/\(file)"))
                let replayed = try Data(contentsOf: folder.appendingPathComponent("replay/\(file)"))
                #expect(rendered == replayed, "\(source): \(file) replays to the rendered glass")
                if file.hasSuffix(".ppm") { #expect(try Self.isLit(folder.appendingPathComponent("render/\(file)")), "\(file) shows the job") }
            }
        }

        @Test(arguments: devices)
        func renderedThenReplayedTheGlassIsTheSame(device: String) throws {
            try Self.renderAndReplay(["--device", device])
        }

        @Test(arguments: presets)
        func aPresetRendersAndReplays(hat: String) throws {
            try Self.renderAndReplay(["--board", "raspberry-pi-4", "--hat", hat])
        }

        /// One configuration with every chip and layout served: a job from a hook shows on each
        /// and no chip found a byte out of place.
        @Test func aJobShowsOnEveryMatrixServed() throws {
            let yaml = """
                outputs:
                  - { name: bars, driver: ht16k33, bus: i2c-1, address: 0x70, layout: bargraph24 }
                  - { name: mono, driver: ht16k33, bus: i2c-1, address: 0x71, layout: matrix8x8, rotation: 90 }
                  - { name: two, driver: ht16k33, bus: i2c-1, address: 0x72, layout: matrix8x8-bicolour }
                  - { name: wide, driver: ht16k33, bus: i2c-1, address: 0x73, layout: matrix16x8, rotation: 180 }
                  - { name: clock, driver: ht16k33, bus: i2c-1, address: 0x74, layout: segments4 }
                  - { name: alnum, driver: ht16k33, bus: i2c-1, address: 0x75, layout: alnum4 }
                  - { name: scroll, driver: is31fl3731, bus: i2c-2, layout: scroll-phat-hd }
                  - { name: shim, driver: is31fl3731, bus: i2c-2, layout: led-shim }
                  - { name: charlie, driver: is31fl3731, bus: i2c-2, address: 0x77, layout: charlieplex16x9, rotation: 270 }
                  - { name: row, driver: max7219, bus: spi0.0, layout: fc16, chain: 4 }
                  - { name: digits, driver: max7219, bus: spi0.1, layout: segments8, chain: 2 }
                  - { name: panel, driver: ws2812, bus: spi1.0, count: 256, current-budget-ma: 2000, matrix: { width: 32, height: 8, lines: columns, wiring: serpentine } }
                timings:
                  grace: 0.2

                """
            let served = try SimulatedService.serving(yaml)
            let hook = served.folder.appendingPathComponent("hook.sh")
            try "#!/bin/sh\nheadway --job all begin --label \"every matrix\" --total 100\nheadway --job all set 42\n".write(to: hook, atomically: true, encoding: .utf8)
            chmod(hook.path, 0o755)
            let ran = try SimulatedService.run(hook, [], environment: ["PATH": Binaries.folder.path + ":/usr/bin:/bin", "HEADWAY_SOCKET": served.socket], directory: served.folder)
            #expect(ran.status == 0, "\(ran.stderr)")
            usleep(UInt32(TestTime.scaled(1.0) * 1_000_000))
            let snapshot = try served.snapshot("shown")
            for name in ["bars", "mono", "two", "wide", "clock", "alnum", "scroll", "shim", "charlie", "row", "digits", "panel"] {
                #expect(try Self.isLit(snapshot.appendingPathComponent("\(name).ppm")), "\(name) shows the job")
            }
            let glass = try served.raw([#"{"v":1,"op":"glass"}"#]).first ?? ""
            #expect(glass.contains(#""errors":[]"#), "\(glass.prefix(600))")
        }

        /// The bars of the bargraph's snapshot: green, yellow (red and green) or red, and dark.
        static func bars(_ folder: URL) throws -> (green: Int, yellow: Int, red: Int) {
            let pixels = try ppmPixels(folder.appendingPathComponent("bargraph.ppm"))
            return (pixels.filter { $0.0 < 40 && $0.1 > 100 }.count, pixels.filter { $0.0 > 100 && $0.1 > 100 }.count, pixels.filter { $0.0 > 100 && $0.1 < 40 }.count)
        }

        /// The walk of a bargraph's owner: the preset, doctor's word on it, a backup under
        /// `headway run` filling the 24 bars, a stall blinking them in the chip, then success.
        @Test func aBargraphOwnersWalk() throws {
            let home = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: home) }
            let path = ["PATH": Binaries.folder.path + ":/usr/bin:/bin"]
            let preset = ["--board", "raspberry-pi-4", "--hat", "adafruit-bicolour-bargraph"]
            let doctor = try SimulatedService.run(URL(fileURLWithPath: "/usr/bin/env"), ["headwayd", "doctor"] + preset + ["--root", home.path], environment: path, directory: home)
            #expect(doctor.status == 1 && doctor.stdout.contains("bargraph: /dev/i2c-1 does not exist"), "\(doctor.stdout)")
            #expect(doctor.stdout.contains("HT16K33 backpacks: powered from 3.3 V"), "\(doctor.stdout)")

            let yaml = """
                board: raspberry-pi-4
                hats: [adafruit-bicolour-bargraph]
                timings:
                  grace: 0.2
                  stall-after: \(TestTime.scaled(1.5))

                """
            let served = try SimulatedService.serving(yaml)
            // A backup's output as restic's --json would not be read here: plain "n/24" lines.
            let script = "i=0; while [ $i -lt 12 ]; do i=$((i+1)); echo \"$i/24\"; sleep \(TestTime.scaled(0.1)); done; sleep \(TestTime.scaled(3)); "
                + "while [ $i -lt 24 ]; do i=$((i+1)); echo \"$i/24\"; sleep \(TestTime.scaled(0.05)); done"
            let run = try BackgroundProcess(Binaries.url("headway"), ["--job", "backup", "run", "--label", "Backup", "--", "sh", "-c", script],
                                            environment: ["HEADWAY_SOCKET": served.socket])
            #expect(try BackgroundProcess.eventually(within: 10) { try Self.bars(try served.snapshot("filling")).green >= 6 }, "the backup fills the bars")
            #expect(try BackgroundProcess.eventually(within: 10) { try served.status().first?.phase == "stalled" }, "the pause in the output stalls the job")
            // Stalled at half: 12 bars in the stalled colour, blinking at 1 Hz in the chip itself.
            var seen: [(green: Int, yellow: Int, red: Int)] = []
            for index in 0..<8 {
                seen.append(try Self.bars(try served.snapshot("stall-\(index)")))
                usleep(150_000)
            }
            #expect(seen.contains { $0.yellow == 12 }, "\(seen)")
            #expect(seen.contains { $0.yellow == 0 && $0.green == 0 }, "dark in the blink's off half: \(seen)")
            #expect(run.waitForExit(seconds: 20) == 0, "\(run.stderr)")
            #expect(try BackgroundProcess.eventually(within: 5) { try Self.bars(try served.snapshot("done")).green == 24 }, "success lights the 24 bars")
            let glass = try served.raw([#"{"v":1,"op":"glass"}"#]).first ?? ""
            #expect(glass.contains(#""errors":[]"#), "\(glass.prefix(600))")
        }
    }
}
