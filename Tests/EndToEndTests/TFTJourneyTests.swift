import Foundation
import HeadwayProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every colour TFT HAT preset through the programs as a user runs them: `headwayd --check` (which
/// names what it lacks on a machine without the header),
/// `headway-sim render` with a capture that `replay` decodes into the same glass, and the journey
/// of a Display HAT Mini's owner: the preset, doctor's word on it, a job from a hook in colour, a
/// press of A to pause a `headway run` command and resume it, a long press to cancel it.
extension EndToEnd {
    @Suite("colour TFTs, end to end")
    struct TFTJourneyTests {
        typealias Sim = HeadwaySimTests

        static let hats = [
            "pimoroni-display-hat-mini", "adafruit-mini-pitft-1in14", "adafruit-mini-pitft-1in3", "waveshare-lcd-hat-1in3", "waveshare-lcd-hat-1in44",
            "adafruit-pitft-2in8",
        ]

        /// Whether a PPM picture has a pixel in colour (its channels differ), not only grey.
        static func hasColour(_ url: URL) throws -> Bool {
            try ppmPixels(url).contains { $0.0 != $0.1 || $0.1 != $0.2 }
        }

        @Test(arguments: hats)
        func aPresetChecksRendersAndReplays(hat: String) throws {
            let folder = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let preset = ["--board", "raspberry-pi-4", "--hat", hat]
            // --check opens the devices: here, with no Pi header, it says which chip it looked for
            // (the kernel tests open a TFT on a real spidev and gpio-sim).
            let check = try SimulatedService.run(Binaries.url("headwayd"), ["--check"] + preset, directory: folder)
            #expect(check.status == 1 && check.stderr.contains("outputs.display: no GPIO chip \"pinctrl-bcm2711\"") && check.stderr.contains("gpiodetect"),
                    "\(check.stderr)")
            let capture = folder.appendingPathComponent("c.jsonl").path
            let render = try Sim.run(["render"] + preset + ["--value", "0.42", "--label", "Build #1042", "--capture", capture, "--out", folder.appendingPathComponent("render").path])
            #expect(render.status == 0, "\(render.stderr)")
            let replay = try Sim.run(["replay", capture] + preset + ["--out", folder.appendingPathComponent("replay").path])
            #expect(replay.status == 0, "no protocol errors: \(replay.stderr)")
            let rendered = try Data(contentsOf: folder.appendingPathComponent("render/display.ppm"))
            let replayed = try Data(contentsOf: folder.appendingPathComponent("replay/display.ppm"))
            #expect(rendered == replayed, "the capture replays to the rendered glass")
            #expect(try Self.hasColour(folder.appendingPathComponent("render/display.ppm")), "drawn in colour")
        }

        /// A Display HAT Mini's owner, with the programs found on PATH from a folder of their own:
        /// doctor on the preset (a machine without SPI says so), the HAT served, a CI job from a hook
        /// shown in colour; a command under `headway run` paused with A and resumed, held to cancel.
        @Test func aDisplayHatMiniOwnersJourney() throws {
            let home = Sim.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: home) }
            let path = ["PATH": Binaries.folder.path + ":/usr/bin:/bin"]
            let preset = ["--board", "raspberry-pi-4", "--hat", "pimoroni-display-hat-mini"]
            let doctor = try SimulatedService.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["headwayd", "doctor"] + preset + ["--root", home.path], environment: path, directory: home)
            #expect(doctor.status == 1 && doctor.stdout.contains("/dev/spidev0.1 does not exist"), "\(doctor.stdout)")

            let served = try SimulatedService.installed(arguments: preset)
            let hook = served.folder.appendingPathComponent("ci-job.sh")
            try "#!/bin/sh\nheadway --job ci-88 begin --label \"CI main #88\" --total 20\nheadway --job ci-88 set 9\n".write(to: hook, atomically: true, encoding: .utf8)
            chmod(hook.path, 0o755)
            // The tests' debug build draws a 320x240 frame far slower than the release build a Pi
            // runs: on a busy CI machine the hook's 200 ms may pass while the loop draws.
            let hookEnvironment = path.merging(["HEADWAY_SOCKET": served.socket, "HEADWAY_TIMEOUT_MS": "3000"]) { $1 }
            let ran = try SimulatedService.run(hook, [], environment: hookEnvironment, directory: served.folder)
            #expect(ran.status == 0 && ran.stderr.isEmpty, "\(ran.stderr)")
            usleep(UInt32(TestTime.scaled(3.0) * 1_000_000))
            #expect(try Self.hasColour(try served.snapshot("hook").appendingPathComponent("display.ppm")), "the job in colour on the TFT")
            #expect(try served.status().first?.percent == 45)

            // A hook's job cannot be stopped by anyone: the button pauses what really pauses, a
            // command under `headway run`.
            try served.headway(["--job", "ci-88", "done"])
            let run = try BackgroundProcess(
                Binaries.url("headway"), ["--job", "backup", "run", "--", "sleep", "\(Int(TestTime.scaled(30)))"], environment: ["HEADWAY_SOCKET": served.socket],
                directory: served.folder)
            func phase(within seconds: Double, is wanted: String) -> Bool {
                BackgroundProcess.eventually(within: seconds) { (try? served.status())?.first { $0.job == "backup" }?.phase == wanted }
            }
            #expect(phase(within: 5, is: "active"))
            // The button acts on the job the glass shows: the hook's job lingers as a success first.
            #expect(BackgroundProcess.eventually(within: 8) { (try? served.status())?.first { $0.job == "ci-88" }.map { $0.phase == "hidden" } ?? true })
            _ = try served.press(long: false)
            #expect(phase(within: 3, is: "paused"), "A pauses the job")
            let sleeper = BackgroundProcess.children(of: run.pid).first
            #expect(BackgroundProcess.eventually(within: 2) { sleeper.flatMap(BackgroundProcess.state(of:)) == "T" }, "the command is really stopped (SIGSTOP lands when it is next scheduled)")
            _ = try served.press(long: false)
            #expect(phase(within: 3, is: "active"), "A again resumes it")
            _ = try served.press(long: true)
            #expect(run.waitForExit(seconds: 10) != nil, "held, A cancels it: the command stops")
            let glass = try served.raw([#"{"v":1,"op":"glass"}"#]).first ?? ""
            #expect(glass.contains(#""errors":[]"#), "\(glass.prefix(600))")
        }
    }
}
