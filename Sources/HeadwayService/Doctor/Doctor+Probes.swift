import Headway

/// The checks that ask the running machine: the GPIO chip by its label and every configured line
/// free (or who holds it), and each display's I2C address answering (or owned by a kernel driver),
/// with 0x3C/0x3D, the addresses OLED modules come at, looked at too.
extension Doctor {
    static func gpioLines(_ configuration: ServiceConfiguration, _ machine: MachineView, _ probe: any DoctorProbe, _ account: Account?) -> [DoctorFinding] {
        var wanted: [String: [(line: UInt32, who: String)]] = [:]
        var order: [String] = []
        func want(_ chip: String, _ line: UInt32, _ who: String) {
            if wanted[chip] == nil { order.append(chip) }
            wanted[chip, default: []].append((line, who))
        }
        for output in configuration.outputs {
            for claim in output.device.claims {
                guard case .gpioLine(let chip, let line) = claim.resource else { continue }
                want(chip, line, claim.role.isEmpty ? output.name : "\(output.name)'s \(claim.role)")
            }
        }
        for (index, button) in configuration.buttons.enumerated() { want(button.chip, button.line, "button \(index + 1)") }
        guard !order.isEmpty else { return [] }
        let chips = probe.gpioChips()
        let nodes = machine.entries("/dev").filter { $0.hasPrefix("gpiochip") }
        if chips.isEmpty, !nodes.isEmpty {
            return [DoctorFinding("gpio-chip", .fail, "\(nodes.map { "/dev/" + $0 }.joined(separator: ", ")) \(nodes.count == 1 ? "is" : "are") there, but this user may not open \(nodes.count == 1 ? "it" : "them") to find the configured chip",
                                  fix: "run doctor as root or as the daemon's user, or `sudo usermod -aG gpio $USER` and log in again")]
        }
        let here = chips.map { "\($0.name) [\($0.label)]" }.joined(separator: ", ")
        var findings: [DoctorFinding] = []
        for spec in order {
            let headerLabels = ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"]
            let found = spec == "auto" ? headerLabels.lazy.compactMap { label in chips.first { $0.label == label } }.first
                : chips.first { $0.path == spec || $0.name == spec || $0.label == spec }
            guard let chip = found else {
                let matching = headerLabels.first { label in chips.contains { $0.label == label } }
                findings.append(DoctorFinding(
                    "gpio-chip", .fail, "no GPIO chip \(spec == "auto" ? "with a Raspberry Pi header label" : "labelled or named \(spec)")" + (chips.isEmpty ? "; there are no GPIO chips here" : " (here: \(here))"),
                    fix: chips.isEmpty ? "check that /dev/gpiochip* exists and that this user may open it"
                        : matching.map { "this board's header chip is \($0): set the board that has it (board: raspberry-pi-N) or chip: \($0)" } ?? "name one of the chips above in chip:"))
                continue
            }
            if !machine.usable(chip.path, as: account) {
                let who = account?.name ?? "this user"
                findings.append(DoctorFinding("device-access", .fail, "\(chip.path) (\(chip.label)) is there but \(who) may not open it",
                                              fix: "`sudo usermod -aG gpio \(account?.name ?? "$USER")` (the group the Raspberry Pi's udev rules and the headway package give GPIO chips)"))
            }
            var free: [UInt32] = []
            for (line, who) in wanted[spec] ?? [] {
                guard Int(line) < chip.lines else {
                    findings.append(DoctorFinding("gpio-line", .fail, "\(who): \(chip.label) has lines 0…\(chip.lines - 1), not \(line)", fix: "use a line the chip has (GPIO numbers as on the header)"))
                    continue
                }
                do throws(DeviceError) {
                    switch try probe.holder(chip: chip.path, line: line) {
                    case .none: free.append(line)
                    case .some(let consumer) where consumer == "headway":
                        findings.append(DoctorFinding("gpio-line", .pass, "\(who): GPIO \(line) of \(chip.label) is held by headway (the daemon is running)"))
                    case .some(let consumer):
                        let holder = consumer.isEmpty ? "a driver or program that gave no name" : "\"\(DisplayText.sanitised(consumer))\""
                        findings.append(DoctorFinding("gpio-line", .fail, "\(who): GPIO \(line) of \(chip.label) is held by \(holder)",
                                                      fix: "free it (stop that program, or remove the dtoverlay that claims GPIO \(line) from config.txt; `gpioinfo` shows it), or wire to another line"))
                    }
                } catch {
                    findings.append(DoctorFinding("gpio-line", .fail, "\(who): \(error.message)", fix: "check that this user may open \(chip.path)"))
                }
            }
            let lines = free.map(String.init).joined(separator: ", ")
            findings.append(DoctorFinding("gpio-chip", .pass, "\(chip.label) is \(chip.name) (\(chip.lines) lines)" + (free.isEmpty ? "" : "; line\(free.count == 1 ? "" : "s") \(lines) free")))
        }
        return findings
    }

    static func i2cAddresses(_ configuration: ServiceConfiguration, _ machine: MachineView, _ probe: any DoctorProbe) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var looked: [String: Set<UInt8>] = [:]
        for output in configuration.outputs {
            for claim in output.device.claims {
                guard case .i2cAddress(let name, let target, let alternatives) = claim.resource else { continue }
                let bus = BusName.i2cPath(name)
                guard machine.exists(bus), machine.usable(bus) else { continue }
                findings += probeAddress(target, alternatives: alternatives, on: bus, for: "\(output.name) (\(claim.what))", output.name, machine, probe, &looked)
            }
        }
        return findings + scan(looked, machine, probe)
    }

    /// What answers at `target` on `bus` (or, when nothing does, at an address the chip can be
    /// strapped to instead).
    private static func probeAddress(
        _ target: UInt8, alternatives: [UInt8], on bus: String, for who: String, _ name: String, _ machine: MachineView, _ probe: any DoctorProbe,
        _ looked: inout [String: Set<UInt8>]
    ) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        looked[bus, default: []].insert(target)
        let address = hexByte(target)
            switch answer(probe, bus, target) {
            case .success(.acknowledged):
                findings.append(DoctorFinding("i2c-address", .pass, "\(who): a device answers at \(address) on \(bus)"))
            case .success(.silent):
                // An address the chip can be strapped to instead (an OLED's SA0, an LED
                // backpack's A0–A2 jumpers): the first that answers.
                let other = alternatives.first { if case .success(.acknowledged) = answer(probe, bus, $0) { true } else { false } }
                if let other {
                    looked[bus, default: []].insert(other)
                    findings.append(DoctorFinding("i2c-address", .fail, "\(who): nothing answers at \(address) on \(bus), but something does at \(hexByte(other))",
                                                  fix: "set `address: \(hexByte(other).lowercased())` for \(name) (the module is wired for \(hexByte(other)))"))
                } else {
                    findings.append(DoctorFinding("i2c-address", .fail, "\(who): nothing answers at \(address) on \(bus)",
                                                  fix: "check the wiring: SDA to GPIO 2 (pin 3), SCL to GPIO 3 (pin 5), VCC to 3.3 V and GND; `i2cdetect -y \(busNumber(bus))` lists what answers"))
                }
            case .success(.ownedByKernelDriver):
                findings.append(DoctorFinding("i2c-address", .fail, "\(who): \(address) on \(bus) is owned by \(driver(machine, bus, target)) (UU in i2cdetect)",
                                              fix: "remove the dtoverlay that binds it (e.g. dtoverlay=ssd1306) from config.txt and reboot: Headway drives the display itself"))
            case .failure(let error):
                findings.append(DoctorFinding("i2c-address", .fail, "\(who): \(error.message)"))
            }
        return findings
    }

    /// The addresses OLED modules come at, on the buses looked at (or the header's), where no
    /// output looked.
    private static func scan(_ looked: [String: Set<UInt8>], _ machine: MachineView, _ probe: any DoctorProbe) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        // The addresses OLED modules come at, on the buses looked at (or the header's).
        let buses = looked.isEmpty ? (machine.exists("/dev/i2c-1") && machine.usable("/dev/i2c-1") ? ["/dev/i2c-1"] : []) : looked.keys.sorted()
        for bus in buses {
            for address: UInt8 in [0x3C, 0x3D] where looked[bus]?.contains(address) != true {
                switch answer(probe, bus, address) {
                case .success(.acknowledged):
                    findings.append(DoctorFinding("i2c-scan", .advice, "something answers at \(hexByte(address)) on \(bus), where OLED modules sit, and no output uses it",
                                                  fix: "to show jobs on it: hats: [ssd1306-128x64]\(address == 0x3D ? " with address: 0x3d in an output of your own" : "") (an SH1106 module: driver: sh1106)"))
                case .success(.ownedByKernelDriver):
                    findings.append(DoctorFinding("i2c-scan", .advice, "\(hexByte(address)) on \(bus) is owned by \(driver(machine, bus, address)) (UU in i2cdetect)"))
                default: break
                }
            }
        }
        return findings
    }

    private static func answer(_ probe: any DoctorProbe, _ bus: String, _ address: UInt8) -> Result<I2CPresence, DeviceError> {
        do throws(DeviceError) { return .success(try probe.i2c(bus: bus, address: address)) } catch { return .failure(error) }
    }

    private static func busNumber(_ bus: String) -> String { String(bus.split(separator: "-").last ?? "1") }

    /// The kernel driver bound at `address`, from sysfs (`/sys/bus/i2c/devices/1-003c/driver`).
    private static func driver(_ machine: MachineView, _ bus: String, _ address: UInt8) -> String {
        let hex = String(address, radix: 16)
        let device = "/sys/bus/i2c/devices/\(busNumber(bus))-" + String(repeating: "0", count: 4 - hex.count) + hex
        return machine.linkName(device + "/driver").map { "the kernel driver \($0)" } ?? "a kernel driver"
    }
}
