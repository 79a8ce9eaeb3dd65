import Foundation
import HeadwayService
import Testing

/// `headwayd doctor` on fixture trees standing in for a Pi 3, 4, 5 and Zero 2 W, good and broken:
/// each problem seen failing with its fix, and passing on the good tree.
@Suite("doctor on fixture trees")
struct DoctorTests {
    /// A machine's files under a temporary root: device-tree model, kernel, page size, the
    /// firmware's config.txt and cmdline.txt, and /dev stand-ins.
    struct Machine {
        let root: URL

        init(model: String?, pageSize: Int = 4096, config: String?, cmdline: String = "console=serial0,115200 root=PARTUUID=1 rootwait", devices: [String], bufsiz: Int? = nil) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
            func write(_ path: String, _ text: String) throws {
                let url = root.appendingPathComponent(String(path.dropFirst()))
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            if let model { try write("/proc/device-tree/model", model + "\0") }
            try write("/proc/sys/kernel/osrelease", "6.12.47+rpt-rpi-v8\n")
            try write("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "\(pageSize * pageSize / 8)\n")
            if let config { try write("/boot/firmware/config.txt", config) }
            try write("/boot/firmware/cmdline.txt", cmdline + "\n")
            if let bufsiz { try write("/sys/module/spidev/parameters/bufsiz", "\(bufsiz)\n") }
            for device in devices { try write(device, "") }
        }

        func doctor(_ configuration: ServiceConfiguration) -> [DoctorFinding] {
            Doctor.check(configuration, on: MachineView(root: root.path))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static let pi4Config = """
        [all]
        dtparam=i2c_arm=on
        dtparam=spi=on
        core_freq=500
        core_freq_min=500
        """

    static func finding(_ findings: [DoctorFinding], _ check: String) -> DoctorFinding? { findings.first { $0.check == check } }

    @Test func aWellSetUpPi4PassesEverything() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: Self.pi4Config, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "board")?.summary == "Raspberry Pi 4 Model B Rev 1.5 (Raspberry Pi 4)")
        #expect(Self.finding(findings, "kernel")?.summary == "Linux 6.12.47+rpt-rpi-v8, 4 KiB pages")
        #expect(Self.finding(findings, "spi-clock")?.status == .pass)
        #expect(findings.contains { $0.check == "level-shifter" && $0.status == .advice }, "said once, as advice")
        let report = DoctorReport(findings)
        #expect(!report.failed && report.text.hasSuffix("to note"))
    }

    @Test func aPi4WithNothingEnabledGetsEveryFix() throws {
        // I2C commented out, SPI only for a Pi 3, no core clock settings, the I2C node missing.
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.1", config: "#dtparam=i2c_arm=on\n[pi3]\ndtparam=spi=on\n[all]\n", devices: ["/dev/spidev0.0"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4"))
        #expect(Self.finding(findings, "i2c-enabled")?.fix?.contains("`dtparam=i2c_arm=on` to /boot/firmware/config.txt") == true)
        #expect(Self.finding(findings, "spi-enabled")?.fix?.contains("`dtparam=spi=on`") == true)
        #expect(Self.finding(findings, "spi-clock")?.fix == "add `core_freq=500` and `core_freq_min=500` to /boot/firmware/config.txt, then reboot")
        #expect(findings.contains { $0.check == "device-node" && $0.status == .fail && $0.summary == "oled: /dev/i2c-1 does not exist" })
        let report = DoctorReport(findings)
        #expect(report.failed && report.text.contains("✘ I2C is off") && report.text.contains("    fix: add `dtparam=spi=on`"))
        #expect(report.text.contains("4 problems to fix"), "\(report.text)")
    }

    @Test func aPi3NeedsItsOwnCoreClock() throws {
        let machine = try Machine(model: "Raspberry Pi 3 Model B Plus Rev 1.3", config: "dtparam=i2c_arm=on,spi=on\n[pi3]\ncore_freq=400\n", devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4"))
        #expect(Self.finding(findings, "i2c-enabled")?.status == .pass, "two parameters on one line")
        #expect(Self.finding(findings, "spi-clock")?.fix == "add `core_freq=250` to /boot/firmware/config.txt, then reboot")
    }

    @Test func aZero2WSetUpRightPasses() throws {
        let machine = try Machine(model: "Raspberry Pi Zero 2 W Rev 1.0", config: "dtparam=i2c_arm=on\ndtparam=spi=on\n[pi02]\ncore_freq=250\n", devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "board")?.summary.hasSuffix("(Raspberry Pi Zero 2 W)") == true)
    }

    @Test func aPi5Has16KiBPagesAndNoCoreClockToSet() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", pageSize: 16384, config: "dtparam=i2c_arm=on\ndtparam=spi=on\n", devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-5"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "kernel")?.summary.hasSuffix("16 KiB pages") == true)
        #expect(Self.finding(findings, "spi-clock") == nil, "the RP1's SPI clock does not scale")
    }

    @Test func aPi5StripOnLeds0NeedsTheOverlay() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", pageSize: 16384, config: "dtparam=spi=on\n", devices: [])
        defer { machine.remove() }
        let configuration = try ConfigurationLoader.parse("""
            board: Raspberry Pi 5
            outputs:
              - name: strip
                driver: leds0
                path: /dev/leds0
                count: 30
            """, source: "strip.yaml")
        let findings = machine.doctor(configuration)
        #expect(Self.finding(findings, "ws2812-pio")?.fix == "add `dtoverlay=ws2812-pio,gpio=18,num_leds=30` to /boot/firmware/config.txt (the GPIO the data line is on), then reboot")
        #expect(findings.contains { $0.summary == "strip: /dev/leds0 does not exist" })
    }

    @Test func aLongChainIsCheckedAgainstSpidevsBufsiz() throws {
        let long = """
            outputs:
              - name: strip
                driver: ws2812
                bus: /dev/spidev0.0
                count: 600
            """
        let small = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", config: "dtparam=spi=on\n", devices: ["/dev/spidev0.0"])
        defer { small.remove() }
        let findings = small.doctor(try ConfigurationLoader.parse(long, source: "long.yaml"))
        #expect(Self.finding(findings, "bufsiz")?.summary == "strip: a frame is 5580 bytes, spidev takes 4096 in one message")
        #expect(Self.finding(findings, "bufsiz")?.fix == "add `spidev.bufsiz=8192` to the one line of /boot/firmware/cmdline.txt, then reboot")
        #expect(Self.finding(findings, "power")?.fix == "set current-budget-ma to what the LEDs' 5 V supply gives", "600 LEDs, no budget")
        let raised = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", config: "dtparam=spi=on\n", cmdline: "root=PARTUUID=1 spidev.bufsiz=65536", devices: ["/dev/spidev0.0"])
        defer { raised.remove() }
        #expect(Self.finding(raised.doctor(try ConfigurationLoader.parse(long, source: "long.yaml")), "bufsiz") == nil)
    }

    @Test func notAPiSkipsTheFirmwareChecks() throws {
        let machine = try Machine(model: nil, config: nil, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4"))
        #expect(Self.finding(findings, "board")?.status == .advice)
        #expect(Self.finding(findings, "i2c-enabled") == nil && Self.finding(findings, "spi-clock") == nil)
        #expect(findings.filter { $0.status == .fail }.isEmpty)
    }

    @Test func jsonListsEveryCheck() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "", devices: [])
        defer { machine.remove() }
        let report = DoctorReport(machine.doctor(try BoardPresets.configuration(named: "raspberry-pi-4")))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false && object["version"] as? Int == 1)
        let checks = try #require(object["checks"] as? [[String: String]])
        #expect(checks.count == report.findings.count)
        #expect(checks.contains { $0["check"] == "i2c-enabled" && $0["status"] == "fail" && $0["fix"] != nil })
    }
}
