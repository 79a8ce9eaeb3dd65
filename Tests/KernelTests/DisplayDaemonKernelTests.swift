import Foundation
import HeadwayDevices
import HeadwayLinux
import HeadwayRender
import HeadwaySimulator
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// headwayd with each OLED controller from a configuration file on the VM's real buses: on
    /// spidev with its D/C and reset lines on gpio-sim, and on i2c-dev; `--check` opens each, and a
    /// job from the client reaches the glass of a greyscale SSD1327 on SPI.
    @Suite("headwayd and every display", .enabled(
        if: KernelDevices.binaries != nil && KernelDevices.gpioLabel != nil && KernelDevices.i2cRecorder != nil && KernelDevices.spidev != nil
            && KernelDevices.spiDataCommandLine != nil && KernelDevices.spiResetLine != nil,
        KernelDevices.skipNote))
    struct DisplayDaemon {
        let spi = RecordingSPI()
        let binaries = URL(fileURLWithPath: KernelDevices.binaries ?? "/")

        func display(_ controller: OLEDController, onSPI: Bool) -> String {
            let bus = onSPI
                ? "bus: \(spi.path)\n    dc: \(KernelDevices.spiDataCommandLine!)\n    reset: \(KernelDevices.spiResetLine!)\n    chip: \(KernelDevices.gpioLabel!)"
                : "bus: \(KernelDevices.i2cRecorder!)"
            return "timings:\n  grace: 0\noutputs:\n  - name: oled\n    driver: \(controller.rawValue)\n    \(bus)\n"
        }

        func write(_ text: String) throws -> URL {
            let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("display-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file
        }

        @Test(arguments: OLEDController.allCases)
        func checkOpensEachControllerOnSPIAndI2C(controller: OLEDController) throws {
            for onSPI in [true, false] {
                let file = try write(display(controller, onSPI: onSPI))
                defer { try? FileManager.default.removeItem(at: file) }
                let check = try GuestCommand.run(binaries.appendingPathComponent("headwayd").path, ["--config", file.path, "--check"])
                #expect(check.hasSuffix("1 outputs and 0 buttons opened"), "\(controller.rawValue) on \(onSPI ? "SPI" : "I2C"): \(check)")
            }
        }

        /// Each colour TFT controller, at a size it is sold in, from a configuration file on the
        /// VM's spidev, with its D/C, reset and backlight on gpio-sim: `--check` opens it.
        @Test(arguments: [("st7789", "240x240"), ("st7735", "128x160"), ("ili9341", "320x240")])
        func checkOpensEachTFTController(driver: String, size: String) throws {
            let file = try write("""
                outputs:
                  - name: tft
                    driver: \(driver)
                    size: \(size)
                    bus: \(spi.path)
                    dc: \(KernelDevices.spiDataCommandLine!)
                    reset: \(KernelDevices.spiResetLine!)
                    backlight: 22
                    chip: \(KernelDevices.gpioLabel!)

                """)
            defer { try? FileManager.default.removeItem(at: file) }
            let check = try GuestCommand.run(binaries.appendingPathComponent("headwayd").path, ["--config", file.path, "--check"])
            #expect(check.hasSuffix("1 outputs and 0 buttons opened"), "\(driver): \(check)")
        }

        /// A D/C line that another program holds is refused with the line named and its fix.
        @Test func aDataCommandLineInUseIsRefusedNamingIt() throws {
            let chip = try GpiodChip(KernelDevices.gpioLabel!)
            let held = try chip.requestOutputs([KernelDevices.spiDataCommandLine!], activeLow: false, initial: [false])
            defer { withExtendedLifetime(held) {} }
            let file = try write(display(.sh1106, onSPI: true))
            defer { try? FileManager.default.removeItem(at: file) }
            let (status, output) = try GuestCommand.status(binaries.appendingPathComponent("headwayd").path, ["--config", file.path, "--check"])
            #expect(status != 0)
            #expect(output.contains("outputs.oled: D/C line (GPIO \(KernelDevices.spiDataCommandLine!) of \(KernelDevices.gpioLabel!))") && output.contains("gpioinfo"), "\(output)")
        }

        @Test func aJobReachesAGreyscaleDisplayOnSPI() throws {
            let file = try write(display(.ssd1327, onSPI: true))
            defer { try? FileManager.default.removeItem(at: file) }
            let socket = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("display-\(getpid()).sock").path
            try spi.clearLog()
            let daemon = Process()
            daemon.executableURL = binaries.appendingPathComponent("headwayd")
            daemon.arguments = ["--config", file.path, "--socket", socket]
            daemon.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            daemon.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try daemon.run()
            defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
            func headway(_ arguments: String...) throws {
                _ = try GuestCommand.run(binaries.appendingPathComponent("headway").path, ["--socket", socket, "--job", "grey", "--strict", "--timeout-ms", "5000"] + arguments)
            }
            var listening = false
            for _ in 0..<600 where !listening {
                listening = FileManager.default.fileExists(atPath: socket)
                usleep(50_000)
            }
            try #require(listening, "headwayd listens")
            try headway("begin", "--label", "grey job", "--total", "100")
            try headway("set", "50")
            var glass = Greymap(width: 128, height: 128)
            var errors: [String] = []
            for _ in 0..<200 {
                let chip = RecordedTraffic.decodeOLED(
                    try spi.transfers(), .ssd1327, width: 128, height: 128, dataCommand: KernelDevices.spiDataCommandLine!, reset: KernelDevices.spiResetLine!)
                glass = chip.glass
                errors = chip.protocolErrors
                if (0..<128).contains(where: { x in glass[x, 36] > 0 }) { break }
                usleep(50_000)
            }
            #expect(errors.isEmpty, "\(errors.prefix(3))")
            var levels = Set<UInt8>()
            for y in 0..<128 { for x in 0..<128 { levels.insert(glass[x, y]) } }
            #expect((0..<64).contains { glass[$0, 36] == 15 } && !(100..<120).contains { glass[$0, 36] == 15 }, "the bar filled to half on row 36")
            #expect(levels.count > 2, "grey levels on the glass: \(levels.sorted())")
            daemon.terminate()
            daemon.waitUntilExit()
            #expect(daemon.terminationStatus == 0)
        }
    }
}
