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

        let usesI2C = configuration.outputs.contains { if case .oled(.i2c, _, _) = $0.device { true } else { false } }
        let spiChains = configuration.outputs.filter {
            switch $0.device {
            case .ws2812, .apa102: true
            default: false
            }
        }
        let usesSPI = !spiChains.isEmpty || configuration.outputs.contains { if case .oled(.spi, _, _) = $0.device { true } else { false } }
        if let model, let firmware {
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
            let ws2812OnSPI = spiChains.contains { if case .ws2812 = $0.device { true } else { false } }
            if ws2812OnSPI, let steady = model.steadySPIClock {
                let missing = steady.filter { firmware.value($0.key) != $0.value }
                let lines = steady.map { "\($0.key)=\($0.value)" }.joined(separator: " and ")
                if missing.isEmpty {
                    findings.append(DoctorFinding("spi-clock", .pass, "the SPI clock is steady for WS2812 (\(lines))"))
                } else {
                    findings.append(DoctorFinding("spi-clock", .fail, "on a \(model.rawValue) the SPI clock follows the core clock, and WS2812 data sent over SPI falls apart when it scales (LEDs all white or random)",
                                                  fix: "add " + missing.map { "`\($0.key)=\($0.value)`" }.joined(separator: " and ") + " to \(configFile), then reboot"))
                }
            }
            for output in configuration.outputs {
                guard case .leds0(let path, let count, _, _) = output.device else { continue }
                if model.isPi5Family, !firmware.hasOverlay("ws2812-pio") {
                    findings.append(DoctorFinding("ws2812-pio", .fail, "\(output.name): \(path) comes from the ws2812-pio overlay, which \(configFile) does not load",
                                                  fix: "add `dtoverlay=ws2812-pio,gpio=18,num_leds=\(count)` to \(configFile) (the GPIO the data line is on), then reboot"))
                } else if !model.isPi5Family {
                    findings.append(DoctorFinding("ws2812-pio", .fail, "\(output.name): \(path) (the ws2812-pio overlay) exists only on a Raspberry Pi 5 or 500, this is a \(model.rawValue)",
                                                  fix: "drive the LEDs over SPI instead: driver: ws2812, bus: /dev/spidev0.0 (data on GPIO 10)"))
                }
            }
        }
        findings += deviceNodes(configuration, machine, account)
        if let probe {
            findings += gpioLines(configuration, machine, probe, account)
            findings += i2cAddresses(configuration, machine, probe)
        } else {
            findings.append(DoctorFinding("probes", .advice, "GPIO lines and I2C addresses were not probed: they are asked of the running machine only (not under --root)"))
        }
        findings += bufsiz(spiChains, machine, clock: configuration.spiClock)
        findings += power(configuration)
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
        for output in configuration.outputs {
            switch output.device {
            case .ws2812(let bus, _, _, _, _, _), .apa102(let bus, _, _): nodes.append((bus, "SPI", output.name))
            case .oled(let link, _, _):
                if case .i2c = link { nodes.append((link.bus, "I2C", output.name)) } else { nodes.append((link.bus, "SPI", output.name)) }
                if link.lines.chip.hasPrefix("/dev/"), !link.lines.lines.isEmpty { nodes.append((link.lines.chip, "GPIO", output.name)) }
            case .leds0(let path, _, _, _): nodes.append((path, "LED", output.name))
            case .apa102GPIO(let chip, _, _, _), .gpioLEDs(let chip, _, _):
                if chip.hasPrefix("/dev/") { nodes.append((chip, "GPIO", output.name)) }
            }
        }
        for (index, button) in configuration.buttons.enumerated() where button.chip.hasPrefix("/dev/") {
            nodes.append((button.chip, "GPIO", "button \(index + 1)"))
        }
        var findings: [DoctorFinding] = []
        for node in nodes {
            if !machine.exists(node.path) {
                let enable = switch node.kind {
                case "I2C": "enable I2C (dtparam=i2c_arm=on) and reboot; elsewhere load i2c-dev (`sudo modprobe i2c-dev`)"
                case "SPI": "enable SPI (dtparam=spi=on) and reboot"
                case "LED": "the Raspberry Pi 5's ws2812-pio overlay makes it (dtoverlay=ws2812-pio in config.txt, then reboot)"
                default: "check the path in the configuration"
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
    private static func bufsiz(_ chains: [OutputConfiguration], _ machine: MachineView, clock: SPIClockModel) -> [DoctorFinding] {
        let limit = machine.spidevBufsiz
        let cmdline = machine.cmdlineTxtPath ?? "/boot/firmware/cmdline.txt"
        return chains.compactMap { (output: OutputConfiguration) -> DoctorFinding? in
            let bytes: Int
            switch output.device {
            case .ws2812(_, let count, _, let encoding, let speed, let order):
                let chain = WS2812Strip.Configuration(count: count, order: order, encoding: encoding, speedHz: speed)
                bytes = chain.frameBytes(atHz: clock.effectiveSpeed(forRequested: chain.speedHz))
            case .apa102(_, let count, _):
                bytes = APA102Encoder(count: count).frameLength
            default: return nil
            }
            guard bytes > limit else { return nil }
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
            let count: Int
            switch output.device {
            case .ws2812(_, let n, _, _, _, _), .apa102(_, let n, _), .apa102GPIO(_, _, _, let n), .leds0(_, let n, _, _): count = n
            default: continue
            }
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
        if configuration.outputs.contains(where: { if case .ws2812 = $0.device { true } else { false } }) {
            findings.append(DoctorFinding("level-shifter", .advice, "WS2812 LEDs powered at 5 V may not read the Pi's 3.3 V data reliably (flicker, wrong colours)",
                                          fix: "put a 74AHCT125 (or similar) level shifter on the data line"))
        }
        return findings
    }
}
