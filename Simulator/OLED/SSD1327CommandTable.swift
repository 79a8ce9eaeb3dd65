import HeadwayDevices

/// The SSD1327 command set: Solomon Systech SSD1327 Rev 1.8 Table 8-1 (fundamental and scrolling
/// command tables) and §9 (command descriptions).
enum SSD1327CommandTable {
    static func argumentCount(_ opcode: UInt8) -> Int? {
        switch opcode {
        case 0x2E, 0x2F, 0x84...0x86, 0xA4...0xA7, 0xAE, 0xAF, 0xB2, 0xB9, 0xBB: 0
        case 0x81, 0xA0, 0xA1, 0xA2, 0xA8, 0xAB, 0xB1, 0xB3, 0xB5, 0xB6, 0xBC, 0xBE, 0xD5, 0xFD: 1
        case 0x15, 0x75: 2
        case 0x26, 0x27: 7
        case 0xB8: 15
        default: nil
        }
    }

    static func execute(_ opcode: UInt8, _ a: [UInt8], on r: inout SSD1327Registers) {
        switch opcode {
        case 0x15:  // Set Column Address: A[5:0] start, B[5:0] end, 00h–3Fh, in pairs of pixels
            guard a[0] <= 63, a[1] <= 63, a[0] <= a[1] else {
                return r.error("column window \(a[0])…\(a[1]) is invalid (0…63 column addresses of two pixels, start ≤ end)")
            }
            r.columnRange = Int(a[0])...Int(a[1])
            r.column = Int(a[0])
        case 0x75:  // Set Row Address: A[6:0] start, B[6:0] end, 00h–7Fh
            guard a[0] <= 127, a[1] <= 127, a[0] <= a[1] else {
                return r.error("row window \(a[0])…\(a[1]) is invalid (0…127, start ≤ end)")
            }
            r.rowRange = Int(a[0])...Int(a[1])
            r.row = Int(a[0])
        case 0x81: r.contrast = a[0]  // Set Contrast Control, 256 steps
        case 0x84...0x86, 0xB2, 0xBB: break  // NOP (§9.1.4, §9.1.13, §9.1.19)
        case 0xA0:  // Set Re-map: 0 A6 0 A4 0 A2 A1 A0 — A[3], A[5], A[7] reserved 0
            guard a[0] & 0xA8 == 0 else { return r.error("re-map \(hexByte(a[0])) sets reserved bits 7, 5 or 3") }
            r.remap = a[0]
        case 0xA1:  // Set Display Start Line: 0 … 127
            guard a[0] <= 127 else { return r.error("display start line \(a[0]) is invalid (0…127)") }
            r.startLine = Int(a[0])
        case 0xA2:  // Set Display Offset: 0 … 127
            guard a[0] <= 127 else { return r.error("display offset \(a[0]) is invalid (0…127)") }
            r.displayOffset = Int(a[0])
        case 0xA4: r.displayMode = .normal  // Set Display Mode (§9.1.8)
        case 0xA5: r.displayMode = .allOn
        case 0xA6: r.displayMode = .allOff
        case 0xA7: r.displayMode = .inverse
        case 0xA8:  // Set MUX Ratio: 15 … 127 ("A[6:0]=0~14 is not allowed")
            guard (15...127).contains(a[0]) else { return r.error("multiplex ratio \(hexByte(a[0])) is invalid (15…127)") }
            r.multiplex = Int(a[0])
        case 0xAB:  // Function Selection A: A[0] internal VDD regulator
            guard a[0] <= 1 else { return r.error("function selection A \(hexByte(a[0])) is invalid (0x00 or 0x01)") }
            r.internalVDD = a[0] == 1
        case 0xAE, 0xAF: r.displayOn = opcode == 0xAF
        case 0xB1:  // Set Phase Length: "0 DCLK is invalid in phase 1 & phase 2"
            guard a[0] & 0x0F != 0, a[0] & 0xF0 != 0 else { return r.error("phase length \(hexByte(a[0])) has a zero phase") }
            r.phaseLength = a[0]
        case 0xB3: r.frontClock = a[0]  // Front Clock Divider / Oscillator Frequency: any value
        case 0xB5:  // GPIO: A[1:0]
            guard a[0] & 0xFC == 0 else { return r.error("GPIO setting \(hexByte(a[0])) is invalid (bits 1…0 only)") }
            r.gpio = a[0]
        case 0xB6:  // Set Second Pre-charge Period: A[3:0], 1 … 15 DCLKs
            guard a[0] & 0x0F != 0 else { return r.error("second pre-charge period \(hexByte(a[0])) is invalid (1…15 DCLKs)") }
            r.secondPrecharge = a[0] & 0x0F
        case 0xB8: setGreyTable(a, on: &r)
        case 0xB9: r.greyTable = SSD1327Registers.linearGreyTable
        case 0xBC:  // Set Pre-charge voltage: A[3:0]
            guard a[0] & 0xF0 == 0 else { return r.error("pre-charge voltage \(hexByte(a[0])) is invalid (bits 3…0 only)") }
            r.prechargeVoltage = a[0]
        case 0xBE:  // Set VCOMH: A[2:0]
            guard a[0] & 0xF8 == 0 else { return r.error("VCOMH level \(hexByte(a[0])) is invalid (bits 2…0 only)") }
            r.vcomh = a[0]
        case 0xD5:  // Function Selection B: 0 1 1 0 0 0 A1 A0
            guard a[0] & 0xFC == 0x60 else { return r.error("function selection B \(hexByte(a[0])) is invalid (0x60…0x63)") }
            r.functionB = a[0]
        case 0xFD:  // Set Command Lock: 12h unlock, 16h lock
            switch a[0] {
            case 0x12: r.commandLocked = false
            case 0x16: r.commandLocked = true
            default: r.error("command lock setting \(hexByte(a[0])) is invalid (0x12 unlock, 0x16 lock)")
            }
        case 0x26, 0x27: horizontalScroll(a, on: &r)
        case 0x2E: r.scrolling = false
        case 0x2F: r.scrolling = true
        default:
            r.error("unhandled command \(hexByte(opcode))")
        }
    }

    /// B8h: GS1 … GS15 pulse widths, A[5:0] each; "should not be equal. i.e. 0<GS1<GS2 … <GS15".
    /// The table is kept as sent, so the glass report can show it; a table that is not strictly
    /// increasing is an error.
    private static func setGreyTable(_ a: [UInt8], on r: inout SSD1327Registers) {
        let widths = a.map { $0 & 0x3F }
        r.greyTable = [0] + widths
        let increasing = widths[0] > 0 && zip(widths, widths.dropFirst()).allSatisfy { $0 < $1 }
        if !increasing { r.error("grey scale table \(widths) is not monotonic (0 < GS1 < GS2 < … < GS15)") }
    }

    /// 26h/27h Continuous Horizontal Scroll Setup: A dummy 00h, B start row, C interval
    /// (`* * * 0 0 C2 C1 C0`), D end row (≥ B), E start column, F end column (≥ E), G dummy 00h.
    private static func horizontalScroll(_ a: [UInt8], on r: inout SSD1327Registers) {
        guard a[0] == 0, a[6] == 0, a[2] & 0x18 == 0, a[1] <= 127, a[3] <= 127, a[1] <= a[3], a[4] <= 63, a[5] <= 63, a[4] <= a[5] else {
            return r.error("horizontal scroll set-up \(a.map(hexByte)) is malformed")
        }
    }
}
