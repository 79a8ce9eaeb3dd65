/// A rectangle of controller RAM to rewrite: byte columns `firstColumn...lastColumn` of rows
/// `firstPage...lastPage` (picture coordinates, before the module's offsets). A row is what the
/// controller addresses as one: a page of 8 pixel rows on monochrome controllers, one pixel row on
/// SSD1327 (whose byte columns are pairs of pixels).
public struct PageRun: Sendable, Equatable {
    public var firstPage: Int
    public var lastPage: Int
    public var firstColumn: Int
    public var lastColumn: Int

    public init(firstPage: Int, lastPage: Int, firstColumn: Int, lastColumn: Int) {
        self.firstPage = firstPage
        self.lastPage = lastPage
        self.firstColumn = firstColumn
        self.lastColumn = lastColumn
    }

    public var columns: Int { lastColumn - firstColumn + 1 }
    public var pages: Int { lastPage - firstPage + 1 }
    public var bytes: Int { columns * pages }

    /// The smallest rectangle holding both.
    func union(_ other: PageRun) -> PageRun {
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
public struct PageRunPlanner: Sendable {
    /// Bytes in one row of the picture, and rows.
    public let rowBytes: Int
    public let rows: Int
    public let addressing: OLEDAddressing
    /// Bytes on the wire for one addressing (of one row on page-only controllers).
    public let addressingCost: Int
    private let interface: any OLEDInterface

    public init(rowBytes: Int, rows: Int, addressing: OLEDAddressing, interface: any OLEDInterface) {
        self.rowBytes = rowBytes
        self.rows = rows
        self.addressing = addressing
        self.interface = interface
        addressingCost = interface.commandCost(addressing.commandBytes)
    }

    /// Bytes on the wire that starting one more run costs beyond its data: its addressing and the
    /// framing of one more data message.
    var runOverhead: Int { addressingCost + interface.dataCost(1) - 1 }

    /// The cheapest plan that turns `old` into `new`; every byte when there is no old picture.
    public func runs(from old: [UInt8]?, to new: [UInt8]) -> [PageRun] {
        precondition(new.count == rowBytes * rows, "picture size does not match the display")
        let whole = [PageRun(firstPage: 0, lastPage: rows - 1, firstColumn: 0, lastColumn: rowBytes - 1)]
        guard let old else { return whole }
        let (runs, quarters) = changes(from: old, to: new)
        guard let window = Self.boundingWindow(of: runs) else { return runs }
        return [runs, [window], quarters, whole].min { cost(of: $0) < cost(of: $1) }!
    }

    /// The changed stretches of each row, merged as described above.
    public func pageRuns(from old: [UInt8], to new: [UInt8]) -> [PageRun] {
        changes(from: old, to: new).runs
    }

    /// The bounding rectangles of the changes in each quarter of the picture that changed (top
    /// left, top right, bottom left, bottom right).
    public func quarterWindows(from old: [UInt8], to new: [UInt8]) -> [PageRun] {
        changes(from: old, to: new).quarters
    }

    /// One pass over both pictures: the row runs (``pageRuns(from:to:)``) and the quarters' windows
    /// (``quarterWindows(from:to:)``).
    private func changes(from old: [UInt8], to new: [UInt8]) -> (runs: [PageRun], quarters: [PageRun]) {
        var runs: [PageRun] = []
        var quarters: [PageRun?] = [nil, nil, nil, nil]
        let overhead = runOverhead
        // The first row of the lower quarters and the first byte column of the right ones.
        let middleRow = rows / 2, middleColumn = rowBytes / 2
        func extend(_ quarter: Int, row: Int, first: Int, last: Int) {
            let here = PageRun(firstPage: row, lastPage: row, firstColumn: first, lastColumn: last)
            quarters[quarter] = quarters[quarter].map { $0.union(here) } ?? here
        }
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                for row in 0..<rows {
                    let start = row * rowBytes
                    var current: PageRun?
                    var left = (first: Int.max, last: -1), right = (first: Int.max, last: -1)
                    for x in 0..<rowBytes where old[start + x] != new[start + x] {
                        if x < middleColumn {
                            left = (min(left.first, x), x)
                        } else {
                            right = (min(right.first, x), x)
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
                    let half = row < middleRow ? 0 : 2
                    if left.last >= 0 { extend(half, row: row, first: left.first, last: left.last) }
                    if right.last >= 0 { extend(half + 1, row: row, first: right.first, last: right.last) }
                }
            }
        }
        return (addressing.addressesRectangles ? mergeDown(runs) : runs, quarters.compactMap { $0 })
    }

    /// The rectangle around `runs` (nil for none).
    public static func boundingWindow(of runs: [PageRun]) -> PageRun? {
        guard let first = runs.first else { return nil }
        return runs.dropFirst().reduce(first) { $0.union($1) }
    }

    /// Bytes on the wire (framing included) that `runs` cost as ``OLEDDisplay`` sends them: where
    /// the controller addresses rectangles each run is one window and its data one stream; on
    /// page-only controllers each row of a run is addressed and sent on its own.
    public func cost(of runs: [PageRun]) -> Int {
        runs.reduce(0) { total, run in total + cost(of: run) }
    }

    func cost(of run: PageRun) -> Int {
        addressing.addressesRectangles
            ? addressingCost + interface.dataCost(run.bytes) : run.pages * (addressingCost + interface.dataCost(run.columns))
    }

    /// Row runs (in row order) grown into rectangles: each run joins the rectangle that ended on the
    /// row above when the rectangle around both costs no more than the two apart.
    private func mergeDown(_ runs: [PageRun]) -> [PageRun] {
        var merged: [PageRun] = []
        var open: [Int] = []        // indices in `merged` of rectangles ending on the previous row
        var opening: [Int] = []     // … ending on the current row
        var row = -1
        for run in runs {
            if run.firstPage != row {
                open = run.firstPage == row + 1 ? opening : []
                opening = []
                row = run.firstPage
            }
            var best: (index: Int, saving: Int)?
            for index in open {
                let joined = merged[index].union(run)
                let saving = cost(of: merged[index]) + cost(of: run) - cost(of: joined)
                if saving >= 0, saving > best?.saving ?? -1 { best = (index, saving) }
            }
            if let best {
                merged[best.index] = merged[best.index].union(run)
                open.removeAll { $0 == best.index }
                opening.append(best.index)
            } else {
                merged.append(run)
                opening.append(merged.count - 1)
            }
        }
        return merged
    }
}
