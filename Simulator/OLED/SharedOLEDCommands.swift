import HeadwayDevices

/// A monochrome controller's command table: how many argument bytes each opcode takes (`nil`: the
/// datasheet does not define it) and what it does.
protocol MonochromeCommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int?
    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters)
}

enum MonochromeCommandTables {
    static func table(for controller: OLEDController) -> any MonochromeCommandTable.Type {
        switch controller {
        case .ssd1306: SSD1306CommandTable.self
        case .ssd1309: SSD1309CommandTable.self
        case .ssd1305: SSD1305CommandTable.self
        case .ssd1315: SSD1315CommandTable.self
        case .sh1106: SH1106CommandTable.self
        case .sh1107: SH1107CommandTable.self
        case .ssd1327: preconditionFailure("SSD1327 is a greyscale controller; see SSD1327CommandTable")
        }
    }
}

/// Commands every monochrome controller here defines alike: same opcode, arguments and meaning in
/// each datasheet that has them (whether a controller has one at all is its table's
/// `argumentCount`). Ranges that differ come from the controller's geometry.
enum SharedOLEDCommands {
    /// Executes `opcode` if it is one of the shared commands; returns whether it was.
    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout OLEDRegisters) -> Bool {
        switch opcode {
        case 0x40...0x7F: r.startLine = Int(opcode - 0x40)  // Set Display Start Line (SSD1306 Table 9-1 §4; SH1106 §4)
        case 0x81: r.contrast = a[0]  // Set Contrast Control (SSD1306 Table 9-1 §1; SH1106 §5; SH1107 §4)
        case 0xA0, 0xA1: r.segmentRemap = opcode == 0xA1  // Set Segment Re-map (SSD1306 §10.1.8; SH1106 §6)
        case 0xA4, 0xA5: r.entireDisplayOn = opcode == 0xA5  // Entire Display ON (SSD1306 §10.1.9; SH1106 §7)
        case 0xA6, 0xA7: r.inverted = opcode == 0xA7  // Set Normal/Inverse Display (SSD1306 §10.1.10; SH1106 §8)
        case 0xAE, 0xAF:  // Set Display ON/OFF (SSD1306 §10.1.12; SH1106 §11)
            r.displayOn = opcode == 0xAF
            r.dimmed = false
        case 0xA8:  // Set Multiplex Ratio (SSD1306 §10.1.11: 16 … 64 MUX; SH1106 §9: 1 … 64; SH1107 §6: 1 … 128)
            let range = r.geometry.multiplexRange
            guard a[0] <= range.upperBound, Int(a[0]) >= range.lowerBound else {
                r.error("multiplex ratio \(hexByte(a[0])) is invalid (\(range.lowerBound)…\(range.upperBound))")
                return true
            }
            r.multiplex = Int(a[0])
        case 0xD3:  // Set Display Offset (SSD1306 §10.1.15: 0 … 63; SH1106 §14: 0 … 63; SH1107 §9: 0 … 127)
            guard Int(a[0]) < r.geometry.commons else {
                r.error("display offset \(a[0]) is invalid (0…\(r.geometry.commons - 1))")
                return true
            }
            r.displayOffset = Int(a[0])
        case 0xD5, 0xE3: break  // clock divide / oscillator (any value); NOP
        default:
            return false
        }
        return true
    }

    /// Set Pre-charge Period (D9h): "clocks 0 is invalid entry" for phase 1 (A[3:0]) and phase 2
    /// (A[7:4]) on SSD1306 (Table 9-1 §5), SSD1309, SSD1305, SSD1315 and SH1106 (§16).
    static func prechargePeriod(_ value: UInt8, on r: inout OLEDRegisters) {
        if value & 0x0F == 0 || value & 0xF0 == 0 { r.error("pre-charge period \(hexByte(value)) has a zero phase") }
    }

    /// Set COM Pins Hardware Configuration (DAh) on the Solomon parts: `0 0 A5 A4 0 0 1 0`
    /// (SSD1306 Table 9-1 §4): sequential/alternative (A[4]) and left/right remap (A[5]).
    static func solomonCOMPins(_ value: UInt8, on r: inout OLEDRegisters) {
        guard value & 0xCF == 0x02 else {
            return r.error("COM pins configuration \(hexByte(value)) is invalid (0x02 with bits 4 and 5)")
        }
        r.comPins = value
    }
}
