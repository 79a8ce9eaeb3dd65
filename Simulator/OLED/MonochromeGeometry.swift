import HeadwayDevices

/// The facts that set the monochrome (page-addressed) controllers apart, as data: RAM size, how
/// many driver outputs, which way the RAM is turned against them, and the reset values that
/// differ. The code branches on these, not on the controller's name.
struct MonochromeGeometry: Sendable, Equatable {
    /// RAM columns (a column is one byte per page).
    var ramColumns: Int
    var ramPages: Int
    /// SEG outputs.
    var segments: Int
    /// COM outputs (and scan lines).
    var commons: Int
    /// SH1107 turns the RAM: a column is a COM line, and a page's bits run along the segments
    /// (SH1107 V2.1 Figure 10: page address D0 … D7 → Seg0 … Seg7; "Display address" → Common
    /// output; "Set Display Start Line: Specify Column address").
    var columnsOnCommons: Bool
    /// Solomon's segment re-map applies when data is written: "This command only affects
    /// subsequent data input. Data already stored in GDDRAM will have no changes." (SSD1306 §10.1.8,
    /// SSD1309 §10.8, SSD1305 §10.1.12, SSD1315 App. IV §1.2.8). Sino Wealth's re-map reverses the
    /// output order ("The order of segment driver output pads can be reversed by software"), so it
    /// applies to what is already shown.
    var remapOnWrite: Bool
    /// Contrast after reset: 7Fh (SSD1306, SSD1309, SSD1315 reset circuit lists) or 80h (SSD1305
    /// §8.5, SH1106 and SH1107 reset circuit lists).
    var resetContrast: UInt8
    /// The charge pump / DC-DC converter after reset: on for SH1106 (ADh data POR 8Bh) and SH1107
    /// (POR 81h, D = 1); off for SSD1306 and SSD1315 (8Dh A[2] = 0 at reset) and SSD1305 (ADh
    /// A[0] = 0, external VCC, at reset); SSD1309 has none.
    var resetConverterOn: Bool
    /// The multiplex register's range (value = lines − 1): 15 … 63 on Solomon parts ("A[5:0] from 0
    /// to 14 are invalid entry"), 0 … 63 on SH1106 (ratio 1 … 64), 0 … 127 on SH1107 (1 … 128).
    var multiplexRange: ClosedRange<Int>
    /// What page addressing does after the last column: wrap to the column window's start (Solomon:
    /// "If the column address pointer reaches column end address, the column address pointer is reset
    /// to column start address", SSD1306 §10.1.3), stop (SH1106: "incremented during each access until
    /// address 131 is accessed"; more data is lost) or wrap to column 0 (SH1107 §3: "the column
    /// address is reset to column start address", and it has no column window).
    var pageModeEnd: PageModeEnd
    /// What vertical addressing does after the last page: Solomon moves to the next column ("page
    /// address pointer is reset to page start address and column address pointer is increased by 1",
    /// SSD1306 §10.1.3); SH1107 keeps the column ("column address is not changed", §3, 21H).
    var verticalWrapAdvancesColumn: Bool

    enum PageModeEnd: Sendable, Equatable { case wrapToWindow, stop, wrapToZero }

    static func of(_ controller: OLEDController) -> MonochromeGeometry {
        switch controller {
        case .ssd1306, .ssd1315:
            // SSD1306 §8.7 / SSD1315 §6.7: 128 x 64 bits in 8 pages; 128 SEG, 64 COM.
            MonochromeGeometry(ramColumns: 128, ramPages: 8, segments: 128, commons: 64, columnsOnCommons: false, remapOnWrite: true,
                               resetContrast: 0x7F, resetConverterOn: false, multiplexRange: 15...63,
                               pageModeEnd: .wrapToWindow, verticalWrapAdvancesColumn: true)
        case .ssd1309:
            MonochromeGeometry(ramColumns: 128, ramPages: 8, segments: 128, commons: 64, columnsOnCommons: false, remapOnWrite: true,
                               resetContrast: 0x7F, resetConverterOn: false, multiplexRange: 15...63,
                               pageModeEnd: .wrapToWindow, verticalWrapAdvancesColumn: true)
        case .ssd1305:
            // SSD1305 §8.7: 132 x 64 bits; SEG0 … SEG131; A1h maps column 131 to SEG0.
            MonochromeGeometry(ramColumns: 132, ramPages: 8, segments: 132, commons: 64, columnsOnCommons: false, remapOnWrite: true,
                               resetContrast: 0x80, resetConverterOn: false, multiplexRange: 15...63,
                               pageModeEnd: .wrapToWindow, verticalWrapAdvancesColumn: true)
        case .sh1106:
            // SH1106 V2.2: 132 x 64 RAM, 132 segment drivers, COM0 … COM63.
            MonochromeGeometry(ramColumns: 132, ramPages: 8, segments: 132, commons: 64, columnsOnCommons: false, remapOnWrite: false,
                               resetContrast: 0x80, resetConverterOn: true, multiplexRange: 0...63,
                               pageModeEnd: .stop, verticalWrapAdvancesColumn: true)
        case .sh1107:
            // SH1107 V2.1: 128 x 128 RAM in pages 0 … 15 (B0h … BFh), 128 SEG, COM0 … COM127.
            MonochromeGeometry(ramColumns: 128, ramPages: 16, segments: 128, commons: 128, columnsOnCommons: true, remapOnWrite: false,
                               resetContrast: 0x80, resetConverterOn: true, multiplexRange: 0...127,
                               pageModeEnd: .wrapToZero, verticalWrapAdvancesColumn: false)
        case .ssd1327:
            preconditionFailure("SSD1327 is a greyscale controller; see SSD1327Registers")
        }
    }
}
