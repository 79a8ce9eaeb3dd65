/// One controller command with its argument bytes, as the controller's datasheet defines it.
///
/// Cited by datasheet and page: SSD1306 Rev 1.1 (table 9-1, pp.28–32), SH1106 V2.2, SH1107 V2.1,
/// SSD1327 Rev 1.8 (table 8-1, §9); docs/oled-controllers.md tabulates every controller's set.
/// SSD1305, SSD1309 and SSD1315 define the SSD1306 commands used here with the same bytes (their
/// command tables); where a controller differs, its variant row picks another case.
package enum OLEDCommand: Sendable, Equatable {
    // MARK: Fundamental commands (every monochrome controller)

    /// 0x81 n: contrast, 0…255 (SSD1306 p.28; SH1106 p.20; SH1107 p.28; SSD1327 p.33).
    case contrast(UInt8)
    /// 0xA4 / 0xA5: show RAM, or light every pixel (SSD1306 p.28; SH1106 p.21; SH1107 p.30).
    case entireDisplayOn(Bool)
    /// 0xA6 / 0xA7: normal or inverse display (SSD1306 p.28; SH1106 p.21; SH1107 p.31).
    case inverted(Bool)
    /// 0xAE / 0xAF: display off (sleep, RAM kept) or on (SSD1306 p.28; SH1106 p.23; SH1107 p.33;
    /// SSD1327 p.34).
    case displayOn(Bool)

    // MARK: Addressing

    /// 0x20 n: memory addressing mode, 0 horizontal, 1 vertical, 2 page (SSD1306 p.30).
    case addressingMode(UInt8)
    /// 0x21 a b: column window for horizontal addressing, absolute columns (SSD1306 p.30; SSD1305:
    /// 0…131, p.33).
    case columnWindow(UInt8, UInt8)
    /// 0x22 a b: page window for horizontal addressing (SSD1306 p.31).
    case pageWindow(UInt8, UInt8)
    /// 0xB0 | p: the page that page addressing writes (SSD1306 p.31: 0…7; SH1106 p.23: 0…7;
    /// SH1107 p.33: 0…15).
    case page(UInt8)
    /// 0x00 | low nibble, 0x10 | high nibble: the column that page addressing writes next
    /// (SSD1306 p.30; SH1106 p.19: 0…131; SH1107 p.23: 0…127).
    case column(UInt8)
    /// 0x20 / 0x21: page addressing or vertical addressing, one byte (SH1107 pp.24–26).
    case sh1107AddressingMode(vertical: Bool)

    // MARK: Hardware configuration

    /// 0x40 | n: the RAM row shown on the first scanned line, 0…63 (SSD1306 p.31; SH1106 p.20).
    case startLine(UInt8)
    /// 0xDC n: display start line on SH1107, 0…127, a two-byte command (SH1107 p.38).
    case sh1107StartLine(UInt8)
    /// 0xA0 / 0xA1: column 0 on SEG0, or on the last SEG (SSD1306 p.31; SH1106 p.21; SH1107 p.29).
    case segmentRemap(Bool)
    /// 0xA8 n: multiplex ratio, the number of scanned lines minus one (SSD1306 p.31: 15…63; SH1106
    /// p.22; SH1107 p.30: up to 127; SSD1327 p.34: 15…127).
    case multiplex(UInt8)
    /// 0xC0 / 0xC8: COM scan from COM0 up, or from the last COM down (SSD1306 p.31; SH1106 p.24;
    /// SH1107 p.34).
    case comScanReversed(Bool)
    /// 0xD3 n: vertical shift of the scan, 0…63 (SSD1306 p.31; SH1106 p.24; SH1107 p.32: 0…127).
    case displayOffset(UInt8)
    /// 0xDA n: COM pins hardware configuration, sequential or alternative, left/right remap
    /// (SSD1306 p.31; SH1106 p.26).
    case comPins(UInt8)

    // MARK: Timing and driving

    /// 0xD5 n: display clock divide ratio (bits 3…0) and oscillator frequency (bits 7…4)
    /// (SSD1306 p.32; SH1106 p.25; SH1107 p.35).
    case clock(UInt8)
    /// 0xD9 n: pre-charge periods, phase 1 in bits 3…0, phase 2 in bits 7…4 (SSD1306 p.32; SH1106
    /// p.26; SH1107 p.36).
    case precharge(UInt8)
    /// 0xDB n: VCOMH deselect level (SSD1306 p.32; SH1106 p.27; SH1107 p.37).
    case vcomh(UInt8)
    /// 0x8D n: charge pump, 0x14 on, 0x10 off (SSD1306 application note Rev 0.4 §2.1; SSD1315
    /// appendix IV p.8 adds 8.5 V and 9 V in the same byte).
    case chargePump(UInt8)
    /// 0xAD n: DC-DC converter control (SH1106 p.22: 0x8B on, 0x8A off; SH1107 p.32: 0x81 on, 0x80 off).
    case dcdc(UInt8)
    /// 0x30 | n: charge pump output voltage, 0…3 (SH1106 p.19).
    case pumpVoltage(UInt8)
    /// 0xFD n: command lock, 0x12 unlocks, 0x16 locks (SSD1309 p.27; SSD1327 §9.1.23 p.49).
    case commandLock(UInt8)
    /// 0xAD n: master configuration on SSD1305, 0x8E selects external VCC (SSD1305 p.35).
    case masterConfiguration(UInt8)
    /// 0xD8 n: area colour and low power display modes (SSD1305 p.35).
    case areaColour(UInt8)
    /// 0x91 a b c d: current drive pulse widths of bank 0 and colours A, B, C (SSD1305 p.33).
    case lookUpTable(UInt8, UInt8, UInt8, UInt8)
    /// 0xAD n: internal current reference on SSD1315, 0x10 internal at 19 µA (SSD1315 appendix IV p.6).
    case internalReference(UInt8)
    /// 0x2E: stop any horizontal or vertical scroll (SSD1306 p.29); RAM must be rewritten after it.
    case scrollOff

    // MARK: SSD1327 (4-bit greyscale)

    /// 0x15 a b: column window, in pairs of pixels (byte columns), 0…63 (SSD1327 §9.1.1 p.39).
    case greyColumnWindow(UInt8, UInt8)
    /// 0x75 a b: row window, 0…127 (SSD1327 §9.1.2 p.39).
    case greyRowWindow(UInt8, UInt8)
    /// 0xA0 n: re-map (column, nibble, address increment, COM, COM split) (SSD1327 §9.1.5 pp.40–42).
    case greyRemap(UInt8)
    /// 0xA1 n: display start line, 0…127 (SSD1327 §9.1.6 p.43).
    case greyStartLine(UInt8)
    /// 0xA2 n: display offset, 0…127 (SSD1327 §9.1.7 p.44).
    case greyDisplayOffset(UInt8)
    /// 0xA4 normal, 0xA5 all on, 0xA6 all off, 0xA7 inverse (SSD1327 §9.1.8 p.45).
    case greyDisplayMode(UInt8)
    /// 0xAB n: function selection A, bit 0 enables the internal VDD regulator (SSD1327 p.34).
    case functionSelectionA(UInt8)
    /// 0xB1 n: phase 1 (bits 3…0) and phase 2 (bits 7…4) lengths (SSD1327 p.34).
    case phaseLength(UInt8)
    /// 0xB3 n: front clock divider and oscillator frequency (SSD1327 p.35).
    case frontClock(UInt8)
    /// 0xB6 n: second pre-charge period (SSD1327 §9.1.16 p.48).
    case secondPrecharge(UInt8)
    /// 0xB9: the default linear grey scale table (SSD1327 p.35, §7.8 p.30).
    case linearGreyTable
    /// 0xBC n: pre-charge voltage (SSD1327 p.36).
    case prechargeVoltage(UInt8)
    /// 0xBE n: VCOMH voltage (SSD1327 p.36).
    case greyVcomh(UInt8)
    /// 0xD5 n: function selection B, second pre-charge and internal VSL (SSD1327 §9.1.22 p.49).
    case functionSelectionB(UInt8)

    /// The bytes sent for this command, opcode first.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }

    /// Appends this command's bytes to `buffer`, opcode first.
    func append(to buffer: inout [UInt8]) {
        switch self {
        case .contrast(let n): buffer.append(0x81); buffer.append(n)
        case .entireDisplayOn(let on): buffer.append(on ? 0xA5 : 0xA4)
        case .inverted(let on): buffer.append(on ? 0xA7 : 0xA6)
        case .displayOn(let on): buffer.append(on ? 0xAF : 0xAE)
        case .addressingMode(let n): buffer.append(0x20); buffer.append(n)
        case .columnWindow(let a, let b): buffer.append(0x21); buffer.append(a); buffer.append(b)
        case .pageWindow(let a, let b): buffer.append(0x22); buffer.append(a); buffer.append(b)
        case .page(let p): buffer.append(0xB0 | p)
        case .column(let c): buffer.append(0x00 | c & 0x0F); buffer.append(0x10 | c >> 4)
        case .sh1107AddressingMode(let vertical): buffer.append(vertical ? 0x21 : 0x20)
        case .startLine(let n): buffer.append(0x40 | n & 0x3F)
        case .sh1107StartLine(let n): buffer.append(0xDC); buffer.append(n)
        case .segmentRemap(let on): buffer.append(on ? 0xA1 : 0xA0)
        case .multiplex(let n): buffer.append(0xA8); buffer.append(n)
        case .comScanReversed(let on): buffer.append(on ? 0xC8 : 0xC0)
        case .displayOffset(let n): buffer.append(0xD3); buffer.append(n)
        case .comPins(let n): buffer.append(0xDA); buffer.append(n)
        case .clock(let n): buffer.append(0xD5); buffer.append(n)
        case .precharge(let n): buffer.append(0xD9); buffer.append(n)
        case .vcomh(let n): buffer.append(0xDB); buffer.append(n)
        case .chargePump(let n): buffer.append(0x8D); buffer.append(n)
        case .dcdc(let n): buffer.append(0xAD); buffer.append(n)
        case .pumpVoltage(let n): buffer.append(0x30 | n & 0x03)
        case .scrollOff: buffer.append(0x2E)
        case .greyColumnWindow(let a, let b): buffer.append(0x15); buffer.append(a); buffer.append(b)
        case .greyRowWindow(let a, let b): buffer.append(0x75); buffer.append(a); buffer.append(b)
        case .greyRemap(let n): buffer.append(0xA0); buffer.append(n)
        case .greyStartLine(let n): buffer.append(0xA1); buffer.append(n)
        case .greyDisplayOffset(let n): buffer.append(0xA2); buffer.append(n)
        case .greyDisplayMode(let n): buffer.append(n)
        case .functionSelectionA(let n): buffer.append(0xAB); buffer.append(n)
        case .phaseLength(let n): buffer.append(0xB1); buffer.append(n)
        case .frontClock(let n): buffer.append(0xB3); buffer.append(n)
        case .secondPrecharge(let n): buffer.append(0xB6); buffer.append(n)
        case .linearGreyTable: buffer.append(0xB9)
        case .prechargeVoltage(let n): buffer.append(0xBC); buffer.append(n)
        case .greyVcomh(let n): buffer.append(0xBE); buffer.append(n)
        case .functionSelectionB(let n): buffer.append(0xD5); buffer.append(n)
        case .commandLock(let n): buffer.append(0xFD); buffer.append(n)
        case .masterConfiguration(let n): buffer.append(0xAD); buffer.append(n)
        case .areaColour(let n): buffer.append(0xD8); buffer.append(n)
        case .lookUpTable(let a, let b, let c, let d): buffer.append(0x91); buffer.append(a); buffer.append(b); buffer.append(c); buffer.append(d)
        case .internalReference(let n): buffer.append(0xAD); buffer.append(n)
        }
    }
}
