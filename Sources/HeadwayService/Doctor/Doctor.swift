import Headway
import HeadwaySystem

/// `headwayd doctor`: the machine checked against a configuration, every problem at once, each
/// with its fix (the set-up mistakes field-notes.md lists). Reads files, and with a `probe` asks
/// the running machine's GPIO chips and I2C buses what they hold; drives and writes nothing.
/// Device nodes are checked for `account` (the service's user), or for this process without one.
public enum Doctor {
    /// The checklist for `configuration` on `machine`: what `probe` finds on the running machine's
    /// buses (nil: those checks are skipped), the device nodes as `account` sees them, quiet hours
    /// as of `local`.
    public static func check(_ configuration: ServiceConfiguration, on machine: MachineView, probe: (any DoctorProbe)? = nil, as account: Account? = nil,
        at local: LocalTime? = nil
    ) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let model = machine.model.flatMap(RaspberryPiModel.init(deviceTreeModel:))
        findings.append(board(machine, model, configured: configuration.board))
        findings.append(kernel(machine))
        if let account {
            findings.append(DoctorFinding("user", .pass, "device access checked as \(account.name) (\(account.origin)), groups \(account.groupNames.joined(separator: ", "))"))
        }
        let configPath = machine.configTxtPath
        let firmware = model == nil ? nil : configPath.flatMap(machine.text).map { FirmwareConfig($0, model: model) }
        let configFile = configPath ?? "/boot/firmware/config.txt"

        let claims = configuration.outputs.flatMap(\.device.claims)
        let usesI2C = claims.contains { if case .i2cAddress = $0.resource { true } else { false } }
        let usesSPI = claims.contains { if case .spiBus = $0.resource { true } else { false } }
        if model != nil, let firmware {
            if usesI2C, !firmware.parameterIsOn(["i2c_arm", "i2c"]) {
                findings.append(DoctorFinding("i2c-enabled", .fail, "I2C is off in \(configFile)",
                                              fix: "add `dtparam=i2c_arm=on` to \(configFile) (or `sudo raspi-config nonint do_i2c 0`), then reboot"))
            } else if usesI2C {
                findings.append(DoctorFinding("i2c-enabled", .pass, "I2C is on (dtparam=i2c_arm=on)"))
            }
            if usesSPI, !firmware.parameterIsOn(["spi"]) {
                findings.append(DoctorFinding("spi-enabled", .fail, "SPI is off in \(configFile)",
                                              fix: "add `dtparam=spi=on` to \(configFile) (or `sudo raspi-config nonint do_spi 0`), then reboot"))
            } else if usesSPI {
                findings.append(DoctorFinding("spi-enabled", .pass, "SPI is on (dtparam=spi=on)"))
            }
        }
        // What each family knows to check of its own, said once however many outputs share it;
        // its advice (wiring that cannot be measured from here) comes last.
        var advice: [DoctorFinding] = []
        for output in configuration.outputs {
            let machine = DoctorMachine(model: model, firmware: firmware, configFile: configFile, output: output.name, files: machine)
            for finding in output.device.findings(machine) where !findings.contains(finding) && !advice.contains(finding) {
                if finding.status == .advice { advice.append(finding) } else { findings.append(finding) }
            }
        }
        findings += deviceNodes(configuration, machine, account)
        if let probe {
            findings += gpioLines(configuration, machine, probe, account)
            findings += i2cAddresses(configuration, machine, probe)
        } else {
            findings.append(DoctorFinding("probes", .advice, "GPIO lines and I2C addresses were not probed: they are asked of the running machine only (not under --root)"))
        }
        findings += bufsiz(configuration.outputs, machine, clock: configuration.spiClock)
        findings += power(configuration) + advice
        findings += quietHours(configuration, at: local ?? LocalTime.of(wallClock: WallClock.now))
        findings += units(configuration, machine, probe, account, wall: WallClock.now, now: MonotonicClock().now)
        return findings
    }

    private static func board(_ machine: MachineView, _ model: RaspberryPiModel?, configured: BoardPreset?) -> DoctorFinding {
        guard let name = machine.model else {
            return DoctorFinding("board", .advice, "no device tree model (/proc/device-tree/model): not a Raspberry Pi, so config.txt is not checked")
        }
        guard let model else {
            return DoctorFinding("board", .advice, "\(name): not a board Headway knows, so config.txt is not checked")
        }
        let matching = Presets.names(.board).first { (try? Presets.board(named: $0))?.models.contains(model) == true }
        guard let configured else {
            return DoctorFinding("board", .advice, "\(name) (\(model.rawValue)); the configuration names no board",
                                 fix: matching.map { "add `board: \($0)` (its GPIO chip and SPI clock)" })
        }
        guard configured.models.contains(model) else {
            return DoctorFinding("board", .fail, "the configuration is for a \(configured.title) (board: \(configured.name)), but this is a \(name)",
                                 fix: matching.map { "set `board: \($0)` (or --board \($0)): the GPIO chip and SPI clock differ" } ?? "remove board: from the configuration")
        }
        return DoctorFinding("board", .pass, "\(name) (\(model.rawValue)), as configured (board: \(configured.name))")
    }

    private static func kernel(_ machine: MachineView) -> DoctorFinding {
        let release = machine.kernelRelease ?? "unknown kernel"
        let pages = machine.pageSize.map { "\($0 / 1024) KiB pages" } ?? "page size unknown"
        return DoctorFinding("kernel", .pass, "Linux \(release), \(pages)")
    }

    /// Every device node the configuration names: there, and usable by this user.
    private static func deviceNodes(_ configuration: ServiceConfiguration, _ machine: MachineView, _ account: Account?) -> [DoctorFinding] {
        var nodes: [(path: String, kind: String, what: String)] = []
        func add(_ node: (path: String, kind: String)?, _ what: String) {
            guard let node, !nodes.contains(where: { $0.path == node.path && $0.what == what }) else { return }
            nodes.append((node.path, node.kind, what))
        }
        for output in configuration.outputs {
            for claim in output.device.claims { add(claim.node, output.name) }
        }
        for (index, button) in configuration.buttons.enumerated() {
            for claim in button.claims { add(claim.node, "button \(index + 1)") }
        }
        var findings: [DoctorFinding] = []
        for node in nodes {
            if !machine.exists(node.path) {
                let made = configuration.outputs.flatMap(\.device.claims).lazy.compactMap { claim -> String? in
                    if case .file(node.path, let madeBy) = claim.resource { madeBy } else { nil }
                }.first
                let enable = switch node.kind {
                case "I2C": "enable I2C (dtparam=i2c_arm=on) and reboot; elsewhere load i2c-dev (`sudo modprobe i2c-dev`)"
                case "SPI": "enable SPI (dtparam=spi=on) and reboot"
                default: made ?? "check the path in the configuration"
                }
                findings.append(DoctorFinding("device-node", .fail, "\(node.what): \(node.path) does not exist", fix: enable))
            } else if !machine.usable(node.path, as: account) {
                let who = account?.name ?? "this user"
                let group = machine.owner(node.path).flatMap { machine.groupName($0.gid) }
                let fix: String
                if let group, group != "root", (machine.owner(node.path)?.mode ?? 0) & 0o060 == 0o060 {
                    fix = "`sudo usermod -aG \(group) \(account?.name ?? "$USER")`" + (account == nil ? ", then log in again" : ", then `sudo systemctl restart headway`")
                } else {
                    fix = "give the node a group that may read and write it with a udev rule (the headway package installs rules for gpiochip, i2c-dev and spidev nodes), then add \(who) to that group"
                }
                findings.append(DoctorFinding("device-access", .fail, "\(node.what): \(node.path) is there but \(who) may not open it", fix: fix))
            } else {
                findings.append(DoctorFinding("device-node", .pass, "\(node.what): \(node.path)"))
            }
        }
        return findings
    }

    /// spidev sends a frame as one message of at most bufsiz bytes: a long chain needs more.
    private static func bufsiz(_ outputs: [OutputConfiguration], _ machine: MachineView, clock: SPIClockModel) -> [DoctorFinding] {
        let limit = machine.spidevBufsiz
        let cmdline = machine.cmdlineTxtPath ?? "/boot/firmware/cmdline.txt"
        return outputs.compactMap { (output: OutputConfiguration) -> DoctorFinding? in
            guard let bytes = output.device.frameBytes(spiClock: clock), bytes > limit else { return nil }
            return DoctorFinding("bufsiz", .fail, "\(output.name): a frame is \(bytes) bytes, spidev takes \(limit) in one message",
                                 fix: "add `spidev.bufsiz=\(WS2812Strip.suggestedBufsiz(bytes))` to the one line of \(cmdline), then reboot")
        }
    }

    /// The LEDs' draw against their budgets and the configured supply; what cannot be measured
    /// from here (the WS2812 data level) as advice, once.
    private static func power(_ configuration: ServiceConfiguration) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var drawn = 0.0
        for output in configuration.outputs {
            guard let count = output.device.ledCount else { continue }
            let fullWhite = count * 60
            drawn += output.pipeline.budget.map { min($0.budgetMilliamps, Double(fullWhite)) } ?? Double(fullWhite)
            if let budget = output.pipeline.budget {
                findings.append(DoctorFinding("power", .advice, "\(output.name): \(count) LEDs could draw \(fullWhite) mA at full white; frames are dimmed to \(Int(budget.budgetMilliamps)) mA"))
            } else if fullWhite > 500 {
                findings.append(DoctorFinding("power", .advice, "\(output.name): \(count) LEDs could draw \(fullWhite) mA at full white, with no current-budget-ma set",
                                              fix: "set current-budget-ma to what the LEDs' 5 V supply gives"))
            }
        }
        if drawn > 0 {
            if let supply = configuration.supplyMilliamps {
                if drawn > supply {
                    findings.append(DoctorFinding("supply", .fail, "the LEDs may draw \(Int(drawn)) mA, more than the \(Int(supply)) mA the supply gives (supply-ma)",
                                                  fix: "lower current-budget-ma so that the outputs' budgets add up to at most \(Int(supply)) mA, or use a bigger supply"))
                } else {
                    findings.append(DoctorFinding("supply", .pass, "the LEDs draw at most \(Int(drawn)) mA of the supply's \(Int(supply)) mA"))
                }
            } else {
                findings.append(DoctorFinding("supply", .advice, "the LEDs may draw \(Int(drawn)) mA at most: their 5 V supply must give that, besides what the Pi takes",
                                              fix: "say what the supply gives with supply-ma, and doctor weighs the budgets against it"))
            }
        }
        return findings
    }
}
