import HeadwayDevices

/// The SH1106 command set: Sino Wealth SH1106 V2.2 "Command Set" §1–§21 and its command table.
/// Page addressing only (no 20h/21h/22h), 132 RAM columns, the pump voltage 30h–33h, the DC-DC
/// converter ADh instead of a charge pump, read-modify-write, no scrolling.
enum SH1106CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x30...0x33, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0...0xCF, 0xE0, 0xE3, 0xEE: 0
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB: 1
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0x00...0x0F: r.column = (r.column & 0xF0) | Int(opcode & 0x0F)  // §1 lower column address
        case 0x10...0x1F:  // §2 higher column address: "until address 131"
            guard opcode <= 0x18 else { return r.error("column high nibble \(hexByte(opcode)) is past the last RAM column 131") }
            r.column = (r.column & 0x0F) | Int(opcode & 0x0F) << 4
        case 0x30...0x33: break  // §3 pump voltage 6.4 / 7.4 / 8.0 / 9.0 V
        case 0xB0...0xB7: r.page = Int(opcode & 0x07)  // §12 page address
        case 0xC0...0xCF: r.comScanReversed = opcode & 0x08 != 0  // §13: 1 1 0 0 D * * *
        case 0xAD:
            // §10 DC-DC: 8Ah off, 8Bh on (POR); "The panel display must be off while issuing this command."
            guard a[0] & 0xFE == 0x8A else { return r.error("DC-DC control \(hexByte(a[0])) is invalid (0x8A off, 0x8B on)") }
            if r.displayOn { r.error("DC-DC setting changed while the display is on (the datasheet wants it off)") }
            r.powerOn = a[0] == 0x8B
        case 0xD9: SharedOLEDCommands.prechargePeriod(a[0], on: &r)
        case 0xDA:
            // §17 common pads configuration: 0 0 0 D 0 0 1 0 — 02h sequential, 12h alternative.
            guard a[0] & 0xEF == 0x02 else { return r.error("COM pins configuration \(hexByte(a[0])) is invalid (0x02 or 0x12)") }
            r.comPins = a[0]
        case 0xDB: break  // §18 VCOM deselect level: every value 00h–FFh is defined
        case 0xE0: r.readModifyWriteColumn = r.column  // §19
        case 0xEE:  // §20: "returns column address to the original address"
            if let start = r.readModifyWriteColumn { r.column = start } else { r.error("EEh (end read-modify-write) without E0h") }
            r.readModifyWriteColumn = nil
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }
}
