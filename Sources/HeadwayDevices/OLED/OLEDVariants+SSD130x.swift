/// The Solomon SSD130x monochrome family: 8-row pages, horizontal addressing in a window.
extension OLEDController {
    /// SSD1306 (datasheet Rev 1.1; charge pump application note).
    static let ssd1306Row = OLEDVariant(
        ramWidth: 128, ramHeight: 64, addressing: .pageWindow,
        modules: [
            OLEDModule(width: 128, height: 64, comPins: 0x12),
            OLEDModule(width: 128, height: 32, comPins: 0x02),
            OLEDModule(width: 64, height: 48, columnOffset: 32, comPins: 0x12),
        ],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: OLEDResetTiming(low: 10e-6, ready: 10e-6),
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [
            .displayOn(false),
            .clock(0x80),                                       // divide 1, oscillator default
            .multiplex(UInt8(c.module.height - 1)),
            .displayOffset(0),
            .startLine(0),
            .chargePump(c.externalVCC ? 0x10 : 0x14),
            .addressingMode(0x00),                              // horizontal
        ] + orientation(c) + [
            .comPins(c.module.comPins),
            .contrast(contrast),
            .precharge(c.externalVCC ? 0x22 : 0xF1),
            .vcomh(0x20),                                       // 0.77 VCC
            .scrollOff,
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }
}

extension OLEDController {
    static let ssd1309Row = OLEDVariant(
        ramWidth: 128, ramHeight: 64, addressing: .pageWindow, modules: [OLEDModule(width: 128, height: 64, comPins: 0x12)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: OLEDResetTiming(low: 10e-6, ready: 10e-6),
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [.displayOn(false), .clock(0x80), .multiplex(UInt8(c.module.height - 1)), .displayOffset(0), .startLine(0), .addressingMode(0)]
            + orientation(c) + [.comPins(c.module.comPins), .contrast(contrast), .precharge(0x22), .vcomh(0x34), .scrollOff, .entireDisplayOn(false), .inverted(c.inverted)]
    }
    static let ssd1305Row = OLEDVariant(
        ramWidth: 132, ramHeight: 64, addressing: .pageWindow,
        modules: [OLEDModule(width: 128, height: 32, columnOffset: 4, comPins: 0x12), OLEDModule(width: 128, height: 64, columnOffset: 4, comPins: 0x12)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: OLEDResetTiming(low: 10e-6, ready: 10e-6),
        defaultContrast: 0xCF, turnsByQuarters: false
    ) { c, contrast in
        [.displayOn(false), .clock(0x80), .multiplex(UInt8(c.module.height - 1)), .displayOffset(0), .startLine(0), .addressingMode(0)]
            + orientation(c) + [.comPins(c.module.comPins), .contrast(contrast), .precharge(0x22), .vcomh(0x34), .entireDisplayOn(false), .inverted(c.inverted)]
    }
    static let ssd1315Row = ssd1306Row
}
