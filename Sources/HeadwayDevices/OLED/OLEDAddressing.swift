/// How a controller's RAM is written: the few addressing models the driver branches on. A new
/// controller picks one of these in its variant row; only a new kind of RAM needs a new case.
///
/// The driver keeps each picture as the controller's RAM holds it, in *rows of bytes*: on the
/// monochrome controllers a row is a page (8 pixel rows, one byte per column, least significant bit
/// on top); on SSD1327 a row is one pixel row of two pixels a byte. Plans are rectangles of those
/// bytes (`PageRun`).
package enum OLEDAddressing: Sendable, Equatable {
    /// Horizontal addressing inside a column × page window (SSD1306 family, commands 0x21 and
    /// 0x22): a rectangle is one window and one data stream that wraps from page to page.
    case pageWindow
    /// Page addressing only (SH1106, SH1107): each page of a rectangle is addressed on its own.
    case pagesOnly
    /// 4-bit greyscale, horizontal increment inside a column-pair × row window (SSD1327, commands
    /// 0x15 and 0x75): a rectangle is one window and one data stream.
    case greyWindow

    /// Whether one addressing covers a rectangle of several rows.
    package var addressesRectangles: Bool { self != .pagesOnly }

    /// Whether a pixel has 16 levels.
    package var isGreyscale: Bool { self == .greyWindow }

    /// Rows of RAM bytes a glass of this height takes.
    package func rows(height: Int) -> Int { isGreyscale ? height : (height + 7) / 8 }

    /// Bytes in one row for a glass of this width.
    package func rowBytes(width: Int) -> Int { isGreyscale ? (width + 1) / 2 : width }

    /// The commands that make the next data bytes land in `run`, on a glass whose first byte column
    /// is RAM column `columnOffset` (in bytes) and whose first row is RAM row `rowOffset`; on
    /// ``pagesOnly`` controllers the one row `row` of it.
    func commands(for run: PageRun, row: Int, columnOffset: Int, rowOffset: Int) -> [OLEDCommand] {
        let first = UInt8(run.firstColumn + columnOffset), last = UInt8(run.lastColumn + columnOffset)
        switch self {
        case .pageWindow:
            return [.columnWindow(first, last), .pageWindow(UInt8(run.firstPage + rowOffset), UInt8(run.lastPage + rowOffset))]
        case .pagesOnly:
            return [.page(UInt8(row + rowOffset)), .column(first)]
        case .greyWindow:
            return [.greyColumnWindow(first, last), .greyRowWindow(UInt8(run.firstPage + rowOffset), UInt8(run.lastPage + rowOffset))]
        }
    }

    /// Bytes of addressing commands for one window (one row of it on ``pagesOnly``).
    var commandBytes: Int { self == .pagesOnly ? 3 : 6 }
}
