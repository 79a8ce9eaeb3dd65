/// The Sino Wealth SH110x family: page addressing only.
extension OLEDController {
    /// SH1106 (datasheet V2.3): 132 RAM columns, the glass on columns 2…129.
    static let sh1106Row = OLEDVariant(
        ramWidth: 132, ramHeight: 64, addressing: .pagesOnly,
        modules: [OLEDModule(width: 128, height: 64, columnOffset: 2, comPins: 0x12)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 4_000_000, reset: OLEDResetTiming(low: 10e-6, ready: 2e-6),
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
        ] + orientation(c) + [
            .comPins(c.module.comPins),
            .contrast(contrast),
            .precharge(0x22),
            .vcomh(0x35),                                       // reset value
            .entireDisplayOn(false),
            .inverted(c.inverted),
        ]
    }
}

extension OLEDController {
    static let sh1107Row = OLEDVariant(
        ramWidth: 128, ramHeight: 128, addressing: .pagesOnly,
        modules: [OLEDModule(width: 128, height: 128), OLEDModule(width: 64, height: 128)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 4_000_000, reset: OLEDResetTiming(low: 10e-6, ready: 2e-6),
        defaultContrast: 0x80, turnsByQuarters: true
    ) { c, contrast in
        [.displayOn(false), .clock(0x51), .multiplex(UInt8(c.module.height - 1)), .displayOffset(0), .sh1107StartLine(0), .sh1107AddressingMode(vertical: false)]
            + orientation(c) + [.contrast(contrast), .precharge(0x22), .vcomh(0x35), .dcdc(0x81), .entireDisplayOn(false), .inverted(c.inverted)]
    }
}
