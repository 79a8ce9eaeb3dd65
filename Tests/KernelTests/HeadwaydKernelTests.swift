import Foundation
import HeadwayDevices
import HeadwayRender
import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// headwayd on the VM's real devices, driven by the headway client: a WS2812 ring on the SPI
    /// recorder, an SSD1306 on the I2C recorder, an 8-LED bar graph, a status LED and a button on
    /// gpio-sim.
    @Suite("headwayd on kernel devices", .enabled(
        if: KernelDevices.binaries != nil && KernelDevices.gpioLabel != nil && KernelDevices.i2cRecorder != nil && KernelDevices.spiLog != nil,
        KernelDevices.skipNote))
    struct Daemon {
        let spi = RecordingSPI()
        let lines = SimulatedLines()
        let bar: [UInt32] = Array(0...7)

        /// Polls `condition` every 50 ms for up to `seconds`.
        func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                if try condition() { return true }
                usleep(50_000)
            } while Date() < deadline
            return false
        }

        /// The 16 LEDs a WS2812 frame lights.
        static func decoded(_ frame: RecordedTraffic.SPITransfer?) -> [RGB8] {
            guard let frame else { return [] }
            let ring = VirtualWS2812Chain(count: 16)
            ring.receive(frame.bytes, hz: frame.speedHz, mode: frame.mode)
            return ring.levels
        }

        func configuration() -> String {
            let label = KernelDevices.gpioLabel!
            return """
                timings:
                  grace: 0
                  linger: 1
                outputs:
                  - name: ring
                    driver: ws2812
                    bus: \(spi.path)
                    count: 16
                    layout: ring
                    frames-per-second: 20
                  - name: oled
                    driver: ssd1306
                    bus: \(KernelDevices.i2cRecorder!)
                    size: 128x64
                  - name: bar
                    driver: gpio-leds
                    chip: \(label)
                    lines: [0, 1, 2, 3, 4, 5, 6, 7]
                  - name: status
                    driver: gpio-leds
                    chip: \(label)
                    lines: [8]
                buttons:
                  - chip: \(label)
                    line: 9

                """
        }

        @Test func aJobFromStartToDoneReachesEveryOutput() throws {
            let binaries = URL(fileURLWithPath: KernelDevices.binaries!)
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("headwayd-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("headway.yaml")
            try configuration().write(to: config, atomically: true, encoding: .utf8)
            let socket = folder.appendingPathComponent("headway.sock").path
            let daemonLog = folder.appendingPathComponent("headwayd.log")
            try Data().write(to: daemonLog)
            try spi.clearLog()
            try KernelDevices.write("clear\n", to: KernelDevices.i2cRecorderLog!)

            let check = try GuestCommand.run(binaries.appendingPathComponent("headwayd").path, ["--config", config.path, "--check"])
            #expect(check.hasSuffix("4 outputs and 1 buttons opened"), "headwayd --check: \(check)")

            let daemon = Process()
            daemon.executableURL = binaries.appendingPathComponent("headwayd")
            daemon.arguments = ["--config", config.path, "--socket", socket]
            daemon.standardOutput = try FileHandle(forWritingTo: daemonLog)
            daemon.standardError = daemon.standardOutput
            daemon.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            try daemon.run()
            defer {
                if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() }
                print("headwayd said:\n" + ((try? String(contentsOf: daemonLog, encoding: .utf8)) ?? ""))
            }
            try #require(eventually(within: 30) { FileManager.default.fileExists(atPath: socket) }, "headwayd listens")

            // A hook's 200 ms budget is the real machine's; this guest is emulated, beside other work.
            func headway(_ arguments: String...) throws {
                _ = try GuestCommand.run(
                    binaries.appendingPathComponent("headway").path, ["--socket", socket, "--job", "kernel", "--strict", "--timeout-ms", "5000"] + arguments)
            }
            try headway("begin", "--label", "kernel test", "--total", "100")
            try headway("set", "50")

            // The bar graph shows half (its last lit LED blinks off briefly every 2 s), the status LED blinks.
            let half = (0..<8).map { $0 < 4 }
            let barAtHalf = try eventually(within: 10) { try lines.levels(bar) == half }
            #expect(barAtHalf, "bar at 50 %: \((try? lines.levels(bar)) ?? [])")
            var statusSeen: Set<Bool> = []
            _ = try eventually(within: 3) { statusSeen.insert(try lines.levels([8])[0]); return statusSeen.count == 2 }
            #expect(statusSeen == [true, false], "the status LED blinks while the job runs")

            // The ring: WS2812 frames at the encoding's clock, the first half lit brighter than the rest.
            let frames = try spi.transfers()
            #expect(frames.count > 3)
            #expect(frames.allSatisfy { $0.speedHz == 2_400_000 && $0.mode == 0 && $0.bitsPerWord == 8 && $0.bytes.count == 324 })
            let ring = VirtualWS2812Chain(count: 16)
            for frame in frames { ring.receive(frame.bytes, hz: frame.speedHz, mode: frame.mode) }
            #expect(ring.violations.isEmpty, "\(ring.violations.prefix(3))")
            let brightness = ring.levels.map { Int($0.red) + Int($0.green) + Int($0.blue) }
            #expect(brightness[0..<7].reduce(0, +) > 2 * brightness[9..<16].reduce(0, +), "ring filled from LED 0: \(brightness)")

            // The OLED: set up once, then only what changed; the model's glass shows a picture.
            let transfers = RecordedTraffic.i2cTransfers(try KernelDevices.read(KernelDevices.i2cRecorderLog!))
            #expect(transfers.first?.first?.bytes.prefix(2) == [0x00, 0xAE], "set-up first")
            let oled = RecordedTraffic.decodeOLED(transfers, controller: .ssd1306)
            #expect(oled.protocolErrors.isEmpty, "\(oled.protocolErrors.prefix(3))")
            #expect(oled.picture.litCount() > 200, "the bar and label are drawn")

            // Done: a short success signal, then every output back to idle.
            try headway("done")
            #expect(try eventually(within: 10) { try lines.levels(bar) == Array(repeating: false, count: 8) }, "bar idle after the success signal")
            #expect(try eventually(within: 5) { try Self.decoded(spi.transfers().last).allSatisfy { $0 == RGB8(red: 0, green: 0, blue: 0) } },
                    "ring dark")

            // A long press of the button (line 9, to ground) cancels a job under `headway run`.
            let run = Process()
            run.executableURL = binaries.appendingPathComponent("headway")
            // The VM is emulated (and slower still when the machine is busy): the client's budget is
            // stretched, as a slow Pi's owner would with HEADWAY_TIMEOUT_MS.
            run.arguments = ["--socket", socket, "--job", "pressed", "--timeout-ms", "5000", "run", "--label", "sleeping", "--", "/bin/sleep", "30"]
            run.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            run.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try run.run()
            defer { if run.isRunning { run.terminate() } }
            #expect(try eventually(within: 10) { try lines.levels(bar).contains(true) }, "the indeterminate job shows on the bar")
            try lines.pull(9, up: false)
            usleep(2_000_000)
            try lines.pull(9, up: true)
            #expect(eventually(within: 10) { !run.isRunning }, "headway run stopped by the long press")
            run.waitUntilExit()
            #expect(run.terminationStatus == 143, "a cancelled run exits 143")

            // SIGTERM: outputs cleared, lines released (they follow their pull again).
            daemon.terminate()
            daemon.waitUntilExit()
            #expect(daemon.terminationStatus == 0)
            for offset in bar { try lines.pull(offset, up: true) }
            #expect(try lines.levels(bar) == Array(repeating: true, count: 8), "released lines follow their pull")
            for offset in bar { try lines.pull(offset, up: false) }
        }
    }
}
