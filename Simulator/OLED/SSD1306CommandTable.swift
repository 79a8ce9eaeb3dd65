import HeadwayDevices

/// The SSD1306 command set (Solomon Systech SSD1306 datasheet, command table and charge pump
/// application note): how many argument bytes each command takes, and what it does.
enum SSD1306CommandTable {
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
        if SharedOLEDCommands.execute(opcode, a, on: &r) { return }
        switch opcode {
        case 0x00...0x0F:
            pageModeOnly(opcode, &r)
            r.column = (r.column & 0xF0) | Int(opcode & 0x0F)
        case 0x10...0x1F:
            pageModeOnly(opcode, &r)
            guard opcode <= 0x17 else { return r.error("column high nibble \(hexByte(opcode)) is past column 127") }
            r.column = (r.column & 0x0F) | Int(opcode & 0x0F) << 4
        case 0x20:
            switch a[0] {
            case 0x00: r.addressing = .horizontal
            case 0x01: r.addressing = .vertical
            case 0x02: r.addressing = .page
            default: r.error("memory addressing mode \(hexByte(a[0])) is invalid (0x00, 0x01 or 0x02)")
            }
        case 0x21:
            guard a[0] <= 127, a[1] <= 127, a[0] <= a[1] else { return r.error("column range \(a[0])…\(a[1]) is invalid") }
            r.columnRange = Int(a[0])...Int(a[1])
            r.column = Int(a[0])
        case 0x22:
            guard a[0] <= 7, a[1] <= 7, a[0] <= a[1] else { return r.error("page range \(a[0])…\(a[1]) is invalid") }
            r.pageRange = Int(a[0])...Int(a[1])
            r.page = Int(a[0])
        case 0x23, 0xD6, 0xD5, 0xE3: break  // fade/blink, zoom, clock: no effect on the picture here
        case 0x26, 0x27:
            guard a[0] == 0x00, a[1] <= 7, a[3] <= 7, a[4] == 0x00, a[5] == 0xFF else {
                return r.error("horizontal scroll set-up \(a.map(hexByte)) is malformed")
            }
        case 0x29, 0x2A:
            guard a[0] == 0x00, a[1] <= 7, a[3] <= 7 else { return r.error("scroll set-up \(a.map(hexByte)) is malformed") }
        case 0xA3:
            guard a[0] <= 63, a[1] <= 127 else { return r.error("vertical scroll area \(a) is invalid") }
        case 0x2E: r.scrolling = false
        case 0x2F: r.scrolling = true
        case 0x8D:
            switch a[0] {
            case 0x10: r.powerOn = false
            case 0x14: r.powerOn = true
            default: r.error("charge pump setting \(hexByte(a[0])) is invalid (0x10 off, 0x14 on)")
            }
        case 0xA8:
            guard (15...63).contains(a[0]) else { return r.error("multiplex ratio \(hexByte(a[0])) is invalid (15…63)") }
            r.multiplex = Int(a[0])
        case 0xB0...0xB7:
            pageModeOnly(opcode, &r)
            r.page = Int(opcode & 0x07)
        case 0xDA:
            guard a[0] & 0xCF == 0x02 else { return r.error("COM pins configuration \(hexByte(a[0])) is invalid (0x02 with bits 4 and 5)") }
            r.comPins = a[0]
        case 0xDB:
            guard a[0] & 0x8F == 0 else { return r.error("VCOMH level \(hexByte(a[0])) is invalid (bits 6…4 only)") }
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }

    private static func pageModeOnly(_ opcode: UInt8, _ r: inout OLEDRegisters) {
        if r.addressing != .page { r.error("page addressing command \(hexByte(opcode)) sent in \(r.addressing) addressing mode") }
    }
}
