import ArgumentParser
import Foundation
import Headway
import HeadwaySimulator

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Feed a bus capture (from --capture) to virtual chips and write what they show.",
        discussion: """
            Every I2C line of the capture is delivered, in order, to a virtual controller at its bus \
            and address; then each controller's picture is written to --out as PBM and SVG (named \
            oled, or oled-BUS-ADDRESS when the capture talks to several). Protocol errors the \
            controllers found are printed, and make the command fail.
            """
    )

    @Argument(help: "The capture file (JSON lines).")
    var capture: String

    @Option(help: "The module the capture was sent to: oled128x64, oled128x32, oled64x48 or sh1106.")
    var device: String = "oled128x64"

    @Option(help: ArgumentHelp("Folder to write the pictures to.", valueName: "DIR"))
    var out: String

    func run() throws {
        let spec: DeviceSpec
        do { spec = try DeviceSpec(parsing: device) } catch { throw ValidationError("--device: \(error)") }
        guard case .oled(let controller, let width, let height) = spec else {
            throw ValidationError("--device \(device) is not a display; replay decodes I2C captures for OLEDs")
        }
        guard let text = try? String(contentsOfFile: capture, encoding: .utf8) else {
            throw ValidationError("cannot read the capture \(capture)")
        }
        var chips: [(key: String, chip: VirtualOLED)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ValidationError("\(capture):\(number + 1): not a JSON object")
            }
            guard let address = object["addr"] as? Int else { continue }  // SPI and GPIO lines
            guard let bus = object["bus"] as? String, let hexBytes = object["write"] as? String, let bytes = Self.bytes(hex: hexBytes),
                (0...127).contains(address)
            else {
                throw ValidationError("\(capture):\(number + 1): an I2C line needs \"bus\", \"addr\" (0…127) and \"write\" (hex bytes)")
            }
            let key = "\(bus)-\(hexByte(UInt8(address)))"
            let chip: VirtualOLED
            if let known = chips.first(where: { $0.key == key }) {
                chip = known.chip
            } else {
                chip = VirtualOLED(controller: controller, width: width, height: height, address: UInt8(address))
                chips.append((key, chip))
            }
            chip.receive(bytes)
            chip.stop()
        }
        guard !chips.isEmpty else { throw ValidationError("\(capture) has no I2C lines to replay") }
        let writer = SnapshotWriter(directory: out)
        var problems: [String] = []
        for (key, chip) in chips {
            let name = chips.count == 1 ? "oled" : "oled-\(key)"
            print(try writer.write(chip.picture, named: name).joined(separator: "\n"))
            problems += chip.protocolErrors.map { "\(key): \($0)" }
        }
        if !problems.isEmpty {
            throw ValidationError("the controllers found protocol errors:\n" + problems.joined(separator: "\n"))
        }
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        case 0x41...0x46: c - 0x41 + 10
        default: nil
        }
    }
}
