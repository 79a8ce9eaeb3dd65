import HeadwayDevices

/// The front end both register sets share: a byte marked as command (D/C# low) or display data
/// (D/C# high) is assembled into a command with its arguments, checked against the command lock
/// and the controller's command table, or written to RAM. What differs is the table, the name
/// in errors and where data lands.
protocol OLEDCommandInput {
    var assembler: OLEDCommandAssembler { get set }
    var commandLocked: Bool { get }
    var protocolErrors: [String] { get set }
    /// The controller's name as protocol errors give it.
    var controllerName: String { get }
    func argumentCount(_ opcode: UInt8) -> Int?
    mutating func execute(_ opcode: UInt8, _ arguments: [UInt8])
    mutating func writeData(_ byte: UInt8)
}

extension OLEDCommandInput {
    mutating func error(_ text: String) { protocolErrors.append(text) }

    /// Takes one byte that the bus marked as command or display data.
    mutating func take(_ byte: UInt8, isData: Bool) {
        if isData {
            if let cut = assembler.cutOff() {
                error("display data while command \(hexByte(cut.opcode)) still waits for \(cut.missing) argument byte(s)")
            }
            guard !commandLocked else { return error("display data \(hexByte(byte)) while the command lock (FDh 16h) is in force") }
            return writeData(byte)
        }
        if commandLocked, assembler.pending == nil, byte != 0xFD {
            return error("command byte \(hexByte(byte)) while the command lock (FDh 16h) is in force")
        }
        switch assembler.command(byte, argumentCount: argumentCount) {
        case .waiting: break
        case .unknown(let opcode): error("unknown command \(hexByte(opcode)) for \(controllerName)")
        case .execute(let opcode, let arguments): execute(opcode, arguments)
        }
    }

    /// The I2C transaction ended: a command still waiting for arguments is cut off.
    mutating func endOfTransaction() {
        if let cut = assembler.cutOff() {
            error("command \(hexByte(cut.opcode)) cut off by STOP: \(cut.arguments.count) of its \(cut.needed) argument bytes arrived")
        }
    }
}
