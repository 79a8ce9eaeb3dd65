/// The Memory Data Access Control register (MADCTL, 36h) as the chip applies it: where a pixel
/// the host writes at column address c, row (page) address p lands in the frame memory.
///
/// ST7735S V1.4 §9.11 tabulates it for each frame memory size: with MV = 0 CASET addresses the
/// physical column and RASET the physical row; with MV = 1 CASET addresses the row and RASET the
/// column; MX then counts the physical columns from the right ("131 − physical column pointer")
/// and MY the physical rows from the bottom, whatever MV is. ST7789V V1.3 §8.12 (Figure 33) and
/// ILI9341 V1.11 §9.3 tabulate the same eight cases.
struct TFTMemoryAccess: Sendable, Equatable {
    /// The register's value as the chip uses it (MADCTL, exclusive-ORed with LCMCTRL's or IFCTL's
    /// bits where the controller has them).
    let value: UInt8

    /// D7, MY: rows from the bottom.
    var rowsReversed: Bool { value & 0x80 != 0 }
    /// D6, MX: columns from the right.
    var columnsReversed: Bool { value & 0x40 != 0 }
    /// D5, MV: CASET addresses rows and RASET columns.
    var exchanged: Bool { value & 0x20 != 0 }
    /// D3: the colour filter order the outputs drive, BGR when set (ST7789V V1.3 §9.1.28 "RGB/BGR
    /// Order"; ILI9341 V1.11 §8.2.29 "0=RGB color filter panel, 1=BGR color filter panel").
    var bgr: Bool { value & 0x08 != 0 }

    /// The frame memory position of host address (`column`, `page`) in a memory of `size`; `nil`
    /// outside it ("data of out of range will be ignored", ST7789V V1.3 §9.1.20).
    func ramPosition(column: Int, page: Int, in size: TFTRAMSize) -> (x: Int, y: Int)? {
        var x = exchanged ? page : column
        var y = exchanged ? column : page
        guard (0..<size.width).contains(x), (0..<size.height).contains(y) else { return nil }
        if columnsReversed { x = size.width - 1 - x }
        if rowsReversed { y = size.height - 1 - y }
        return (x, y)
    }

    /// The largest column and row addresses the host may give under this register: CASET runs over
    /// the rows when MV exchanges them (ST7789V V1.3 §9.1.20: "0 < XS < XE < 319 (013Fh): MV='1'").
    func addressLimits(in size: TFTRAMSize) -> (column: Int, page: Int) {
        exchanged ? (size.height - 1, size.width - 1) : (size.width - 1, size.height - 1)
    }
}
