import HeadwayDevices

/// The SH1106 command set (Sino Wealth SH1106 datasheet): page addressing only, 132 RAM columns,
/// DC-DC converter control instead of a charge pump, no scrolling or windowing commands.
enum SH1106CommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x30...0x33, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE: 0
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0x00...0x0F: r.column = (r.column & 0xF0) | Int(opcode & 0x0F)
        case 0x10...0x1F:
            let column = (r.column & 0x0F) | Int(opcode & 0x0F) << 4
            guard column <= 131 else { return r.error("column \(column) is past the last RAM column 131") }
            r.column = column
        case 0x30...0x33, 0xD5, 0xDB, 0xE0, 0xEE, 0xE3: break  // pump voltage, clock, VCOM, read-modify-write, NOP
        case 0xA8:
            guard a[0] <= 63 else { return r.error("multiplex ratio \(hexByte(a[0])) is invalid (0…63)") }
            r.multiplex = Int(a[0])
        case 0xAD:
            guard a[0] & 0xFE == 0x8A else { return r.error("DC-DC control \(hexByte(a[0])) is invalid (0x8A off, 0x8B on)") }
            r.powerOn = a[0] == 0x8B
        case 0xB0...0xB7: r.page = Int(opcode & 0x07)
        case 0xDA:
            guard a[0] & 0xEF == 0x02 else { return r.error("COM pins configuration \(hexByte(a[0])) is invalid (0x02 or 0x12)") }
            r.comPins = a[0]
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }
}
