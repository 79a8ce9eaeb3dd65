extension TFTCommandTable {
    /// ST7789V V1.3 §9.1 "System Function Command Table 1" (Table 19) and §9.2 "System Function
    /// Command Table 2", one parameter count per row of each command's description. The ST7789V2
    /// shares it (its sheet was not read; docs/tft-controllers.md).
    static let st7789v = TFTCommandTable(
        writes: st7789Level1 + st7789Level2,
        pixels: [(0x2C, "RAMWR", false), (0x3C, "WRMEMC", true)],
        reads: st7789Reads)

    /// ST7789VW V1.0: the same lists, with POWSAVE (BCh, §9.2.10) and DLPOFFSAVE (BDh, §9.2.11) added.
    static let st7789vw = TFTCommandTable(
        writes: st7789Level1 + st7789Level2 + [(0xBC, "POWSAVE", 1), (0xBD, "DLPOFFSAVE", 1)],
        pixels: [(0x2C, "RAMWR", false), (0x3C, "WRMEMC", true)],
        reads: st7789Reads)

    /// §9.1.1 … §9.1.43 (writes).
    private static let st7789Level1: [(UInt8, String, Int)] = [
        (0x00, "NOP", 0), (0x01, "SWRESET", 0), (0x10, "SLPIN", 0), (0x11, "SLPOUT", 0), (0x12, "PTLON", 0),
        (0x13, "NORON", 0), (0x20, "INVOFF", 0), (0x21, "INVON", 0), (0x26, "GAMSET", 1), (0x28, "DISPOFF", 0),
        (0x29, "DISPON", 0), (0x2A, "CASET", 4), (0x2B, "RASET", 4), (0x30, "PTLAR", 4), (0x33, "VSCRDEF", 6),
        (0x34, "TEOFF", 0), (0x35, "TEON", 1), (0x36, "MADCTL", 1), (0x37, "VSCSAD", 2), (0x38, "IDMOFF", 0),
        (0x39, "IDMON", 0), (0x3A, "COLMOD", 1), (0x44, "STE", 2), (0x51, "WRDISBV", 1), (0x53, "WRCTRLD", 1),
        (0x55, "WRCACE", 1), (0x5E, "WRCABCMB", 1),
    ]

    /// §9.2.1 … §9.2.35: the panel, power, gamma and NVM commands.
    private static let st7789Level2: [(UInt8, String, Int)] = [
        (0xB0, "RAMCTRL", 2), (0xB1, "RGBCTRL", 3), (0xB2, "PORCTRL", 5), (0xB3, "FRCTRL1", 3), (0xB5, "PARCTRL", 1),
        (0xB7, "GCTRL", 1), (0xB8, "GTADJ", 4), (0xBA, "DGMEN", 1), (0xBB, "VCOMS", 1), (0xC0, "LCMCTRL", 1),
        (0xC1, "IDSET", 3), (0xC2, "VDVVRHEN", 2), (0xC3, "VRHS", 1), (0xC4, "VDVS", 1), (0xC5, "VCMOFSET", 1),
        (0xC6, "FRCTRL2", 1), (0xC7, "CABCCTRL", 1), (0xC8, "REGSEL1", 1), (0xCA, "REGSEL2", 1), (0xCC, "PWMFRSEL", 1),
        (0xD0, "PWCTRL1", 2), (0xD2, "VAPVANEN", 1), (0xDF, "CMD2EN", 4), (0xE0, "PVGAMCTRL", 14),
        (0xE1, "NVGAMCTRL", 14), (0xE2, "DGMLUTR", 64), (0xE3, "DGMLUTB", 64), (0xE4, "GATECTRL", 3),
        (0xE7, "SPI2EN", 1), (0xE8, "PWCTRL2", 1), (0xE9, "EQCTRL", 3), (0xEC, "PROMCTRL", 1), (0xFA, "PROMEN", 4),
        (0xFC, "NVMSET", 2), (0xFE, "PROMACT", 2),
    ]

    /// The reads of Table 19 and §9.1 (the host clocks the answer in on SDO).
    private static let st7789Reads: [(UInt8, String)] = [
        (0x04, "RDDID"), (0x09, "RDDST"), (0x0A, "RDDPM"), (0x0B, "RDDMADCTL"), (0x0C, "RDDCOLMOD"), (0x0D, "RDDIM"),
        (0x0E, "RDDSM"), (0x0F, "RDDSDR"), (0x2E, "RAMRD"), (0x3E, "RDMEMC"), (0x45, "GSCAN"), (0x52, "RDDISBV"),
        (0x54, "RDCTRLD"), (0x56, "RDCABC"), (0x5F, "RDCABCMB"), (0x68, "RDABCSDR"), (0xDA, "RDID1"), (0xDB, "RDID2"),
        (0xDC, "RDID3"),
    ]
}
