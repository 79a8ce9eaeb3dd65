import HeadwayDevices

/// The SSD1309 command set: Solomon Systech SSD1309 Rev 1.1 Tables 9-1 to 9-5. The SSD1306's set
/// without its charge pump (no 8Dh: the panel voltage comes from outside) and without 23h/D6h,
/// with a command lock (FDh), a GPIO pin (DCh), content scrolling (2Ch/2Dh), longer scroll set-ups
/// (seven bytes, with a column window) and its own VCOMH codes.
enum SSD1309CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x2E, 0x2F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE3: 0
        case 0x20, 0x81, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0xDC, 0xFD: 1
        case 0x21, 0x22, 0xA3: 2
        case 0x26, 0x27, 0x29, 0x2A, 0x2C, 0x2D: 7
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) || SolomonAddressingCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0xC0, 0xC8: r.comScanReversed = opcode == 0xC8  // Table 9-4
        case 0x26, 0x27:
            // Table 9-2: A dummy 00h, B start page, C interval, D end page, E dummy 00h, F start
            // column, G end column ("G[7:0] must be larger than or equal to F[7:0]").
            guard a[0] == 0x00, a[4] == 0x00 else { return r.error("horizontal scroll set-up \(a.map(hexByte)) is malformed (dummy bytes 00h)") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r) { scrollColumns(a[5], a[6], opcode, &r) }
        case 0x29, 0x2A:
            // Table 9-2: A[0] horizontal step, B, C, D pages and interval, E[5:0] vertical offset, F/G columns.
            guard a[0] <= 1, a[4] <= 63 else { return r.error("scroll set-up \(a.map(hexByte)) is malformed") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r) { scrollColumns(a[5], a[6], opcode, &r) }
        case 0x2C, 0x2D:
            // Table 9-2 Content Scroll Setup: A 00h, B start page, C 01h, D end page, E 00h, F/G
            // columns ("G[7:0] must be larger than F[7:0]").
            guard a[0] == 0x00, a[2] == 0x01, a[4] == 0x00 else { return r.error("content scroll set-up \(a.map(hexByte)) is malformed") }
            if SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r), a[6] <= a[5] || a[6] > 127 {
                r.error("content scroll columns \(a[5])…\(a[6]) are invalid (end > start, ≤ 127)")
            }
        case 0xD9: SharedOLEDCommands.prechargePeriod(a[0], on: &r)
        case 0xDA: SharedOLEDCommands.solomonCOMPins(a[0], on: &r)
        case 0xDB:
            // Table 9-5: A[5:2], the other bits 0 (00h ~0.64, 34h ~0.78 (RESET), 3Ch ~0.84 x VCC).
            if a[0] & 0xC3 != 0 { r.error("VCOMH level \(hexByte(a[0])) is invalid (bits 5…2 only)") }
        case 0xDC:
            // Table 9-4 Set GPIO: A[1:0].
            if a[0] & 0xFC != 0 { r.error("GPIO setting \(hexByte(a[0])) is invalid (bits 1…0 only)") }
        case 0xFD:
            // Table 9-1 Set Command Lock: 0 0 0 1 0 A2 1 0 — 12h unlock, 16h lock.
            switch a[0] {
            case 0x12: r.commandLocked = false
            case 0x16: r.commandLocked = true
            default: r.error("command lock setting \(hexByte(a[0])) is invalid (0x12 unlock, 0x16 lock)")
            }
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
