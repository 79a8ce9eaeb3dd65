import HeadwayDevices

/// The addressing and scrolling commands the Solomon monochrome parts (SSD1306, SSD1309, SSD1305,
/// SSD1315) share: the page-mode column and page commands, the memory addressing mode and the
/// column/page windows (SSD1306 Table 9-1 §3 and §10.1.1–§10.1.5; the others' tables say the same
/// with their own RAM width), and the scroll activation commands (SSD1306 Table 9-1 §2).
enum SolomonAddressingCommands {
    /// Executes `opcode` if it is one of these; returns whether it was.
    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) -> Bool {
        let lastColumn = r.ramWidth - 1
        switch opcode {
        case 0x00...0x0F:  // Set Lower Column Start Address for Page Addressing Mode
            pageModeOnly(opcode, &r)
            r.column = (r.column & 0xF0) | Int(opcode & 0x0F)
        case 0x10...0x1F:  // Set Higher Column Start Address for Page Addressing Mode
            pageModeOnly(opcode, &r)
            let column = (r.column & 0x0F) | Int(opcode & 0x0F) << 4
            guard column & 0xF0 <= lastColumn else {
                r.error("column high nibble \(hexByte(opcode)) is past column \(lastColumn)")
                return true
            }
            r.column = column
        case 0xB0...0xB7:  // Set Page Start Address for Page Addressing Mode
            pageModeOnly(opcode, &r)
            r.page = Int(opcode & 0x07)
        case 0x20:  // Set Memory Addressing Mode: "A[1:0] = 11b, Invalid"
            switch a[0] {
            case 0x00: r.addressing = .horizontal
            case 0x01: r.addressing = .vertical
            case 0x02: r.addressing = .page
            default: r.error("memory addressing mode \(hexByte(a[0])) is invalid (0x00, 0x01 or 0x02)")
            }
        case 0x21:  // Set Column Address: start and end, 0 … last column; "only for horizontal or vertical addressing mode"
            windowOnly(opcode, &r)
            guard Int(a[0]) <= lastColumn, Int(a[1]) <= lastColumn, a[0] <= a[1] else {
                r.error("column range \(a[0])…\(a[1]) is invalid (0…\(lastColumn), start ≤ end)")
                return true
            }
            r.columnRange = Int(a[0])...Int(a[1])
            r.column = Int(a[0])
        case 0x22:  // Set Page Address: start and end, 0 … 7
            windowOnly(opcode, &r)
            guard a[0] <= 7, a[1] <= 7, a[0] <= a[1] else {
                r.error("page range \(a[0])…\(a[1]) is invalid (0…7, start ≤ end)")
                return true
            }
            r.pageRange = Int(a[0])...Int(a[1])
            r.page = Int(a[0])
        case 0x2E: r.scrolling = false  // Deactivate scroll
        case 0x2F: r.scrolling = true  // Activate scroll
        case 0xA3:  // Set Vertical Scroll Area: "A[5:0]+B[6:0] <= MUX ratio", "B[6:0] <= MUX ratio"
            guard a[0] <= 63, a[1] <= 127, Int(a[0]) + Int(a[1]) <= r.multiplex + 1 else {
                r.error("vertical scroll area \(a[0]) fixed + \(a[1]) scrolling rows is invalid for \(r.multiplex + 1) MUX")
                return true
            }
        default:
            return false
        }
        return true
    }

    /// "(1) This command is only for page addressing mode" (00h–0Fh, 10h–1Fh, B0h–B7h).
    static func pageModeOnly(_ opcode: UInt8, _ r: inout OLEDRegisters) {
        if r.addressing != .page { r.error("page addressing command \(hexByte(opcode)) sent in \(r.addressing) addressing mode") }
    }

    /// "(1) This command is only for horizontal or vertical addressing mode" (21h, 22h).
    static func windowOnly(_ opcode: UInt8, _ r: inout OLEDRegisters) {
        if r.addressing == .page { r.error("window command \(hexByte(opcode)) sent in page addressing mode") }
    }

    /// A scroll set-up's page range: "The value of D[2:0] must be larger than or equal to B[2:0]".
    static func scrollPages(_ start: UInt8, _ end: UInt8, _ opcode: UInt8, _ r: inout OLEDRegisters) -> Bool {
        guard start <= 7, end <= 7, start <= end else {
            r.error("scroll set-up \(hexByte(opcode)) page range \(start)…\(end) is invalid (0…7, start ≤ end)")
            return false
        }
        return true
    }
}
