/// A rectangle of controller RAM to rewrite: byte columns `firstColumn...lastColumn` of rows
/// `firstPage...lastPage` (picture coordinates, before the module's offsets). A row is what the
/// controller addresses as one: a page of 8 pixel rows on monochrome controllers, one pixel row on
/// SSD1327 (whose byte columns are pairs of pixels).
package struct PageRun: Sendable, Equatable, RowRectangle {
    /// The first row (page) rewritten.
    package var firstPage: Int
    /// The row it starts on, as the planner merges rows.
    package var firstRow: Int { firstPage }
    /// The last row (page) rewritten.
    package var lastPage: Int
    /// The first byte column rewritten.
    package var firstColumn: Int
    /// The last byte column rewritten.
    package var lastColumn: Int

    /// The rectangle of rows `firstPage…lastPage` and byte columns `firstColumn…lastColumn`.
    package init(firstPage: Int, lastPage: Int, firstColumn: Int, lastColumn: Int) {
        self.firstPage = firstPage
        self.lastPage = lastPage
        self.firstColumn = firstColumn
        self.lastColumn = lastColumn
    }

    /// How many byte columns.
    package var columns: Int { lastColumn - firstColumn + 1 }
    /// How many rows (pages).
    package var pages: Int { lastPage - firstPage + 1 }
    /// How many bytes it holds.
    package var bytes: Int { columns * pages }

    /// The smallest rectangle holding both.
    package func union(_ other: PageRun) -> PageRun {
        PageRun(
            firstPage: min(firstPage, other.firstPage), lastPage: max(lastPage, other.lastPage),
            firstColumn: min(firstColumn, other.firstColumn), lastColumn: max(lastColumn, other.lastColumn))
    }
}

/// Works out which parts of a display to rewrite to turn one picture into the next, sending the
/// fewest bytes on the wire of these plans:
/// - **row runs**: for each row the changed byte columns; two changed stretches are sent as one
///   when the unchanged gap between them costs fewer bytes than starting a new run; where the
///   controller addresses rectangles (a window), a run grows down into the next row's run when the
///   rectangle around both costs less than the two apart;
/// - **one window**: the bounding rectangle of every change (one addressing when a few small
///   changes lie close together);
/// - **a window per quarter**: the bounding rectangle of the changes in each quarter of the picture
///   (halved across its rows and its row bytes), as luma.oled's `diff_to_previous` framebuffer cuts
///   a greyscale picture into a 2×2 grid — one addressing for the changes scattered in a quarter,
///   however far apart their rows are;
/// - **the whole picture**.
/// Each is costed exactly as ``OLEDDisplay`` sends it on its interface (``cost(of:)``), so no frame
/// ever costs more than the cheapest of them. Pictures are in RAM format: `rows × rowBytes` bytes.
package struct PageRunPlanner: Sendable {
    /// Bytes in one row of the picture, and rows.
    package let rowBytes: Int
    /// How many rows.
    package let rows: Int
    /// How the controller's RAM is addressed.
    package let addressing: OLEDAddressing
    /// Bytes on the wire for one addressing (of one row on page-only controllers).
    package let addressingCost: Int
    private let framing: OLEDDataFraming

    /// A planner for pictures of `rows` rows of `rowBytes` bytes, costed on `interface`.
    package init(rowBytes: Int, rows: Int, addressing: OLEDAddressing, interface: any OLEDInterface) {
        self.rowBytes = rowBytes
        self.rows = rows
        self.addressing = addressing
        framing = interface.dataFraming
        addressingCost = interface.commandCost(addressing.commandBytes)
    }

    /// Bytes on the wire that starting one more run costs beyond its data: its addressing and the
    /// framing of one more data message.
    var runOverhead: Int { addressingCost + framing.cost(1) - 1 }

    /// The cheapest plan that turns `old` into `new`; every byte when there is no old picture.
    package func runs(from old: [UInt8]?, to new: [UInt8]) -> [PageRun] {
        precondition(new.count == rowBytes * rows, "picture size does not match the display")
        let whole = PageRun(firstPage: 0, lastPage: rows - 1, firstColumn: 0, lastColumn: rowBytes - 1)
        guard let old else { return [whole] }
        let (runs, quarters) = changes(from: old, to: new)
        guard let window = Self.boundingWindow(of: runs) else { return runs }
        // Each plan costed once; of equals, the first in this order.
        let costs = (runs: cost(of: runs), window: cost(of: window), quarters: quarters.cost(self), whole: cost(of: whole))
        let cheapest = min(costs.runs, costs.window, costs.quarters, costs.whole)
        if costs.runs == cheapest { return runs }
        if costs.window == cheapest { return [window] }
        if costs.quarters == cheapest { return quarters.windows }
        return [whole]
    }

    /// The changed stretches of each row, merged as described above.
    package func pageRuns(from old: [UInt8], to new: [UInt8]) -> [PageRun] {
        changes(from: old, to: new).runs
    }

    /// The bounding rectangles of the changes in each quarter of the picture that changed (top
    /// left, top right, bottom left, bottom right).
    package func quarterWindows(from old: [UInt8], to new: [UInt8]) -> [PageRun] {
        changes(from: old, to: new).quarters.windows
    }

    /// The rectangle around the changes in one quarter, grown row by row (empty: no row yet).
    private struct Box {
        var firstRow = -1, lastRow = -1, firstColumn = Int.max, lastColumn = -1

        mutating func add(row: Int, first: Int, last: Int) {
            if firstRow < 0 { firstRow = row }
            lastRow = row
            firstColumn = min(firstColumn, first)
            lastColumn = max(lastColumn, last)
        }

        var window: PageRun? {
            firstRow < 0 ? nil : PageRun(firstPage: firstRow, lastPage: lastRow, firstColumn: firstColumn, lastColumn: lastColumn)
        }
    }

    /// The four quarters' rectangles, top left to bottom right.
    private struct Quarters {
        var topLeft = Box(), topRight = Box(), bottomLeft = Box(), bottomRight = Box()

        var windows: [PageRun] { [topLeft, topRight, bottomLeft, bottomRight].compactMap(\.window) }

        func cost(_ planner: PageRunPlanner) -> Int {
            [topLeft, topRight, bottomLeft, bottomRight].reduce(0) { total, box in total + (box.window.map { planner.cost(of: $0) } ?? 0) }
        }
    }

    /// One pass over both pictures: the row runs (``pageRuns(from:to:)``) and the quarters'
    /// rectangles (``quarterWindows(from:to:)``).
    private func changes(from old: [UInt8], to new: [UInt8]) -> (runs: [PageRun], quarters: Quarters) {
        var runs: [PageRun] = []
        runs.reserveCapacity(rows)
        var quarters = Quarters()
        let overhead = runOverhead
        // The first row of the lower quarters and the first byte column of the right ones.
        let middleRow = rows / 2, middleColumn = rowBytes / 2
        // Most rows did not change at all; where a row is whole 64-byte blocks, they say so first.
        let blocks = rowBytes % 64 == 0 ? rowBytes / 64 : 0
        old.withUnsafeBytes { old in
            new.withUnsafeBytes { new in
                for row in 0..<rows {
                    let start = row * rowBytes
                    if blocks > 0, Self.equal(old, new, at: start, blocks: blocks) { continue }
                    var current: PageRun?
                    // The changed byte columns of this row in the left half and in the right half.
                    var leftFirst = -1, leftLast = -1, rightFirst = -1, rightLast = -1
                    var x = 0
                    while x < rowBytes {
                        // Unchanged bytes 32 and 8 at a time: most of a picture stays as it was.
                        if x + 32 <= rowBytes, Self.equal(old, new, at: start + x, words: 4) {
                            x += 32
                            continue
                        }
                        if x + 8 <= rowBytes, Self.equal(old, new, at: start + x, words: 1) {
                            x += 8
                            continue
                        }
                        defer { x += 1 }
                        guard old[start + x] != new[start + x] else { continue }
                        if x < middleColumn {
                            if leftFirst < 0 { leftFirst = x }
                            leftLast = x
                        } else {
                            if rightFirst < 0 { rightFirst = x }
                            rightLast = x
                        }
                        if var run = current, x - run.lastColumn - 1 <= overhead {
                            run.lastColumn = x
                            current = run
                        } else {
                            if let run = current { runs.append(run) }
                            current = PageRun(firstPage: row, lastPage: row, firstColumn: x, lastColumn: x)
                        }
                    }
                    guard let run = current else { continue }
                    runs.append(run)
                    if leftFirst >= 0 {
                        if row < middleRow { quarters.topLeft.add(row: row, first: leftFirst, last: leftLast) } else { quarters.bottomLeft.add(row: row, first: leftFirst, last: leftLast) }
                    }
                    if rightFirst >= 0 {
                        if row < middleRow { quarters.topRight.add(row: row, first: rightFirst, last: rightLast) } else { quarters.bottomRight.add(row: row, first: rightFirst, last: rightLast) }
                    }
                }
            }
        }
        return (addressing.addressesRectangles ? runs.mergedDown(cost: cost(of:)) : runs, quarters)
    }

    /// Whether `blocks` 64-byte blocks of both pictures from `offset` are the same.
    @inline(__always)
    private static func equal(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer, at offset: Int, blocks: Int) -> Bool {
        for block in 0..<blocks where !equal(old, new, at: offset + block * 64, words: 8) { return false }
        return true
    }

    /// Whether `words` 8-byte words of both pictures from `offset` are the same.
    @inline(__always)
    private static func equal(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer, at offset: Int, words: Int) -> Bool {
        var difference: UInt64 = 0
        for word in 0..<words {
            difference |= old.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self) ^ new.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self)
        }
        return difference == 0
    }

    /// The rectangle around `runs` (nil for none).
    package static func boundingWindow(of runs: [PageRun]) -> PageRun? {
        guard let first = runs.first else { return nil }
        return runs.dropFirst().reduce(first) { $0.union($1) }
    }

    /// Bytes on the wire (framing included) that `runs` cost as ``OLEDDisplay`` sends them: where
    /// the controller addresses rectangles each run is one window and its data one stream; on
    /// page-only controllers each row of a run is addressed and sent on its own.
    package func cost(of runs: [PageRun]) -> Int {
        runs.reduce(0) { total, run in total + cost(of: run) }
    }

    func cost(of run: PageRun) -> Int {
        addressing.addressesRectangles
            ? addressingCost + framing.cost(run.bytes) : run.pages * (addressingCost + framing.cost(run.columns))
    }
}
