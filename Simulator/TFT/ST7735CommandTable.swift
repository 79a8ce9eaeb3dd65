extension TFTCommandTable {
    /// ST7735S V1.4 §10.1 "System Function Command List" and §10.2 "Panel Function Command List",
    /// one parameter count per row of each command's description.
    static let st7735s = TFTCommandTable(
        writes: st7735Level1 + st7735Panel + [(0xFC, "GCV", 1)],
        pixels: [(0x2C, "RAMWR", false)],
        reads: st7735Reads)

    /// The ST7735R: the ST7735S lists (its power commands C0h with three parameters and C5h with
    /// one, as the vendors' ST7735R initialisations send them), with DISSET5 (B6h, two parameters)
    /// and PWCTR6 (FCh, two) as the ST7735 V1.2 §10.2.5 and §10.2.15 define them. The ST7735R V0.2
    /// sheet itself was read only in part (docs/tft-controllers.md, "Doubtful").
    static let st7735r = TFTCommandTable(
        writes: st7735Level1 + st7735Panel + [(0xB6, "DISSET5", 2), (0xFC, "PWCTR6", 2)],
        pixels: [(0x2C, "RAMWR", false)],
        reads: st7735Reads)

    /// §10.1.1 … §10.1.33 (writes). RGBSET takes 128 bytes "regardless of the color mode" (§10.1.23).
    private static let st7735Level1: [(UInt8, String, Int)] = [
        (0x00, "NOP", 0), (0x01, "SWRESET", 0), (0x10, "SLPIN", 0), (0x11, "SLPOUT", 0), (0x12, "PTLON", 0),
        (0x13, "NORON", 0), (0x20, "INVOFF", 0), (0x21, "INVON", 0), (0x26, "GAMSET", 1), (0x28, "DISPOFF", 0),
        (0x29, "DISPON", 0), (0x2A, "CASET", 4), (0x2B, "RASET", 4), (0x2D, "RGBSET", 128), (0x30, "PTLAR", 4),
        (0x33, "SCRLAR", 6), (0x34, "TEOFF", 0), (0x35, "TEON", 1), (0x36, "MADCTL", 1), (0x37, "VSCSAD", 2),
        (0x38, "IDMOFF", 0), (0x39, "IDMON", 0), (0x3A, "COLMOD", 1),
    ]

    /// §10.2.1 … §10.2.18: frame rate, inversion, power, VCOM, ID, NVM and gamma.
    private static let st7735Panel: [(UInt8, String, Int)] = [
        (0xB1, "FRMCTR1", 3), (0xB2, "FRMCTR2", 3), (0xB3, "FRMCTR3", 6), (0xB4, "INVCTR", 1), (0xC0, "PWCTR1", 3),
        (0xC1, "PWCTR2", 1), (0xC2, "PWCTR3", 2), (0xC3, "PWCTR4", 2), (0xC4, "PWCTR5", 2), (0xC5, "VMCTR1", 1),
        (0xC7, "VMOFCTR", 1), (0xD1, "WRID2", 1), (0xD2, "WRID3", 1), (0xD9, "NVFCTR1", 1), (0xDE, "NVFCTR2", 2),
        (0xDF, "NVFCTR3", 2), (0xE0, "GMCTRP1", 16), (0xE1, "GMCTRN1", 16),
    ]

    private static let st7735Reads: [(UInt8, String)] = [
        (0x04, "RDDID"), (0x09, "RDDST"), (0x0A, "RDDPM"), (0x0B, "RDDMADCTL"), (0x0C, "RDDCOLMOD"), (0x0D, "RDDIM"),
        (0x0E, "RDDSM"), (0x0F, "RDDSDR"), (0x2E, "RAMRD"), (0xDA, "RDID1"), (0xDB, "RDID2"), (0xDC, "RDID3"),
    ]
}
