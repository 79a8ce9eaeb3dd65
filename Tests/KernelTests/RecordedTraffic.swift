import HeadwayCore
import HeadwayDevices
import HeadwaySimulator

/// What the recording drivers logged, parsed.
enum RecordedTraffic {
    /// One I2C message: `w 3c 40 01 02` or `r 3c 2`.
    struct I2CMessage: Equatable, CustomStringConvertible {
        var address: UInt8
        var isRead: Bool
        var bytes: [UInt8]
        var readLength: Int
        var description: String { isRead ? "r \(address) \(readLength)" : "w \(address) \(bytes.count) bytes" }
    }

    /// The I2C recorder's log: transfers (one `I2C_RDWR` or SMBus call each), separated by blank lines.
    static func i2cTransfers(_ log: String) -> [[I2CMessage]] {
        var transfers: [[I2CMessage]] = []
        var current: [I2CMessage] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let address = UInt8(fields[1], radix: 16) else {
                if !current.isEmpty { transfers.append(current) }
                current = []
                continue
            }
            if fields[0] == "r" {
                current.append(I2CMessage(address: address, isRead: true, bytes: [], readLength: Int(fields.count > 2 ? fields[2] : "0") ?? 0))
            } else {
                current.append(I2CMessage(address: address, isRead: false, bytes: fields.dropFirst(2).compactMap { UInt8($0, radix: 16) }, readLength: 0))
            }
        }
        if !current.isEmpty { transfers.append(current) }
        return transfers
    }

    /// Feeds recorded I2C transfers to the datasheet model of a module and returns it.
    static func decodeOLED(_ transfers: [[I2CMessage]], controller: OLEDController, width: Int = 128, height: Int = 64) -> VirtualOLED {
        let chip = VirtualOLED(controller: controller, width: width, height: height)
        for transfer in transfers {
            for message in transfer where !message.isRead { chip.receive(message.bytes) }
            chip.stop()
        }
        return chip
    }

    /// One SPI transfer as the controller was asked to clock it, with the levels of the display's
    /// D/C and reset lines meanwhile (nil where the recorder logged none: `-`, or `?` when it
    /// could not read the line).
    struct SPITransfer: Equatable {
        var speedHz: UInt32
        var bitsPerWord: UInt8
        var mode: UInt8
        var bytes: [UInt8]
        /// D/C high: the bytes are display data; low: commands.
        var dataCommand: Bool? = nil
        /// The reset line's level (the controllers' RES# is active low: false holds it in reset).
        var reset: Bool? = nil
    }

    /// The SPI recorder's log: `speed=… bits=… mode=… len=… dc=… reset=…: aa bb …` per transfer,
    /// dc and reset each `0`, `1`, `-` (no line configured) or `?` (the line could not be read).
    static func spiTransfers(_ log: String) -> [SPITransfer] {
        log.split(separator: "\n").compactMap { line in
            let halves = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var fields: [Substring: Substring] = [:]
            for field in halves[0].split(separator: " ") {
                let pair = field.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[pair[0]] = pair[1] }
            }
            guard halves.count == 2, let speed = fields["speed"].flatMap({ UInt32($0) }), let bits = fields["bits"].flatMap({ UInt8($0) }),
                  let mode = fields["mode"].flatMap({ UInt8($0) }) else { return nil }
            func level(_ name: Substring) -> Bool? {
                switch fields[name] {
                case "0"?: false
                case "1"?: true
                default: nil
                }
            }
            return SPITransfer(speedHz: speed, bitsPerWord: bits, mode: mode, bytes: halves[1].split(separator: " ").compactMap { UInt8($0, radix: 16) },
                               dataCommand: level("dc"), reset: level("reset"))
        }
    }

    /// Feeds recorded SPI transfers to the datasheet model of a module wired for 4-wire SPI, the
    /// D/C and reset lines at the levels logged with each transfer, and returns it.
    static func decodeOLED(_ transfers: [SPITransfer], _ controller: OLEDController, width: Int, height: Int, dataCommand: UInt32, reset: UInt32) -> VirtualOLED {
        let clock = ManualClock()
        let lines = VirtualGPIOChip(label: "gpio-sim", clock: clock)
        let chip = VirtualOLED(controller: controller, width: width, height: height)
        chip.wireSPI(dc: dataCommand, reset: reset, on: lines, clock: clock)
        lines.setLevels([reset], physical: [true])
        for transfer in transfers {
            // The log has no times: a millisecond between transfers keeps every wait the
            // datasheets ask for (the real ones were at least as long).
            clock.advance(by: 0.001)
            lines.setLevels([dataCommand, reset], physical: [transfer.dataCommand ?? false, transfer.reset ?? true])
            chip.receive(transfer.bytes, hz: transfer.speedHz, mode: transfer.mode)
        }
        return chip
    }
}
