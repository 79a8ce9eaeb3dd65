/// The Sino Wealth SH110x family: page addressing only. Facts: docs/oled-controllers.md §2, §6.
extension OLEDController {
    /// SH1106 (datasheet V2.2): 132 RAM columns, the glass on columns 2…129; DC-DC converter
    /// (0xAD) and pump voltage (0x30–0x33) instead of a charge pump. RES# ≥ 10 µs, then > 2 µs
    /// (p.44); SPI cycle ≥ 250 ns (p.41).
    static let sh1106Row = OLEDVariant(
        ramWidth: 132, ramHeight: 64, addressing: .pagesOnly,
        modules: [OLEDModule(width: 128, height: 64, columnOffset: 2, comPins: 0x12)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 4_000_000, reset: ResetTiming(low: 20e-6, ready: 1e-3),
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [
            .displayOn(false),
            .clock(0x80),
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .dcdc(0x8B),                                        // DC-DC converter on
            .pumpVoltage(2),                                    // 8.0 V
        ] + monochromeOrientation(c) + [
            .comPins(c.module.comPins),
            .contrast(contrast),
            .precharge(0x22),
            .vcomh(0x35),                                       // reset value
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }

    /// SH1107 (datasheet V2.1): 128x128 RAM in 16 pages whose bytes run along the segments and
    /// whose column address picks a common line, so upright (segment remap and COM scan at their
    /// reset values) a page is 8 picture rows and a column one picture column, as on SSD1306 — the
    /// glass portrait: 128x128, or 64 columns × 128 rows on COM lines shifted by 0x60 (Waveshare's
    /// 1.3" (C), Adafruit's FeatherWing; 0x20 with the scan reversed for a half turn). Start line is
    /// 0xDC (two bytes); no COM pins command.
    /// RES# ≥ 10 µs (p.55); SPI cycle ≥ 250 ns (p.52).
    static let sh1107Row = OLEDVariant(
        ramWidth: 128, ramHeight: 128, addressing: .pagesOnly,
        modules: [OLEDModule(width: 128, height: 128), OLEDModule(width: 64, height: 128, displayOffset: 0x60, turnedDisplayOffset: 0x20)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 4_000_000, reset: ResetTiming(low: 20e-6, ready: 1e-3),
        defaultContrast: 0x80, turnsByQuarters: true, columnsAreCommons: true
    ) { c, contrast in
        [
            .displayOn(false),
            .sh1107StartLine(0),
            .sh1107AddressingMode(vertical: false),
            .segmentRemap(c.remapsTurned),
            .comScanReversed(c.remapsTurned),
            .multiplex(UInt8(c.module.width - 1)),              // the columns are the common lines
            .displayOffset(c.displayOffset),
            .clock(0x50),                                       // reset value
            .contrast(contrast),
            .precharge(0x22),
            .vcomh(0x35),
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }

    /// Segment remap and COM scan for the glass upright (column 0 on the last SEG, COM scanned
    /// from the last one down, as module makers wire SSD130x and SH1106 glass), or both undone for
    /// a half turn (or the other way round on a module bonded reversed).
    static func monochromeOrientation(_ c: OLEDConfiguration) -> [OLEDCommand] {
        [.segmentRemap(!c.remapsTurned), .comScanReversed(!c.remapsTurned)]
    }
}
