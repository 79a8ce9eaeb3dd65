import HeadwayDevices

/// Commands the SSD1306 and SH1106 define alike (same opcode, arguments and meaning in both
/// datasheets). Each chip's table handles these first and the rest itself.
enum SharedOLEDCommands {
    /// Executes `opcode` if it is one of the shared commands; returns whether it was.
    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) -> Bool {
        switch opcode {
        case 0x40...0x7F: r.startLine = Int(opcode - 0x40)
        case 0x81: r.contrast = a[0]
        case 0xA0, 0xA1: r.segmentRemap = opcode == 0xA1
        case 0xA4, 0xA5: r.entireDisplayOn = opcode == 0xA5
        case 0xA6, 0xA7: r.inverted = opcode == 0xA7
        case 0xAE, 0xAF: r.displayOn = opcode == 0xAF
        case 0xC0, 0xC8: r.comScanReversed = opcode == 0xC8
        case 0xD3:
            if a[0] <= 63 { r.displayOffset = Int(a[0]) } else { r.error("display offset \(a[0]) is invalid (0…63)") }
        case 0xD9:
            if a[0] & 0x0F == 0 || a[0] & 0xF0 == 0 { r.error("pre-charge period \(hexByte(a[0])) has a zero phase") }
        default:
            return false
        }
        return true
    }
}
