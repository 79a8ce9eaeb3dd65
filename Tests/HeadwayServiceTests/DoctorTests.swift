import Foundation
import Headway
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

        func doctor(_ configuration: ServiceConfiguration, probe: (any DoctorProbe)? = nil, as account: Account? = nil) -> [DoctorFinding] {
            Doctor.check(configuration, on: MachineView(root: root.path), probe: probe, as: account)
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

    /// The generic ring and OLED on `board`, as `--board BOARD --hat ws2812-ring --hat ssd1306-128x64`.
    static func ringAndOLED(on board: String) throws -> ServiceConfiguration {
        try Presets.configuration(board: board, hats: ["ws2812-ring", "ssd1306-128x64"])
    }

    static func finding(_ findings: [DoctorFinding], _ check: String) -> DoctorFinding? { findings.first { $0.check == check } }

    @Test func aWellSetUpPi4PassesEverything() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: Self.pi4Config, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-4"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "board")?.summary == "Raspberry Pi 4 Model B Rev 1.5 (Raspberry Pi 4), as configured (board: raspberry-pi-4)")
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
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-4"))
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
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-3"))
        #expect(Self.finding(findings, "i2c-enabled")?.status == .pass, "two parameters on one line")
        #expect(Self.finding(findings, "spi-clock")?.fix == "add `core_freq=250` to /boot/firmware/config.txt, then reboot")
    }

    @Test func aZero2WSetUpRightPasses() throws {
        let machine = try Machine(model: "Raspberry Pi Zero 2 W Rev 1.0", config: "dtparam=i2c_arm=on\ndtparam=spi=on\n[pi02]\ncore_freq=250\n", devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-zero-2-w"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "board")?.summary.hasSuffix("(Raspberry Pi Zero 2 W), as configured (board: raspberry-pi-zero-2-w)") == true)
    }

    @Test func aPi5Has16KiBPagesAndNoCoreClockToSet() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", pageSize: 16384, config: "dtparam=i2c_arm=on\ndtparam=spi=on\n", devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-5"))
        #expect(findings.filter { $0.status == .fail }.isEmpty, "\(findings)")
        #expect(Self.finding(findings, "kernel")?.summary.hasSuffix("16 KiB pages") == true)
        #expect(Self.finding(findings, "spi-clock") == nil, "the RP1's SPI clock does not scale")
    }

    @Test func aPi5StripOnLeds0NeedsTheOverlay() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", pageSize: 16384, config: "dtparam=spi=on\n", devices: [])
        defer { machine.remove() }
        let configuration = try ConfigurationLoader.parse("""
            board: raspberry-pi-5
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
        let findings = machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-4"))
        #expect(Self.finding(findings, "board")?.status == .advice)
        #expect(Self.finding(findings, "i2c-enabled") == nil && Self.finding(findings, "spi-clock") == nil)
        #expect(findings.filter { $0.status == .fail }.isEmpty)
    }

    @Test func jsonListsEveryCheck() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: "", devices: [])
        defer { machine.remove() }
        let report = DoctorReport(machine.doctor(try Self.ringAndOLED(on: "raspberry-pi-4")))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false && object["version"] as? Int == 1)
        let checks = try #require(object["checks"] as? [[String: String]])
        #expect(checks.count == report.findings.count)
        #expect(checks.contains { $0["check"] == "i2c-enabled" && $0["status"] == "fail" && $0["fix"] != nil })
    }

    /// What a machine's GPIO chips and I2C buses answered, written down: the running-machine
    /// checks' logic on known answers (the kernel-test VM asks real gpio-sim and i2c-stub).
    struct RecordedProbe: DoctorProbe {
        var chips: [GPIOChipSummary]
        var holders: [UInt32: String] = [:]
        var answers: [UInt8: I2CPresence] = [:]

        func gpioChips() -> [GPIOChipSummary] { chips }
        func holder(chip path: String, line: UInt32) throws(DeviceError) -> String? { holders[line] }
        func i2c(bus path: String, address: UInt8) throws(DeviceError) -> I2CPresence { answers[address] ?? .silent }
    }

    static let rp1 = GPIOChipSummary(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-rp1", lines: 54)

    @Test func gpioLinesFreeHeldAndOnTheWrongChip() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", pageSize: 16384, config: "dtparam=i2c_arm=on\n", devices: ["/dev/i2c-1", "/dev/gpiochip0"])
        defer { machine.remove() }
        let blinkt = try Presets.configuration(board: "raspberry-pi-5", hats: ["pimoroni-blinkt", "button-gpio17"])
        let free = machine.doctor(blinkt, probe: RecordedProbe(chips: [Self.rp1]))
        #expect(Self.finding(free, "gpio-chip")?.summary == "pinctrl-rp1 is gpiochip0 (54 lines); lines 23, 24, 17 free")
        #expect(free.filter { $0.status == .fail }.isEmpty, "\(free)")
        let held = machine.doctor(blinkt, probe: RecordedProbe(chips: [Self.rp1], holders: [17: "gpio-keys", 23: "headway"]))
        #expect(held.contains { $0.status == .fail && $0.summary == "button 1: GPIO 17 of pinctrl-rp1 is held by \"gpio-keys\"" && $0.fix?.contains("`gpioinfo` shows it") == true })
        #expect(held.contains { $0.status == .pass && $0.summary.hasSuffix("held by headway (the daemon is running)") })
        // A Pi 4's configuration on a Pi 5: no chip with that label.
        let pi4 = try Presets.configuration(board: "raspberry-pi-4", hats: ["pimoroni-blinkt"])
        let wrong = try #require(Self.finding(machine.doctor(pi4, probe: RecordedProbe(chips: [Self.rp1])), "gpio-chip"))
        #expect(wrong.status == .fail && wrong.summary == "no GPIO chip labelled or named pinctrl-bcm2711 (here: gpiochip0 [pinctrl-rp1])")
        #expect(wrong.fix == "this board's header chip is pinctrl-rp1: set the board that has it (board: raspberry-pi-N) or chip: pinctrl-rp1")
    }

    @Test func i2cAddressesAnswerMoveOrBelongToAKernelDriver() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: Self.pi4Config, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        let oled = try Presets.configuration(board: "raspberry-pi-4", hats: ["ssd1306-128x64"])
        let here = machine.doctor(oled, probe: RecordedProbe(chips: [], answers: [0x3C: .acknowledged]))
        #expect(Self.finding(here, "i2c-address")?.summary == "oled (ssd1306 128x64): a device answers at 0x3C on /dev/i2c-1")
        let moved = try #require(Self.finding(machine.doctor(oled, probe: RecordedProbe(chips: [], answers: [0x3D: .acknowledged])), "i2c-address"))
        #expect(moved.status == .fail && moved.fix == "set `address: 0x3d` for oled (the module is wired for 0x3D)")
        let missing = try #require(Self.finding(machine.doctor(oled, probe: RecordedProbe(chips: [])), "i2c-address"))
        #expect(missing.status == .fail && missing.fix?.contains("`i2cdetect -y 1`") == true)
        // A kernel driver bound at 0x3C (the ssd1306 overlay's), named from sysfs.
        let device = machine.root.appendingPathComponent("sys/bus/i2c/devices/1-003c")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: device.appendingPathComponent("driver").path, withDestinationPath: "../../../../bus/i2c/drivers/ssd1307fb")
        let owned = try #require(Self.finding(machine.doctor(oled, probe: RecordedProbe(chips: [], answers: [0x3C: .ownedByKernelDriver])), "i2c-address"))
        #expect(owned.summary == "oled (ssd1306 128x64): 0x3C on /dev/i2c-1 is owned by the kernel driver ssd1307fb (UU in i2cdetect)")
        // No display configured: 0x3C/0x3D are looked at on the header's bus, as advice.
        let ring = try Presets.configuration(board: "raspberry-pi-4", hats: ["ws2812-ring"])
        let scan = try #require(Self.finding(machine.doctor(ring, probe: RecordedProbe(chips: [], answers: [0x3D: .acknowledged])), "i2c-scan"))
        #expect(scan.status == .advice && scan.summary.hasPrefix("something answers at 0x3D on /dev/i2c-1"))
    }

    /// Device nodes are checked for the service's user and groups (from its unit), not whoever runs doctor.
    @Test func deviceAccessIsCheckedAsTheServicesUser() throws {
        let machine = try Machine(model: "Raspberry Pi 4 Model B Rev 1.5", config: Self.pi4Config, devices: ["/dev/spidev0.0", "/dev/i2c-1"])
        defer { machine.remove() }
        func write(_ path: String, _ text: String) throws {
            let url = machine.root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("etc/passwd", "root:x:0:0::/root:/bin/sh\nheadway:x:998:998::/nonexistent:/usr/sbin/nologin\npi:x:1000:1000::/home/pi:/bin/bash\n")
        try write("etc/group", "root:x:0:\ni2c:x:995:pi\nspi:x:996:\nheadway:x:998:\npi:x:1000:\n")
        try write("usr/lib/systemd/system/headway.service", "[Service]\nUser=headway\nSupplementaryGroups=gpio i2c spi\n")
        for (node, gid) in [("dev/spidev0.0", 996), ("dev/i2c-1", 995)] {
            let path = machine.root.appendingPathComponent(node).path
            try FileManager.default.setAttributes([.posixPermissions: 0o660, .ownerAccountID: 0, .groupOwnerAccountID: gid], ofItemAtPath: path)
        }
        let view = MachineView(root: machine.root.path)
        let service = try #require(view.serviceAccount)
        #expect(service.name == "headway" && service.groupNames == ["headway", "i2c", "spi"])
        let configuration = try Self.ringAndOLED(on: "raspberry-pi-4")
        #expect(machine.doctor(configuration, as: service).filter { $0.check == "device-access" }.isEmpty)
        // pi is in i2c but not spi: told the exact command.
        let pi = try #require(view.account(named: "pi", origin: "--user"))
        let denied = machine.doctor(configuration, as: pi).filter { $0.check == "device-access" }
        #expect(denied.map(\.summary) == ["ring: /dev/spidev0.0 is there but pi may not open it"])
        #expect(denied.first?.fix == "`sudo usermod -aG spi pi`, then `sudo systemctl restart headway`")
    }

    /// The LEDs' budgets weighed against the supply the configuration names.
    @Test func theBudgetsAreWeighedAgainstTheSupply() throws {
        let machine = try Machine(model: "Raspberry Pi 5 Model B Rev 1.0", config: "dtparam=spi=on\n", devices: ["/dev/spidev0.0"])
        defer { machine.remove() }
        func strip(_ extra: String) throws -> ServiceConfiguration {
            try ConfigurationLoader.parse("board: raspberry-pi-5\n\(extra)outputs:\n  - name: strip\n    driver: ws2812\n    bus: header\n    count: 60\n    current-budget-ma: 2500\n", source: "s.yaml")
        }
        let small = try #require(Self.finding(machine.doctor(try strip("supply-ma: 2000\n")), "supply"))
        #expect(small.status == .fail && small.summary == "the LEDs may draw 2500 mA, more than the 2000 mA the supply gives (supply-ma)")
        #expect(Self.finding(machine.doctor(try strip("supply-ma: 4000\n")), "supply")?.status == .pass)
        #expect(Self.finding(machine.doctor(try strip("")), "supply")?.status == .advice)
    }
}
