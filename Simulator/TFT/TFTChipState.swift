import HeadwayDevices

/// One TFT controller's state: its registers, frame memory and the command it is in the middle
/// of. The SPI front end hands it bytes with the D/C level of their message; the glass reads it.
struct TFTChipState: Sendable {
    /// What the chip expects from the next byte sent with D/C high.
    enum Expecting: Sendable, Equatable {
        /// Nothing: a data byte now belongs to no command.
        case command
        /// The rest of a command's parameters.
        case parameters(opcode: UInt8, needed: Int, received: [UInt8])
        /// Pixels after RAMWR or Write Memory Continue.
        case pixels(TFTPixelRun)
    }

    let controller: TFTControllerModel
    let table: TFTCommandTable
    let facts: TFTControllerFacts
    let memorySize: TFTRAMSize
    var registers: TFTRegisters
    var memory: TFTFrameMemory
    var expecting: Expecting = .command
    /// The last command byte taken, for messages about bytes that follow it.
    var lastCommand: UInt8?
    var holdOffs = TFTHoldOffClock()
    private(set) var protocolErrors: [String]

    /// A controller as power-up leaves it, with a `size` frame memory (the family's own, or the one
    /// a module's GM pins select).
    init(controller: TFTControllerModel, memory size: TFTRAMSize, protocolErrors: [String] = []) {
        self.controller = controller
        table = .of(controller)
        facts = .of(controller)
        memorySize = size
        registers = TFTRegisters(family: controller.family, memory: size)
        memory = TFTFrameMemory(poweredUp: size)
        self.protocolErrors = protocolErrors
    }

    var family: TFTControllerFamily { controller.family }

    /// Error texts kept at most: a driver stuck in a loop must not grow the list without end.
    static let errorLimit = 500

    mutating func error(_ text: String) {
        if protocolErrors.count < Self.errorLimit {
            protocolErrors.append(text)
        } else if protocolErrors.count == Self.errorLimit {
            protocolErrors.append("more protocol errors followed and were not recorded (the first \(Self.errorLimit) are above)")
        }
    }

    /// RES# went low: registers to their reset values, the interface to its initial state; the
    /// frame memory keeps its contents ("H/W Reset: Contents of memory is not cleared", ST7789V V1.3
    /// §9.1.22; ST7735 V1.2 §9.4 "driver will reject the previous bits and have reset the interface").
    mutating func hardwareReset() {
        registers = TFTRegisters(family: family, memory: memorySize)
        expecting = .command
        lastCommand = nil
        holdOffs.forget()
    }

    /// One message's bytes, sent with D/C `isData`; the first at `time`, each `byteTime` after the last.
    mutating func take(_ bytes: [UInt8], isData: Bool, at time: Double, byteTime: Double) {
        if isData { return takeData(bytes) }
        for (index, byte) in bytes.enumerated() { takeCommand(byte, at: time + Double(index) * byteTime) }
    }

    /// A byte sent with D/C low.
    private mutating func takeCommand(_ opcode: UInt8, at time: Double) {
        finishPending(before: opcode)
        lastCommand = opcode
        guard let command = table[opcode] else {
            return error("unknown command \(hexByte(opcode)): the \(controller) datasheet's command list does not define it")
        }
        if let (rule, elapsed) = holdOffs.violation(of: facts.holdOffs, by: opcode, at: time) {
            error("\(table.label(opcode)) came \(Self.milliseconds(elapsed)) after \(describe(rule.after)); the \(controller) needs "
                  + "\(Self.milliseconds(rule.wait)) first (\(rule.source))")
        }
        switch command.shape {
        case .parameters(0): execute(opcode, [], at: time)
        case .parameters(let count): expecting = .parameters(opcode: opcode, needed: count, received: [])
        case .pixels(let continues): startPixels(opcode, continues: continues)
        case .read: break
        }
    }

    /// Bytes sent with D/C high: parameters, pixels, or bytes no command takes.
    private mutating func takeData(_ bytes: [UInt8]) {
        var stray = 0
        for byte in bytes {
            switch expecting {
            case .command:
                stray += 1
            case .parameters(let opcode, let needed, var received):
                received.append(byte)
                if received.count == needed {
                    expecting = .command
                    execute(opcode, received, at: nil)
                } else {
                    expecting = .parameters(opcode: opcode, needed: needed, received: received)
                }
            case .pixels:
                takePixelByte(byte)
            }
        }
        if stray > 0 {
            let after = lastCommand.map { "after \(table.label($0))" } ?? "before any command"
            error("\(stray) data byte(s) \(after) belong to no command (a command's parameters are all taken; pixels need RAMWR (0x2C) first)")
        }
    }

    /// A command byte arrived: what was still expected is cut off.
    private mutating func finishPending(before opcode: UInt8) {
        switch expecting {
        case .command: break
        case .parameters(let pending, let needed, let received):
            error("\(table.label(pending)) got \(received.count) of its \(needed) parameter byte(s) before command \(hexByte(opcode)); it is not executed")
        case .pixels(let run):
            if !run.partial.isEmpty {
                error("\(table.label(run.opcode)) ended \(run.partial.count) byte(s) into a \(registers.pixelFormat) pixel group, before command \(hexByte(opcode))")
            }
        }
        expecting = .command
    }

    private func describe(_ event: TFTHoldOff.Event) -> String {
        switch event {
        case .resetReleased: "RES# rose"
        case .command(let opcode): table.label(opcode)
        }
    }

    static func milliseconds(_ seconds: Double) -> String {
        "\((seconds * 1e4).rounded() / 10) ms"
    }
}
