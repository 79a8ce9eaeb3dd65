/// The Solomon SSD132x greyscale family: 4 bits a pixel, column-pair × row windows.
extension OLEDController {
    static let ssd1327Row = OLEDVariant(
        ramWidth: 128, ramHeight: 128, addressing: .greyWindow,
        modules: [OLEDModule(width: 128, height: 128), OLEDModule(width: 96, height: 96, columnOffset: 16)],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 10_000_000, reset: OLEDResetTiming(low: 100e-6, ready: 100e-6),
        defaultContrast: 0x80, turnsByQuarters: true
    ) { c, contrast in
        [.commandLock(0x12), .displayOn(false), .greyStartLine(0), .greyDisplayOffset(0), .greyRemap(0x51), .multiplex(UInt8(c.module.height - 1)),
         .functionSelectionA(0x01), .phaseLength(0x55), .frontClock(0x01), .secondPrecharge(0x01), .linearGreyTable, .prechargeVoltage(0x08),
         .greyVcomh(0x07), .functionSelectionB(0x62), .contrast(contrast), .greyDisplayMode(c.inverted ? 0xA7 : 0xA4)]
    }
}
