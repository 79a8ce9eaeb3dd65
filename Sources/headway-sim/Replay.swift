import ArgumentParser
import Headway
import HeadwayProtocol
import HeadwayService
import HeadwaySimulator
import HeadwaySystem

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Feed a bus capture (from --capture) to virtual chips and write what they show.",
        discussion: """
            The displays are --device (an OLED as CONTROLLER[-WxH][@spi], as for render) or every \
            display of --board with its --hat presets or of --config FILE. Every line of the capture \
            is delivered in order at its time: I2C writes to the controller at their bus and address \
            (another module of --device's kind is added at an address the capture talks to that \
            has none), SPI writes to the chip on their bus with the D/C and reset lines at the levels \
            the capture's GPIO lines set. Then each display's glass is written to --out (NAME.pbm, or \
            NAME.pgm for greyscale, and NAME.svg; oled-BUS-ADDRESS for added modules). Protocol \
            errors the controllers found are printed, and make the command fail.
            """
    )

    @Argument(help: "The capture file (JSON lines).")
    var capture: String

    @Option(help: "The module the capture was sent to: CONTROLLER[-WxH][@spi] (e.g. ssd1327, sh1106@spi) or oledWxH.")
    var device: String?

    @Option(help: "A board preset, with --hat, instead of --device.")
    var board: String?

    @Option(name: .customLong("hat"), help: ArgumentHelp("A HAT or module preset on the board (repeatable).", valueName: "NAME"))
    var hats: [String] = []

    @Option(help: ArgumentHelp("Every display of a configuration file, instead of --device.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Folder to write the pictures to.", valueName: "DIR"))
    var out: String

    private var choice: ConfigurationChoice { ConfigurationChoice(board: board, hats: hats, config: config) }

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(problem) }
        if device != nil, board != nil || config != nil { throw ValidationError("give --device, or --board NAME --hat NAME, or --config FILE, not both") }
    }

    func run() throws {
        let clock = ManualClock()
        let (rig, module) = try displays(clock: clock)
        guard let bytes = Files.read(capture), let text = String(validating: bytes, as: UTF8.self) else {
            throw ValidationError("cannot read the capture \(capture)")
        }
        var player = CapturePlayer(rig: rig, module: module, clock: clock)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do { try player.play(line) } catch { throw ValidationError("\(capture):\(number + 1): \(error)") }
        }
        guard player.delivered > 0 else { throw ValidationError("\(capture) has nothing for these displays (no I2C or SPI writes to them)") }
        let writer = SnapshotWriter(directory: out)
        var problems: [String] = []
        for display in player.rig.displays {
            let pictures = display.isGreyscale ? try writer.write(display.glass, named: display.name) : try writer.write(display.picture, named: display.name)
            print(pictures.joined(separator: "\n"))
            problems += display.chip.protocolErrors.map { "\(display.name): \($0)" }
        }
        for (name, chip) in player.added {
            let pictures = chip.isGreyscale ? try writer.write(chip.glass, named: name) : try writer.write(chip.picture, named: name)
            print(pictures.joined(separator: "\n"))
            problems += chip.protocolErrors.map { "\(name): \($0)" }
        }
        if !problems.isEmpty {
            throw ValidationError("the controllers found protocol errors:\n" + problems.joined(separator: "\n"))
        }
    }

    /// The rig the capture is played on, and --device's module (for modules the capture adds).
    private func displays(clock: ManualClock) throws -> (SimulatorRig, (controller: OLEDController, width: Int, height: Int)?) {
        if board != nil || config != nil {
            let factory = SimulatorDeviceFactory(clock: clock)
            do { _ = try OutputBuilder.outputs(for: try choice.load(fallback: Presets.simulatorRig), factory: factory) } catch { throw ValidationError("\(error)") }
            guard !factory.rig.displays.isEmpty else { throw ValidationError("the configuration has no display to replay a capture on") }
            return (factory.rig, nil)
        }
        let spec: DeviceSpec
        do { spec = try DeviceSpec(parsing: device ?? "oled128x64") } catch { throw ValidationError("--device: \(error)") }
        guard case .oled(let controller, let width, let height, _) = spec else {
            throw ValidationError("--device \(device ?? "") is not a display; replay decodes captures for OLEDs")
        }
        return (spec.rig(clock: clock), (controller, width, height))
    }
}
