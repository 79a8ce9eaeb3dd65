import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Kernel {
    /// `headwayd doctor` on the VM's real devices: gpio-sim (line 15 hogged by "a-kernel-driver"),
    /// i2c-stub (chips at 0x3c and 0x3d, at24 bound at 0x3d), the I2C recorder (answering at
    /// 0x3c, 0x70 and 0x74) and the SPI recorder. Each running-
    /// machine check seen passing and failing; as nobody (the Permission suite) the access checks.
    @Suite("headwayd doctor on kernel devices", .enabled(
        if: KernelDevices.binaries != nil && KernelDevices.gpioLabel != nil && KernelDevices.i2cStub != nil && KernelDevices.spidev != nil,
        KernelDevices.skipNote))
    struct Doctor {
        static func configuration(oled address: String = "0x3c", on bus: String = KernelDevices.i2cStub ?? "", chip: String = KernelDevices.gpioLabel ?? "", button: Int = 14) -> String {
            """
            outputs:
              - name: ring
                driver: ws2812
                bus: \(KernelDevices.spidev ?? "")
                count: 16
              - name: oled
                driver: ssd1306
                bus: \(bus)
                address: \(address)
                size: 128x64
              - name: bar
                driver: gpio-leds
                chip: \(chip)
                lines: [12, 13]
            buttons:
              - chip: \(chip)
                line: \(button)

            """
        }

        /// Runs `headwayd doctor --config` on `yaml` (plus `arguments`): exit status and output.
        static func doctor(_ yaml: String, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("doctor-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("config.yaml")
            try yaml.write(to: config, atomically: true, encoding: .utf8)
            // World-readable, for the run as nobody.
            chmod(folder.path, 0o755)
            chmod(config.path, 0o644)
            return try GuestCommand.status(KernelDevices.binaries! + "/headwayd", ["doctor", "--config", config.path] + arguments)
        }

        static var stub: String { KernelDevices.i2cStub ?? "" }

        @Test(.enabled(if: !KernelDevices.unprivileged)) func everythingInPlacePasses() throws {
            let run = try Self.doctor(Self.configuration())
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("✔ \(KernelDevices.gpioLabel!) is gpiochip"), "\(run.output)")
            #expect(run.output.contains("(24 lines); lines 12, 13, 14 free\n"), "\(run.output)")
            #expect(run.output.contains("✔ oled (ssd1306 128x64): a device answers at 0x3C on \(Self.stub)\n"), "\(run.output)")
        }

        @Test(.enabled(if: !KernelDevices.unprivileged)) func aLineHeldByTheKernelIsNamed() throws {
            let run = try Self.doctor(Self.configuration(button: 15))
            #expect(run.status == 1)
            #expect(run.output.contains("✘ button 1: GPIO 15 of \(KernelDevices.gpioLabel!) is held by \"a-kernel-driver\"\n    fix: free it"), "\(run.output)")
        }

        @Test(.enabled(if: !KernelDevices.unprivileged)) func aChipNotThereIsNamedWithTheOnesThatAre() throws {
            let run = try Self.doctor(Self.configuration(chip: "pinctrl-bcm2711"))
            #expect(run.status == 1)
            #expect(run.output.contains("✘ no GPIO chip labelled or named pinctrl-bcm2711 (here: "), "\(run.output)")
            #expect(run.output.contains("[\(KernelDevices.gpioLabel!)]"), "\(run.output)")
        }

        @Test(.enabled(if: !KernelDevices.unprivileged)) func theOtherOLEDAddressIsSuggested() throws {
            let recorder = KernelDevices.i2cRecorder ?? ""
            let run = try Self.doctor(Self.configuration(oled: "0x3d", on: recorder))
            #expect(run.status == 1)
            #expect(run.output.contains("✘ oled (ssd1306 128x64): nothing answers at 0x3D on \(recorder), but something does at 0x3C\n    fix: set `address: 0x3c` for oled"), "\(run.output)")
        }

        @Test(.enabled(if: !KernelDevices.unprivileged)) func anAddressAKernelDriverOwnsIsReportedAsSuch() throws {
            let run = try Self.doctor(Self.configuration(oled: "0x3d"))
            #expect(run.status == 1)
            #expect(run.output.contains("✘ oled (ssd1306 128x64): 0x3D on \(Self.stub) is owned by the kernel driver at24 (UU in i2cdetect)"), "\(run.output)")
        }

        /// Checked for another user (the daemon's, by default): the nodes are root's alone here.
        @Test(.enabled(if: !KernelDevices.unprivileged)) func accessIsCheckedForTheUserAsked() throws {
            let run = try Self.doctor(Self.configuration(), ["--user", "nobody"])
            #expect(run.status == 1)
            #expect(run.output.contains("✔ device access checked as nobody (--user)"), "\(run.output)")
            #expect(run.output.contains("✘ ring: \(KernelDevices.spidev!) is there but nobody may not open it\n    fix: give the node a group"), "\(run.output)")
            #expect(run.output.contains("is there but nobody may not open it\n    fix: `sudo usermod -aG gpio nobody`"), "\(run.output)")
        }

        /// Run as nobody: every device node refused, each with its fix, and nothing probed that
        /// nobody may not open.
        @Test(.enabled(if: KernelDevices.unprivileged)) func asAnUnprivilegedUserEveryNodeIsRefused() throws {
            let run = try Self.doctor(Self.configuration())
            #expect(run.status == 1)
            #expect(run.output.contains("✘ ring: \(KernelDevices.spidev!) is there but this user may not open it"), "\(run.output)")
            #expect(run.output.contains("✘ oled: \(Self.stub) is there but this user may not open it"), "\(run.output)")
            #expect(run.output.contains("but this user may not open them to find the configured chip") || run.output.contains("but this user may not open it to find the configured chip"), "\(run.output)")
        }
    }
}
