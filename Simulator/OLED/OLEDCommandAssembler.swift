import HeadwayDevices

/// Gathers a command and its argument bytes, as every controller of the family does: the first
/// command byte is the opcode, the command table says how many argument bytes follow (sent with
/// D/C# low as well), and the command runs once the last of them arrived.
///
/// Both families share this; what differs between controllers is only the table.
struct OLEDCommandAssembler: Sendable {
    struct Pending: Sendable {
        var opcode: UInt8
        var needed: Int
        var arguments: [UInt8] = []
    }

    enum Step {
        /// A whole command: run it.
        case execute(UInt8, [UInt8])
        /// An opcode or argument taken; more argument bytes are awaited.
        case waiting
        /// An opcode the table does not define.
        case unknown(UInt8)
    }

    private(set) var pending: Pending?

    /// Takes one byte sent as a command.
    mutating func command(_ byte: UInt8, argumentCount: (UInt8) -> Int?) -> Step {
        if var command = pending {
            command.arguments.append(byte)
            if command.arguments.count == command.needed {
                pending = nil
                return .execute(command.opcode, command.arguments)
            }
            pending = command
            return .waiting
        }
        switch argumentCount(byte) {
        case nil: return .unknown(byte)
        case 0: return .execute(byte, [])
        case let count?:
            pending = Pending(opcode: byte, needed: count)
            return .waiting
        }
    }

    /// Drops a command still waiting for arguments (display data or STOP came first) and says which.
    mutating func cutOff() -> Pending? {
        defer { pending = nil }
        return pending
    }
}

extension OLEDCommandAssembler.Pending {
    /// "command 0x81 still waits for 1 argument byte" / "… cut off … 0 of its 1 argument bytes arrived".
    var missing: Int { needed - arguments.count }
}
