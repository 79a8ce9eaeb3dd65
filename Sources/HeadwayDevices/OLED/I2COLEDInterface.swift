/// A controller on I2C: every message starts with a control byte (datasheets' "Co" and "D/C#"
/// bits): 0x00 for a stream of commands, 0x40 for a stream of display data (SSD1306 §8.1.5; the
/// same byte on every controller here). A module that brings RES# out has it on a GPIO line.
package struct I2COLEDInterface: OLEDInterface {
    /// The control bytes (Co = 0: the rest of the message is all commands, or all display data).
    static let commandStream: UInt8 = 0x00
    static let dataStream: UInt8 = 0x40

    /// The I2C bus the module is on.
    package let bus: any I2CBus
    /// The 7-bit address: 0x3C (SA0 low) or 0x3D.
    package let address: UInt8
    /// The module's RES# line, when it brings one out.
    package let resetLine: ResetLine?

    /// A module at `address` on `bus`, with its reset line if it has one.
    package init(bus: any I2CBus, address: UInt8, reset: ResetLine? = nil) {
        self.bus = bus
        self.address = address
        resetLine = reset
    }

    package var name: String { "\(bus.name) at \(hexByte(address))" }

    package func send(_ transfers: [OLEDTransfer]) throws(DeviceError) {
        let limit = bus.maxMessageLength
        var messages: [[UInt8]] = []
        messages.reserveCapacity(transfers.count)
        for transfer in transfers {
            switch transfer {
            case .commands(let commands): Self.append(commands, limit: limit, to: &messages)
            case .data(let bytes): Self.append(data: bytes, limit: limit, to: &messages)
            }
        }
        guard !messages.isEmpty else { return }
        try bus.write(messages, to: address)
    }

    package func reset(_ timing: ResetTiming) throws(DeviceError) {
        try resetLine?.pulse(timing)
    }

    /// One command message: the address byte, the control byte and the commands.
    package func commandCost(_ count: Int) -> Int { count + 2 * ((count + bus.maxMessageLength - 2) / (bus.maxMessageLength - 1)) }

    /// Data messages of at most the bus's length, each with its address byte and control byte.
    package var dataFraming: OLEDDataFraming { OLEDDataFraming(bytesPerMessage: bus.maxMessageLength - 1, overhead: 2) }

    /// Packs whole commands into command-stream messages of at most `limit` bytes, so that no
    /// command is split between two messages.
    static func append(_ commands: [OLEDCommand], limit: Int, to messages: inout [[UInt8]]) {
        var current: [UInt8] = [commandStream]
        current.reserveCapacity(min(limit, 16))
        for command in commands {
            let before = current.count
            command.append(to: &current)
            if current.count > limit, before > 1 {
                // The command does not fit: this message ends before it, the next begins with it.
                messages.append(Array(current[..<before]))
                current = [commandStream] + current[before...]
            }
        }
        if current.count > 1 { messages.append(current) }
    }

    /// Display data as data-stream messages of at most `limit` bytes.
    static func append(data bytes: ArraySlice<UInt8>, limit: Int, to messages: inout [[UInt8]]) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(bytes.endIndex, start + limit - 1)
            var message = [UInt8]()
            message.reserveCapacity(end - start + 1)
            message.append(dataStream)
            message.append(contentsOf: bytes[start..<end])
            messages.append(message)
            start = end
        }
    }
}
