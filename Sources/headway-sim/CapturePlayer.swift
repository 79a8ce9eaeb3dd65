import Headway
import HeadwayProtocol
import HeadwaySimulator

/// Plays a bus capture (`--capture` lines) into a rig's virtual chips, in order and at each line's
/// time: I2C writes on the rig's I2C buses, SPI writes on its SPI buses, GPIO lines set on its
/// chips (so an SPI display reads its D/C line as it was), PWM settings on its PWM channels (a
/// TFT's backlight). Lines for buses, chips and channels the rig does not have are skipped.
struct CapturePlayer {
    var rig: SimulatorRig
    let clock: ManualClock
    /// Attaches a twin where an I2C write finds no chip (replaying one --device), if it may.
    let addTwin: ((_ bus: String, _ address: UInt8) -> RigDevice?)?
    /// Writes delivered to a display's chip.
    private(set) var delivered = 0

    struct LineError: Error, CustomStringConvertible {
        let description: String
    }

    mutating func play(_ line: Substring) throws(LineError) {
        guard let object = try? JSONValue.parse(String(line)), case .object = object else {
            throw LineError(description: "not a JSON object")
        }
        if let time = object["t"]?.number, time.isFinite, time > clock.now { clock.set(to: time) }
        if let label = object["chip"]?.string {
            guard let lines = Self.integers(object["lines"]), let values = Self.integers(object["values"]), lines.count == values.count,
                lines.allSatisfy({ (0..<512).contains($0) })
            else { throw LineError(description: "a GPIO line needs \"lines\" and as many \"values\"") }
            rig.gpioChips.first { $0.label == label }?.setLevels(lines.map { UInt32($0) }, physical: values.map { $0 != 0 })
            return
        }
        if let name = object["pwm"]?.string {
            guard let period = Self.integer(object["period"]), let duty = Self.integer(object["duty"]), let enabled = Self.integer(object["enabled"]),
                  period > 0, (0...period).contains(duty)
            else { throw LineError(description: "a PWM line needs \"period\" (ns, above 0), \"duty\" (at most the period) and \"enabled\"") }
            do {
                try rig.buses.pwmChannels.first { $0.name == name }?.set(period: UInt64(period), duty: UInt64(duty), enabled: enabled != 0)
            } catch { throw LineError(description: error.message) }
            return
        }
        guard let name = object["bus"]?.string, let hex = object["write"]?.string, let bytes = Self.bytes(hex: hex) else {
            throw LineError(description: "a bus line needs \"bus\" and \"write\" (hex bytes)")
        }
        if let address = Self.integer(object["addr"]) {
            guard (0...127).contains(address) else { throw LineError(description: "\"addr\" must be 0…127") }
            try writeI2C(bytes, bus: name, address: UInt8(address))
        } else if let bus = rig.spiBuses.first(where: { $0.name == name }) {
            let hz = Self.integer(object["hz"]).map { UInt32(clamping: $0) } ?? 1_000_000
            let mode = UInt8(clamping: Self.integer(object["mode"]) ?? 0)
            do { try bus.write(bytes, settings: SPISettings(mode: mode, speedHz: max(1, hz))) } catch { throw LineError(description: error.message) }
            delivered += 1
        }
    }

    private mutating func writeI2C(_ bytes: [UInt8], bus name: String, address: UInt8) throws(LineError) {
        let bus = rig.buses.i2cBus(name)
        if !bus.hasTarget(at: address) {
            guard let twin = addTwin?(name, address) else { return }
            rig.devices.append(twin)
        }
        do { try bus.write([bytes], to: address) } catch { throw LineError(description: error.message) }
        delivered += 1
    }

    /// A JSON number that is a whole number an `Int` holds.
    private static func integer(_ value: JSONValue?) -> Int? {
        guard let number = value?.number, number == number.rounded(), abs(number) < 0x1p53 else { return nil }
        return Int(number)
    }

    /// A JSON array of whole numbers.
    private static func integers(_ value: JSONValue?) -> [Int]? {
        guard case .array(let items) = value else { return nil }
        let numbers = items.compactMap(integer)
        return numbers.count == items.count ? numbers : nil
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
