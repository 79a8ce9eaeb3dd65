/// The column and row (page) address counters and the window CASET and RASET set for them.
///
/// ST7789V V1.3 §8.12 (and ST7735S V1.4 §9.10, ILI9341 V1.11 §9.3): RAMWR returns the counters
/// to (XS, YS); each complete pixel increments the column; past XE the column returns to XS and the
/// row increments; past YE as well, both return to the window's start.
struct TFTAddressCounter: Sendable, Equatable {
    var columnStart: Int
    var columnEnd: Int
    var pageStart: Int
    var pageEnd: Int
    private(set) var column: Int
    private(set) var page: Int

    /// The window after reset: the whole frame memory with MV = 0 (ST7789V V1.3 §9.1.20/§9.1.21
    /// "H/W Reset XS=0, XE=0xEF; YS=0, YE=0x13F").
    init(whole size: TFTRAMSize) {
        columnStart = 0
        columnEnd = size.width - 1
        pageStart = 0
        pageEnd = size.height - 1
        column = 0
        page = 0
    }

    /// RAMWR: back to the window's first pixel.
    mutating func restart() {
        column = columnStart
        page = pageStart
    }

    /// Steps past the pixel just written; returns whether the counters wrapped past the window's
    /// last pixel to its first.
    mutating func advance() -> Bool {
        column += 1
        guard column > columnEnd else { return false }
        column = columnStart
        page += 1
        guard page > pageEnd else { return false }
        page = pageStart
        return true
    }
}
