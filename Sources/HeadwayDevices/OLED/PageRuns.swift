/// A rectangle of controller RAM to rewrite: columns `firstColumn...lastColumn` of pages
/// `firstPage...lastPage` (picture coordinates, before the module's column offset).
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
}

/// Works out which parts of a display to rewrite to turn one picture into the next, sending the
/// fewest bytes on the wire of three plans:
/// - **page runs**: for each page the changed columns, byte by byte; two changed stretches are sent
///   as one when the unchanged gap between them costs fewer bytes than starting a new run, and runs
///   covering the same columns on consecutive pages become one rectangle when the controller can
///   address rectangles (SSD1306's column/page window);
/// - **one window**: the bounding rectangle of every change (one addressing when a few small
///   changes lie close together);
/// - **the whole picture**.
/// Each is costed exactly as ``OLEDDisplay`` sends it (``cost(of:)``), so no frame ever costs more
/// than the cheapest of the three. Both pictures are in page format (``Bitmap/bytes``).
public struct PageRunPlanner: Sendable {
    public var width: Int
    public var pages: Int
    public var controller: OLEDController
    /// The bus's longest message (control byte included): 33 on SMBus-only adapters.
    public var messageLimit: Int

    public init(width: Int, pages: Int, controller: OLEDController, messageLimit: Int) {
        self.width = width
        self.pages = pages
        self.controller = controller
        self.messageLimit = messageLimit
    }

    /// Bytes on the wire that starting one more run costs: its addressing message and one more
    /// data message (each message with its address byte and control byte).
    var runOverhead: Int { addressingBytes + 2 }

    /// The addressing message of one run (of one page of it on SH1106): the address byte, the
    /// control byte and the commands (SSD1306: column and page window, 6 bytes; SH1106: page and
    /// column, 3 bytes).
    var addressingBytes: Int { controller == .sh1106 ? 5 : 8 }

    /// The cheapest plan that turns `old` into `new`; every byte when there is no old picture.
    public func runs(from old: [UInt8]?, to new: [UInt8]) -> [PageRun] {
        precondition(new.count == width * pages, "picture size does not match the display")
        let whole = [PageRun(firstPage: 0, lastPage: pages - 1, firstColumn: 0, lastColumn: width - 1)]
        guard let old else { return whole }
        let runs = pageRuns(from: old, to: new)
        guard runs.count > 1, let window = Self.boundingWindow(of: runs) else { return runs }
        return [runs, [window], whole].min { cost(of: $0) < cost(of: $1) }!
    }

    /// The changed stretches of each page, merged as described above.
    public func pageRuns(from old: [UInt8], to new: [UInt8]) -> [PageRun] {
        var runs: [PageRun] = []
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                for page in 0..<pages {
                    let row = page * width
                    var current: PageRun?
                    for x in 0..<width where old[row + x] != new[row + x] {
                        if var run = current, x - run.lastColumn - 1 <= runOverhead {
                            run.lastColumn = x
                            current = run
                        } else {
                            if let run = current { runs.append(run) }
                            current = PageRun(firstPage: page, lastPage: page, firstColumn: x, lastColumn: x)
                        }
                    }
                    if let run = current { runs.append(run) }
                }
            }
        }
        return controller == .sh1106 ? runs : mergeVertically(runs)
    }

    /// The rectangle around `runs` (nil for none).
    public static func boundingWindow(of runs: [PageRun]) -> PageRun? {
        guard let first = runs.first else { return nil }
        return runs.dropFirst().reduce(first) {
            PageRun(
                firstPage: min($0.firstPage, $1.firstPage), lastPage: max($0.lastPage, $1.lastPage),
                firstColumn: min($0.firstColumn, $1.firstColumn), lastColumn: max($0.lastColumn, $1.lastColumn))
        }
    }

    /// Bytes on the wire (address bytes included) that `runs` cost as ``OLEDDisplay`` sends them:
    /// on SSD1306 each run is one window and its data one stream across its pages; on SH1106 each
    /// page of a run is addressed and sent on its own.
    public func cost(of runs: [PageRun]) -> Int {
        runs.reduce(0) { total, run in
            controller == .sh1106
                ? total + run.pages * (addressingBytes + dataBytes(run.columns)) : total + addressingBytes + dataBytes(run.bytes)
        }
    }

    /// `count` display bytes as data messages of at most `messageLimit` bytes, each with its
    /// address byte and control byte.
    func dataBytes(_ count: Int) -> Int {
        let perMessage = messageLimit - 1
        return count + 2 * ((count + perMessage - 1) / perMessage)
    }

    private func mergeVertically(_ runs: [PageRun]) -> [PageRun] {
        var merged: [PageRun] = []
        for run in runs {
            let above = merged.firstIndex {
                $0.lastPage + 1 == run.firstPage && $0.firstColumn == run.firstColumn && $0.lastColumn == run.lastColumn
            }
            if let above { merged[above].lastPage = run.lastPage } else { merged.append(run) }
        }
        return merged
    }
}
