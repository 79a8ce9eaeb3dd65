import HeadwayDevices

extension TFTChipState {
    /// Runs a whole command. Commands whose effect the glass does not depend on (frame rate, power,
    /// gamma, NVM, scrolling, brightness) are taken as the datasheet defines them and change nothing
    /// here; `time` is when a command without parameters arrived.
    mutating func execute(_ opcode: UInt8, _ parameters: [UInt8], at time: Double?) {
        switch (opcode, family) {
        case (0x01, _):
            // SWRESET.
            registers.softwareReset(family: family, memory: memorySize)
            if let time { holdOffs.record(.command(opcode), at: time) }
        case (0x10, _):
            // SLPIN: "This command has no effect when module is already in sleep in mode" (ST7789V
            // V1.3 §9.1.11), so its wait starts only when it changed the mode.
            if !registers.sleeping, let time { holdOffs.record(.command(opcode), at: time) }
            registers.sleeping = true
        case (0x11, _):
            // SLPOUT: likewise (§9.1.12).
            if registers.sleeping, let time { holdOffs.record(.command(opcode), at: time) }
            registers.sleeping = false
        case (0x12, _): registers.partial = true
        case (0x13, _): registers.partial = false
        case (0x20, _): registers.inversionOn = false
        case (0x21, _): registers.inversionOn = true
        case (0x28, _): registers.displayOn = false
        case (0x29, _): registers.displayOn = true
        case (0x2A, _):
            let (start, end) = Self.addressPair(parameters)
            if start > end { error("\(table.label(opcode)) start \(start) is past its end \(end) (XS must not exceed XE)") }
            registers.counter.columnStart = start
            registers.counter.columnEnd = end
        case (0x2B, _):
            let (start, end) = Self.addressPair(parameters)
            if start > end { error("\(table.label(opcode)) start \(start) is past its end \(end) (YS must not exceed YE)") }
            registers.counter.pageStart = start
            registers.counter.pageEnd = end
        case (0x30, _):
            (registers.partialStart, registers.partialEnd) = Self.addressPair(parameters)
        case (0x34, _): registers.tearingEffectOn = false
        case (0x35, _): registers.tearingEffectOn = true
        case (0x36, _): registers.madctl = parameters[0]
        case (0x38, _): registers.idle = false
        case (0x39, _): registers.idle = true
        case (0x3A, _):
            guard let format = TFTPixelFormat.selected(by: parameters[0], on: family) else {
                return error("\(table.label(opcode)) \(hexByte(parameters[0])) selects no 4-line serial pixel format of the \(controller); "
                             + "the format stays \(registers.pixelFormat)")
            }
            registers.pixelFormat = format
        case (0xC0, .st7789):
            // LCMCTRL.
            registers.exclusiveOr = parameters[0]
        case (0xF6, .ili9341):
            // IFCTL: its first parameter holds the MADCTL exclusive-OR bits and WEMODE.
            registers.exclusiveOr = parameters[0]
        default:
            break
        }
    }

    /// CASET, RASET and PTLAR's two 16-bit numbers, most significant byte first.
    static func addressPair(_ parameters: [UInt8]) -> (Int, Int) {
        (Int(parameters[0]) << 8 | Int(parameters[1]), Int(parameters[2]) << 8 | Int(parameters[3]))
    }
}
