import HeadwayDevices

/// The SSD1305 command set: Solomon Systech SSD1305 Rev 1.8 Table 9-1 (fundamental and graphic
/// acceleration commands). 132 RAM columns and segments; area colour banks (82h, 91h, 92h, 93h,
/// D8h); dim mode (ABh, ACh); the master configuration ADh choosing external VCC or its DC-DC
/// converter instead of a charge pump; read-modify-write (E0h/EEh); shorter scroll set-ups.
enum SSD1305CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x2E, 0x2F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAC, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE0, 0xE3, 0xEE: 0
        case 0x20, 0x81, 0x82, 0xA8, 0xAD, 0xD3, 0xD5, 0xD8, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2
        case 0xAB: 3
        case 0x26, 0x27, 0x91, 0x92, 0x93: 4
        case 0x29, 0x2A: 5
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) || SolomonAddressingCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0xC0, 0xC8: r.comScanReversed = opcode == 0xC8
        case 0xAC:  // "ACh = Display ON in dim mode"
            r.displayOn = true
            r.dimmed = true
        case 0x82: break  // Set Brightness For Area Color Banks: any of 256 steps
        case 0x91:
            // Set Look Up Table: X[5:0] for BANK0 "= 31… 63", A/B/C likewise.
            if a.contains(where: { $0 & 0x3F < 31 || $0 & 0xC0 != 0 }) { r.error("look-up table \(a.map(hexByte)) is invalid (31…63 each)") }
        case 0x92, 0x93: break  // Set Bank Color: two bits per bank, every value defined
        case 0xAB:
            // Dim mode setting: A[3:0] reserved (0000b), B contrast, C brightness.
            if a[0] != 0 { r.error("dim mode setting's first byte \(hexByte(a[0])) must be 0x00 (reserved)") }
        case 0xAD:
            // Master Configuration: 1 0 0 0 1 1 1 A0 — 8Eh external VCC (RESET), 8Fh internal DC-DC.
            switch a[0] {
            case 0x8E: r.powerOn = false
            case 0x8F: r.powerOn = true
            default: r.error("master configuration \(hexByte(a[0])) is invalid (0x8E external VCC, 0x8F DC-DC)")
            }
        case 0xD8:
            // Set Area Color Mode ON/OFF & Low Power Display Mode: 0 0 X5 X4 0 X2 0 X0 with
            // X[5:4] ∈ {00b, 11b} and X[2], X[0] both 0 or both 1.
            let area = a[0] & 0x30, power = a[0] & 0x05
            if a[0] & 0xCA != 0 || (area != 0 && area != 0x30) || (power != 0 && power != 0x05) {
                r.error("area colour / low power mode \(hexByte(a[0])) is invalid")
            }
        case 0xD9: SharedOLEDCommands.prechargePeriod(a[0], on: &r)
        case 0xDA: SharedOLEDCommands.solomonCOMPins(a[0], on: &r)
        case 0xDB:
            // Set VCOMH Deselect Level: A[5:2] (00h ~0.43, 34h ~0.77 (RESET), 3Ch ~0.83 x VCC).
            if a[0] & 0xC3 != 0 { r.error("VCOMH level \(hexByte(a[0])) is invalid (bits 5…2 only)") }
        case 0xE0: r.readModifyWriteColumn = r.column  // §10.1.28 Enter Read Modify Write
        case 0xEE:  // Exit Read Modify Write: the column returns to where E0h found it
            if let start = r.readModifyWriteColumn { r.column = start } else { r.error("EEh (end read-modify-write) without E0h") }
            r.readModifyWriteColumn = nil
        case 0x26, 0x27:
            // Horizontal Scroll Setup: A[2:0] columns per step (0 … 4), B start page, C interval, D end page.
            guard a[0] <= 4 else { return r.error("horizontal scroll step \(a[0]) is invalid (0…4 columns)") }
            _ = SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r)
        case 0x29, 0x2A:
            // Continuous Vertical and Horizontal Scroll Setup: A[2:0] (0 … 4), B, C, D, E[5:0] vertical offset.
            guard a[0] <= 4, a[4] <= 63 else { return r.error("scroll set-up \(a.map(hexByte)) is malformed") }
            _ = SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r)
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }
}
