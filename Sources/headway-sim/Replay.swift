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
        let buses = SimulatedBuses(clock: clock)
        let rig = try displays(buses)
        guard let bytes = Files.read(capture), let text = String(validating: bytes, as: UTF8.self) else {
            throw ValidationError("cannot read the capture \(capture)")
        }
        var player = CapturePlayer(rig: rig, clock: clock, addTwin: device.map { device in { bus, address in twin(of: device, on: buses, bus: bus, address: address) } })
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do { try player.play(line) } catch { throw ValidationError("\(capture):\(number + 1): \(error)") }
        }
        guard player.delivered > 0 else { throw ValidationError("\(capture) has nothing for these displays (no I2C or SPI writes to them)") }
        let writer = SnapshotWriter(directory: out)
        for device in player.rig.devices {
            guard case .panel(let panel) = device.view else { continue }
            print(try writer.write(panel.panelPicture, named: device.name).joined(separator: "\n"))
        }
        let problems = player.rig.problems
        if !problems.isEmpty {
            throw ValidationError("the controllers found protocol errors:\n" + problems.joined(separator: "\n"))
        }
    }

    /// The rig the capture is played on: --device's, or every output of the configuration.
    private func displays(_ buses: SimulatedBuses) throws -> SimulatorRig {
        let configuration: ServiceConfiguration
        do {
            configuration = try device.map { device throws(ConfigurationError) in try DeviceCatalogue.configuration(shorthand: device) }
                ?? choice.load(fallback: Presets.simulatorRig)
        } catch {
            throw ValidationError(device == nil ? "\(error)" : "--device: \(error)")
        }
        let rig: SimulatorRig
        do { rig = try SimulatedRigBuilder.devices(configuration, buses: buses).0 } catch { throw ValidationError("\(error)") }
        guard rig.devices.contains(where: { if case .panel = $0.view { true } else { false } }) else {
            throw ValidationError(device.map { "--device \($0) is not a display; replay decodes captures for displays" } ?? "the configuration has no display to replay a capture on")
        }
        return rig
    }

    /// Another module of --device's kind at `address` on `bus`, where the capture talks to one the
    /// rig does not have.
    private func twin(of device: String, on buses: SimulatedBuses, bus: String, address: UInt8) -> RigDevice? {
        let changes = [(key: "bus", value: bus), (key: "address", value: hexByte(address)), (key: "name", value: "oled-\(bus)-\(hexByte(address))")]
        guard let configuration = try? DeviceCatalogue.configuration(shorthand: device, changes: changes) else { return nil }
        return try? VirtualTwins.attach(configuration.outputs[0], on: buses, spiClock: configuration.spiClock)
    }
}
