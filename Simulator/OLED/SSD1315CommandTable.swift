import HeadwayDevices

/// The SSD1315 command set: Solomon Systech SSD1315 Rev 1.0 Appendix IV, Table 1-1 (fundamental,
/// internal charge pump, scrolling and advance graphic command tables). The SSD1306's set with
/// these changes: column high nibble 10h–17h only; contrast 01h–FFh; the internal IREF selection
/// ADh; the charge pump 8Dh with three voltages; a VCOMH code 10h; scroll set-ups with a column
/// window (26h/27h six bytes, 29h/2Ah seven); content scroll 2Ch/2Dh.
enum SSD1315CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x17, 0x2E, 0x2F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE3: 0
        case 0x20, 0x23, 0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD6, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2
        case 0x26, 0x27, 0x2C, 0x2D: 6
        case 0x29, 0x2A: 7
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if opcode == 0x81, a[0] == 0 { return r.error("contrast 0x00 is invalid (\"A[7:0] valid range: 01h to FFh\")") }
        if SharedOLEDCommands.execute(opcode, a, on: &r) || SolomonAddressingCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0xC0, 0xC8: r.comScanReversed = opcode == 0xC8
        case 0x8D:
            // Charge Pump Setting: A7 0 0 1 0 A2 0 A0 — A[2] enable; (A[7], A[0]) 00b 7.5 V, 10b 8.5 V,
            // 11b 9.0 V (14h / 94h / 95h); 01b is not in the table.
            let voltage = (a[0] & 0x80 != 0, a[0] & 0x01 != 0)
            guard a[0] & 0x7A == 0x10, !(voltage.0 == false && voltage.1) else {
                return r.error("charge pump setting \(hexByte(a[0])) is invalid (0x10 off; 0x14, 0x94 or 0x95 on)")
            }
            r.powerOn = a[0] & 0x04 != 0
        case 0xAD:
            // Internal IREF Setting: 0 0 A5 A4 0 0 0 0.
            if a[0] & 0xCF != 0 { r.error("IREF setting \(hexByte(a[0])) is invalid (bits 5 and 4 only)") }
        case 0xD9: SharedOLEDCommands.prechargePeriod(a[0], on: &r)
        case 0xDA: SharedOLEDCommands.solomonCOMPins(a[0], on: &r)
        case 0xDB:
            // Set VCOMH select Level: A[5:4] (00h, 10h, 20h (RESET), 30h).
            if a[0] & 0xCF != 0 { r.error("VCOMH level \(hexByte(a[0])) is invalid (0x00, 0x10, 0x20 or 0x30)") }
        case 0x26, 0x27:
            // A 00h, B start page, C interval, D end page, E[6:0] start column, F[6:0] end column (F ≥ E).
            guard a[0] == 0x00 else { return r.error("horizontal scroll set-up \(a.map(hexByte)) is malformed (dummy byte 00h)") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r) { scrollColumns(a[4], a[5], opcode, &r) }
        case 0x29, 0x2A:
            // A[0] step, B start page, C interval, D end page, E[5:0] vertical offset, F/G columns.
            guard a[0] <= 1, a[4] <= 63 else { return r.error("scroll set-up \(a.map(hexByte)) is malformed") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r) { scrollColumns(a[5], a[6], opcode, &r) }
        case 0x2C, 0x2D:
            // Content Scroll Setup: A 00h, B start page, C 01h, D end page, E/F columns ("F > E").
            guard a[0] == 0x00, a[2] == 0x01 else { return r.error("content scroll set-up \(a.map(hexByte)) is malformed") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r), a[5] <= a[4] || a[5] > 127 {
                r.error("content scroll columns \(a[4])…\(a[5]) are invalid (end > start, ≤ 127)")
            }
        case 0x23:
            // Set Fade Out and Blinking: A[5:4] 00b off, 10b fade out, 11b blink; A[3:0] interval.
            if a[0] & 0xC0 != 0 || a[0] & 0x30 == 0x10 { r.error("fade/blink setting \(hexByte(a[0])) is invalid") }
        case 0xD6:
            // Set Zoom In: A[0]; "The panel must be in alternative COM pin configuration".
            if a[0] & 0xFE != 0 { return r.error("zoom setting \(hexByte(a[0])) is invalid (0x00 or 0x01)") }
            if a[0] == 1, r.comPins & 0x10 == 0 { r.error("zoom in needs the alternative COM pin configuration (DAh A[4] = 1)") }
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }

    private static func scrollColumns(_ start: UInt8, _ end: UInt8, _ opcode: UInt8, _ r: inout OLEDRegisters) {
        if start > 127 || end > 127 || end < start {
            r.error("scroll set-up \(hexByte(opcode)) columns \(start)…\(end) are invalid (0…127, start ≤ end)")
        }
    }
}
