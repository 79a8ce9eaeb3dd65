import HeadwayDevices

/// The SH1107 command set: Sino Wealth SH1107 V2.1 "Command Set" §1–§20 and its command table.
/// 128 x 128 RAM in 16 pages (B0h–BFh), column high nibble 10h–17h; page (20h) and vertical (21h)
/// addressing as single-byte commands; the display start line is a two-byte command (DCh), not
/// 40h–7Fh; multiplex and offset up to 127; DC-DC setting ADh with a switching frequency; no COM
/// pad configuration and no scrolling.
enum SH1107CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x17, 0x20, 0x21, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xBF, 0xC0...0xCF, 0xE0, 0xE3, 0xEE: 0
        case 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDB, 0xDC: 1
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0x00...0x0F: r.column = (r.column & 0x70) | Int(opcode & 0x0F)  // §1
        case 0x10...0x17: r.column = (r.column & 0x0F) | Int(opcode & 0x07) << 4  // §2: column 0 … 127
        case 0x20, 0x21: r.addressing = opcode == 0x21 ? .vertical : .page  // §3: 20h page (POR), 21h vertical
        case 0xB0...0xBF: r.page = Int(opcode & 0x0F)  // §12
        case 0xC0...0xCF: r.comScanReversed = opcode & 0x08 != 0  // §13: 1 1 0 0 D * * *
        case 0xAD:
            // §10 DC-DC setting: 1 0 0 0 F2 F1 F0 D — D enables the converter, F the switching frequency;
            // "The panel display must be off while issuing this command."
            guard a[0] & 0xF0 == 0x80 else { return r.error("DC-DC setting \(hexByte(a[0])) is invalid (0x80…0x8F)") }
            if r.displayOn { r.error("DC-DC setting changed while the display is on (the datasheet wants it off)") }
            r.powerOn = a[0] & 0x01 != 0
        case 0xD9:
            // §15: the dis-charge period A[7:4] 0 is invalid; A[3:0] = 0 means no pre-charge (allowed).
            if a[0] & 0xF0 == 0 { r.error("dis-charge period \(hexByte(a[0])) has a zero phase") }
        case 0xDB: break  // §16 VCOM deselect level: every value is defined
        case 0xDC:
            // §17 Set Display Start Line: 00h – 7Fh.
            guard a[0] <= 0x7F else { return r.error("display start line \(a[0]) is invalid (0…127)") }
            r.startLine = Int(a[0])
        case 0xE0: r.readModifyWriteColumn = r.column  // §18
        case 0xEE:  // §19
            if let start = r.readModifyWriteColumn { r.column = start } else { r.error("EEh (end read-modify-write) without E0h") }
            r.readModifyWriteColumn = nil
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }
}
