extension TFTCommandTable {
    /// ILI9341 V1.11 §8.1 "Command List" (regulative and extended sets) and §8.4 "Description of
    /// Extend register command", one parameter count per row. Its note 1, "Undefined commands are
    /// treated as NOP", is a protocol error here: a driver that sends one meant something else.
    static let ili9341 = TFTCommandTable(
        writes: [
            (0x00, "NOP", 0), (0x01, "SWRESET", 0), (0x10, "SLPIN", 0), (0x11, "SLPOUT", 0), (0x12, "PTLON", 0),
            (0x13, "NORON", 0), (0x20, "INVOFF", 0), (0x21, "INVON", 0), (0x26, "GAMSET", 1), (0x28, "DISPOFF", 0),
            (0x29, "DISPON", 0), (0x2A, "CASET", 4), (0x2B, "PASET", 4), (0x2D, "RGBSET", 128), (0x30, "PTLAR", 4),
            (0x33, "VSCRDEF", 6), (0x34, "TEOFF", 0), (0x35, "TEON", 1), (0x36, "MADCTL", 1), (0x37, "VSCRSADD", 2),
            (0x38, "IDMOFF", 0), (0x39, "IDMON", 0), (0x3A, "PIXSET", 1), (0x44, "STS", 2), (0x51, "WRDISBV", 1),
            (0x53, "WRCTRLD", 1), (0x55, "WRCABC", 1), (0x5E, "WRCABCMB", 1),
            // Extended command set (§8.3).
            (0xB0, "IFMODE", 1), (0xB1, "FRMCTR1", 2), (0xB2, "FRMCTR2", 2), (0xB3, "FRMCTR3", 2), (0xB4, "INVTR", 1),
            (0xB5, "PRCTR", 4), (0xB6, "DISCTRL", 4), (0xB7, "ETMOD", 1), (0xB8, "BLCTRL1", 1), (0xB9, "BLCTRL2", 1),
            (0xBA, "BLCTRL3", 1), (0xBB, "BLCTRL4", 1), (0xBC, "BLCTRL5", 1), (0xBE, "BLCTRL7", 1), (0xBF, "BLCTRL8", 1),
            (0xC0, "PWCTRL1", 1), (0xC1, "PWCTRL2", 1), (0xC5, "VMCTRL1", 2), (0xC7, "VMCTRL2", 1), (0xD0, "NVMWR", 2),
            (0xD1, "NVMPKEY", 3), (0xE0, "PGAMCTRL", 15), (0xE1, "NGAMCTRL", 15), (0xE2, "DGAMCTRL1", 16),
            (0xE3, "DGAMCTRL2", 64), (0xF6, "IFCTL", 3),
            // Extend register commands (§8.4).
            (0xCB, "PWCTRLA", 5), (0xCF, "PWCTRLB", 3), (0xE8, "DTCTRLA", 3), (0xE9, "DTCTRLA2", 3),
            (0xEA, "DTCTRLB", 2), (0xED, "PWRONSEQ", 4), (0xF2, "EN3G", 1), (0xF7, "PUMPRATIO", 1),
        ],
        pixels: [(0x2C, "RAMWR", false), (0x3C, "WRMEMC", true)],
        reads: [
            (0x04, "RDDIDIF"), (0x09, "RDDST"), (0x0A, "RDDPM"), (0x0B, "RDDMADCTL"), (0x0C, "RDDCOLMOD"),
            (0x0D, "RDDIM"), (0x0E, "RDDSM"), (0x0F, "RDDSDR"), (0x2E, "RAMRD"), (0x3E, "RDMEMC"), (0x45, "GTSCAN"),
            (0x52, "RDDISBV"), (0x54, "RDCTRLD"), (0x56, "RDCABC"), (0x5F, "RDCABCMB"), (0xD2, "NVMST"),
            (0xD3, "RDID4"), (0xDA, "RDID1"), (0xDB, "RDID2"), (0xDC, "RDID3"),
        ])
}
