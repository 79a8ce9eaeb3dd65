import HeadwayDevices

/// The SSD1306 command set: Solomon Systech SSD1306 Rev 1.1 Table 9-1 (fundamental, scrolling,
/// addressing, hardware configuration, timing), the charge pump command 8Dh of its application
/// note (Rev 1.2 adds it to the datasheet with the advance graphic commands 23h and D6h, as its
/// revision history says).
enum SSD1306CommandTable: MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x00...0x1F, 0x2E, 0x2F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE3: 0
        case 0x20, 0x23, 0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD6, 0xD9, 0xDA, 0xDB: 1
        case 0x21, 0x22, 0xA3: 2
        case 0x29, 0x2A: 5
        case 0x26, 0x27: 6
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) {
        if SharedOLEDCommands.execute(opcode, a, on: &r) || SolomonAddressingCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0xC0, 0xC8: r.comScanReversed = opcode == 0xC8  // Set COM Output Scan Direction
        case 0x26, 0x27:
            // Continuous Horizontal Scroll Setup: A dummy 00h, B start page, C interval, D end page,
            // E dummy 00h, F dummy FFh.
            guard a[0] == 0x00, a[4] == 0x00, a[5] == 0xFF else {
                return r.error("horizontal scroll set-up \(a.map(hexByte)) is malformed (dummy bytes 00h, 00h, FFh)")
            }
            _ = SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r)
        case 0x29, 0x2A:
            // Continuous Vertical and Horizontal Scroll Setup: A dummy 00h, B start page, C interval,
            // D end page, E[5:0] vertical offset.
            guard a[0] == 0x00, a[4] <= 63 else { return r.error("scroll set-up \(a.map(hexByte)) is malformed") }
            _ = SolomonAddressingCommands.scrollPages(a[1], a[3], opcode, &r)
        case 0x8D:
            // Charge Pump Setting (application note): 10h disable, 14h enable.
            switch a[0] {
            case 0x10: r.powerOn = false
            case 0x14: r.powerOn = true
            default: r.error("charge pump setting \(hexByte(a[0])) is invalid (0x10 off, 0x14 on)")
            }
        case 0xD9: SharedOLEDCommands.prechargePeriod(a[0], on: &r)
        case 0xDA: SharedOLEDCommands.solomonCOMPins(a[0], on: &r)
        case 0xDB:
            // Set VCOMH Deselect Level: A[6:4], the other bits 0.
            if a[0] & 0x8F != 0 { r.error("VCOMH level \(hexByte(a[0])) is invalid (bits 6…4 only)") }
        case 0x23:
            // Set Fade Out and Blinking (Rev 1.2): A[5:4] 00b off, 10b fade out, 11b blink.
            if a[0] & 0xC0 != 0 || a[0] & 0x30 == 0x10 { r.error("fade/blink setting \(hexByte(a[0])) is invalid") }
        case 0xD6:
            // Set Zoom In (Rev 1.2): A[0].
            if a[0] & 0xFE != 0 { r.error("zoom setting \(hexByte(a[0])) is invalid (0x00 or 0x01)") }
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }
}
