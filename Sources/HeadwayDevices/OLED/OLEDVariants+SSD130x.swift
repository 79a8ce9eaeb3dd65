/// The Solomon SSD130x monochrome family: 8-row pages, horizontal addressing in a column × page
/// window. Facts: docs/oled-controllers.md §1, §3–§5 (each datasheet's command table, reset timing
/// and 4-wire serial timing).
extension OLEDController {
    /// SSD1306 (datasheet Rev 1.1; charge pump application note Rev 0.4). RES# ≥ 3 µs (table 13-1);
    /// SPI cycle ≥ 100 ns (table 13-4).
    static let ssd1306Row = OLEDVariant(
        ramWidth: 128, ramHeight: 64, addressing: .pageWindow,
        modules: [
            OLEDModule(width: 128, height: 64, comPins: 0x12),
            OLEDModule(width: 128, height: 32, comPins: 0x02),
            OLEDModule(width: 64, height: 48, columnOffset: 32, comPins: 0x12),
        ],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: .solomon,
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [
            .displayOn(false),
            .clock(0x80),                                       // divide 1, oscillator at reset value
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .chargePump(c.externalVCC ? 0x10 : 0x14),
            .addressingMode(0x00),                              // horizontal
        ] + monochromeOrientation(c) + [
            .comPins(c.module.comPins),
            .contrast(contrast),
            .precharge(c.externalVCC ? 0x22 : 0xF1),
            .vcomh(0x20),                                       // 0.77 VCC
            .scrollOff,
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }

    /// SSD1309 (datasheet Rev 1.1): SSD1306's commands for an external panel supply — no charge
    /// pump — with a command lock (0xFD), its own clock, pre-charge and VCOMH reset values
    /// (tables 9-1 to 9-5: D9 0x22, DB 0x34; Linux's clock 0xA0). The 2.42" glass is upright with
    /// the reset re-map and scan (Waveshare's `OLED_2in42.py` sends neither 0xA1 nor 0xC8).
    static let ssd1309Row = OLEDVariant(
        ramWidth: 128, ramHeight: 64, addressing: .pageWindow,
        modules: [OLEDModule(width: 128, height: 64, comPins: 0x12, reversed: true)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: .solomon,
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [
            .commandLock(0x12),                                 // unlocked (a locked chip ignores the rest)
            .displayOn(false),
            .clock(0xA0),                                       // divide 1, frequency 10 (Linux's SSD1309 row)
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .addressingMode(0x00),
        ] + monochromeOrientation(c) + [
            .comPins(c.module.comPins),
            .contrast(contrast),
            .precharge(0x22),                                   // reset value: 2 + 2 DCLK
            .vcomh(0x34),                                       // reset value: 0.78 VCC
            .scrollOff,
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }

    /// SSD1305 (datasheet Rev 1.9): 132 RAM columns, external VCC selected with 0xAD 0x8E, a
    /// current-drive look-up table (0x91) and area colour / low power (0xD8); no charge pump.
    /// 128x32 glass sits on columns 4…131 (Adafruit's 2.23" bonnet), 128x64 on 0…127 (Adafruit's
    /// SSD1305 library: `_column_offset` 4 for 32 rows, else 0). SPI cycle ≥ 250 ns (table 13-4).
    static let ssd1305Row = OLEDVariant(
        ramWidth: 132, ramHeight: 64, addressing: .pageWindow,
        modules: [
            OLEDModule(width: 128, height: 32, columnOffset: 4, comPins: 0x12),
            OLEDModule(width: 128, height: 64, comPins: 0x12),
        ],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 4_000_000, reset: .solomon,
        defaultContrast: 0xFF, turnsByQuarters: false
    ) { c, contrast in
        [
            .displayOn(false),
            .clock(0x80),
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .masterConfiguration(0x8E),                         // external VCC (the only setting)
            .areaColour(0x05),                                  // monochrome, low power
            .addressingMode(0x00),
        ] + monochromeOrientation(c) + [
            .comPins(c.module.comPins),
            .lookUpTable(0x3F, 0x3F, 0x3F, 0x3F),               // longest drive pulse, as Adafruit's bonnet code
            .contrast(contrast),
            .precharge(0xD2),
            .vcomh(0x34),                                       // reset value: 0.77 VCC
            .scrollOff,
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }

    /// SSD1315 (datasheet Rev 1.1 and its Appendix IV): the SSD1306's command set with a charge
    /// pump of three voltages (0x8D: 0x14 is 7.5 V) and a choice of internal current reference
    /// (0xAD 0x10: internal, 19 µA), pre-charge in units of 2 DCLK.
    static let ssd1315Row = OLEDVariant(
        ramWidth: 128, ramHeight: 64, addressing: .pageWindow,
        modules: [OLEDModule(width: 128, height: 64, comPins: 0x12)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: .solomon,
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [
            .displayOn(false),
            .clock(0x80),
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .chargePump(c.externalVCC ? 0x10 : 0x14),
            .internalReference(0x10),                           // internal IREF: modules carry no reference resistor
            .addressingMode(0x00),
        ] + monochromeOrientation(c) + [
            .comPins(c.module.comPins),
            .contrast(max(1, contrast)),                        // 0 is not a valid contrast on SSD1315
            .precharge(0x22),
            .vcomh(0x20),
            .scrollOff,
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }
}

extension ResetTiming {
    /// Solomon's monochrome controllers: RES# low ≥ 3 µs; no wait is given before the first
    /// command, so 1 ms (Linux waits 4 µs).
    static let solomon = ResetTiming(low: 10e-6, ready: 1e-3)
}
