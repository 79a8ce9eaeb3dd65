/// The Solomon SSD132x greyscale family: 4 bits a pixel, column-pair × row windows. Facts:
/// docs/oled-controllers.md §7.
extension OLEDController {
    /// SSD1327 (datasheet Rev 1.8). Upright the re-map is 0x53 — column and nibble re-map, COM
    /// re-map, COM split — as Linux, luma and Adafruit drive 128x128 glass; the left pixel of each
    /// byte is then in bits 3…0, as ``Greymap`` holds it. A half turn clears the column and COM
    /// re-maps and the nibble re-map with them (0x40), which keeps that byte order. 96x96 glass
    /// (Seeed's Grove 1.12" V1) is bonded the other way: upright without the re-maps and with display
    /// offset 0x60 (SeeedGrayOLED's `init()`: A0 0x46, A2 0x60), turned with them and 0x20; it sits
    /// on columns 16…111. RES# ≥ 100 µs (§7.9's t1; table 12-1 says 2 µs); SPI cycle ≥ 160 ns
    /// (table 12-4).
    static let ssd1327Row = OLEDVariant(
        ramWidth: 128, ramHeight: 128, addressing: .greyWindow,
        modules: [
            OLEDModule(width: 128, height: 128),
            OLEDModule(width: 96, height: 96, columnOffset: 16, displayOffset: 0x60, turnedDisplayOffset: 0x20, reversed: true),
        ],
        i2cAddresses: [0x3C, 0x3D], maxSPIClockHz: 6_250_000, reset: ResetTiming(low: 200e-6, ready: 1e-3),
        defaultContrast: 0x80, turnsByQuarters: true
    ) { c, contrast in
        [
            .commandLock(0x12),                                 // unlocked
            .displayOn(false),
            .greyRemap(c.remapsTurned ? 0x40 : 0x53),
            .greyStartLine(0),
            .greyDisplayOffset(c.displayOffset),
            .multiplex(UInt8(c.module.height - 1)),
            .functionSelectionA(0x01),                          // internal VDD regulator
            .phaseLength(0x55),
            .frontClock(0x01),
            .secondPrecharge(0x01),
            .linearGreyTable,
            .prechargeVoltage(0x08),                            // = VCOMH
            .greyVcomh(0x07),                                   // 0.86 VCC
            .functionSelectionB(0x62),                          // second pre-charge on, internal VSL
            .contrast(contrast),
            .greyDisplayMode(c.inverted ? 0xA7 : 0xA4),
        ]
    }
}
